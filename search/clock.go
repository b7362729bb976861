package search

import (
	"context"
	"time"
)

// This file is the only one in search that reads the system clock or
// starts a timer. Every instant (buckets, circuits, the cache, latencies)
// comes from Deps.Now; waits are durations, so a fake clock on any date
// never meets a real deadline.

// clockOr is now, or the system clock when now is nil.
func clockOr(now func() time.Time) func() time.Time {
	if now != nil {
		return now
	}
	return time.Now
}

// sleep waits d or until ctx ends; it reports whether the whole wait passed.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// fitsBefore reports whether a wait of d ends before ctx's deadline (always
// true for a context without one).
func fitsBefore(ctx context.Context, d time.Duration) bool {
	dl, ok := ctx.Deadline()
	return !ok || d <= 0 || d < time.Until(dl)
}
