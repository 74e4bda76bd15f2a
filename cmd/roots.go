package main

// The images are built from scratch (internal/image, the Dockerfile): they hold no /etc/ssl/certs.
// Mozilla's roots, compiled in, are used only where the system has none, so an https ToolServer
// upstream or OTLP collector with a public certificate verifies; a bundle mounted at the system's
// paths (or named by SSL_CERT_FILE) still replaces them.
import _ "golang.org/x/crypto/x509roots/fallback"
