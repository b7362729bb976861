package mcp

import "time"

// The one file of the package that touches the wall clock. Dates and rate
// limits read the Server's injected clock; what is here only measures
// waits: timers and tickers for shutdown, counters and socket bounds, and
// the default clock when none is given.

// wallClock is the clock used when New is given none.
func wallClock() time.Time { return time.Now() }

// timer fires once after d; stop releases it.
type timer struct{ t *time.Timer }

func newTimer(d time.Duration) timer { return timer{time.NewTimer(d)} }

func (t timer) C() <-chan time.Time { return t.t.C }
func (t timer) stop()               { t.t.Stop() }

// ticker fires every d; stop releases it.
type ticker struct{ t *time.Ticker }

func newTicker(d time.Duration) ticker { return ticker{time.NewTicker(d)} }

func (t ticker) C() <-chan time.Time { return t.t.C }
func (t ticker) stop()               { t.t.Stop() }

// after is a channel that receives once after d (for tests and bounded
// waits that need no stop).
func after(d time.Duration) <-chan time.Time { return time.After(d) }

// elapsedSince is the time passed since t, a reading of wallClock.
func elapsedSince(t time.Time) time.Duration { return time.Since(t) }

// deadlineIn is the absolute time d from now, for the read and write
// deadlines of sockets, which the net package takes as wall-clock times.
func deadlineIn(d time.Duration) time.Time { return time.Now().Add(d) }
