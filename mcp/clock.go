package mcp

import "time"

// The one file of the package that touches the system clock, as the
// clock gate of the module requires. Instants (dates, rate limits,
// latencies) come from the clock New is given; what is here are the
// waits, which are durations and never compared with that clock: the
// shutdown deadlines, the counters' ticker, the accept back-off, and the
// socket deadlines, which the net package takes as wall-clock times.

// wallClock is the clock used when New is given none.
func wallClock() time.Time { return time.Now() }

// newTimer and newTicker start the package's waits.
func newTimer(d time.Duration) *time.Timer   { return time.NewTimer(d) }
func newTicker(d time.Duration) *time.Ticker { return time.NewTicker(d) }

// deadlineIn is the wall-clock time d from now, for a socket's read and
// write deadlines.
func deadlineIn(d time.Duration) time.Time { return time.Now().Add(d) }
