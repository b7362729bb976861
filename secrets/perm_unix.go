//go:build unix

package secrets

import "io/fs"

// worldReadable reports whether the others-read bit is set.
func worldReadable(m fs.FileMode) bool { return m.Perm()&0o004 != 0 }
