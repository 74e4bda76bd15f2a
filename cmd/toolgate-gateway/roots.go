package main

// Mozilla's roots where the image has none (the images are built from scratch).
import _ "github.com/toolgate/toolgate/internal/fallbackroots"
