//go:build unix

package htmlx

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has used, so that a
// benchmark can report throughput per CPU second on a shared machine.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
