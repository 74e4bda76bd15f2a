// Command hello is the smallest program the image tests build for several platforms: it prints
// the version it was stamped with, and links the runtime alone, so a cross-compile is quick.
package main

var version = "dev"

func main() { println("hello " + version) }
