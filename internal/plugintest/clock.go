package plugintest

import "time"

// WaitGone polls Live for up to 5 s until no process is left, and returns
// those still alive then: a process killed with SIGKILL takes a moment to
// be reaped.
func WaitGone(path string) []int {
	left := Live(path)
	for i := 0; i < 100 && len(left) > 0; i++ {
		time.Sleep(50 * time.Millisecond)
		left = Live(path)
	}
	return left
}
