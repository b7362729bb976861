//go:build !unix

package egress

import "os"

// mkfifo: there are no named pipes in the file system here; an empty file
// stands in for one, and LoadRoots refuses it as well.
func mkfifo(path string) error { return os.WriteFile(path, nil, 0o644) }
