//go:build !unix

package rsp

import (
	"os"
	"os/exec"
)

// ownGroup does nothing where process groups do not exist.
func ownGroup(*exec.Cmd) {}

// killGroup kills the process itself where there are no process groups.
func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
