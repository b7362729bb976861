// Command plugin is `rypsok rsp secrets` without the rest of rypsok, built
// by the tests of package secrets so that hosts can spawn it.
package main

import (
	"os"

	"rypsok/rsp/plugins/secrets"
)

func main() {
	os.Exit(secrets.Main("0.0.0-test", os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
