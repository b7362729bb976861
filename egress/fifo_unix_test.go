//go:build unix

package egress

import "syscall"

// mkfifo makes a named pipe, a file LoadRoots must refuse to read.
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
