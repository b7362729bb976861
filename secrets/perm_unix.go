//go:build unix

package secrets

import (
	"io/fs"
	"syscall"
)

// worldReadable reports whether the others-read bit is set.
func worldReadable(m fs.FileMode) bool { return m.Perm()&0o004 != 0 }

// owner is the user id that owns the file.
func owner(st fs.FileInfo) int {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return int(s.Uid)
	}
	return -1
}
