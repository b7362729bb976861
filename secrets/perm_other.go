//go:build !unix

package secrets

import "io/fs"

// worldReadable is false where file modes do not describe who may read a
// file (the mode bits Go reports on Windows are synthesised).
func worldReadable(fs.FileMode) bool { return false }

// owner is -1: the platform has no owner in the Unix sense.
func owner(fs.FileInfo) int { return -1 }
