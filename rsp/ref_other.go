//go:build !linux

package rsp

import "os"

// newRef puts content in a 0600 file in a private temporary directory;
// the returned function removes both. The bytes live exactly as long as
// the call.
func newRef(content string) (path string, fd3 *os.File, release func(), err error) {
	return tempRef(content)
}
