//go:build unix

package rsp

import (
	"os/exec"
	"syscall"
)

// ownGroup makes the child the leader of a new process group.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup sends SIGKILL to the whole process group led by pid. It is
// called while the leader is unreaped or right after: while any member of
// the group lives, the kernel keeps the group's number from being reused.
func killGroup(pid int) {
	if pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}
