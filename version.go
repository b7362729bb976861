package main

// version.go holds the release the binary reports, which every command
// may print.

// version is stamped by the build (make build: -X main.version=...).
var version = "0.0.0-dev"
