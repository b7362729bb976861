// Command plugin serves the injection demo plugin alone, for the tests.
package main

import (
	"os"

	"rypsok/rsp/plugins/injection"
)

func main() {
	os.Exit(injection.Main("0.0.0-test", os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
