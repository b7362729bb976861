package mcp

import "time"

// The one file of the package that touches the system clock, as the
// clock gate of the module requires. Instants (dates, rate limits,
// latencies) come from the clock New is given. The waits (the shutdown
// deadlines, the counters' ticker, the accept back-off) come from the
// Server's waits, the wall clock's unless a test gives its own; the socket
// deadlines are wall-clock times, because the net package takes them so.

// wallClock is the clock used when New is given none.
func wallClock() time.Time { return time.Now() }

// waits starts the package's waits, so that a test can end one when it
// chooses rather than when the wall clock does.
type waits interface {
	// timer returns a channel that receives once after d, and its stop.
	timer(d time.Duration) (<-chan time.Time, func() bool)
	// ticker returns a channel that receives every d, and its stop.
	ticker(d time.Duration) (<-chan time.Time, func())
}

// wallWaits are the waits of the wall clock.
type wallWaits struct{}

func (wallWaits) timer(d time.Duration) (<-chan time.Time, func() bool) {
	t := time.NewTimer(d)
	return t.C, t.Stop
}

func (wallWaits) ticker(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTicker(d)
	return t.C, t.Stop
}

// deadlineIn is the wall-clock time d from now, for a socket's read and
// write deadlines.
func deadlineIn(d time.Duration) time.Time { return time.Now().Add(d) }
