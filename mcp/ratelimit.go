package mcp

import (
	"sync"
	"time"
)

// Default rates of LIM-C6 to LIM-C8, used when a Settings field is zero.
const (
	defaultSearchPerMinute = 60
	defaultFetchPerMinute  = 30
	defaultStatusPerMinute = 30
)

const rateWindow = time.Minute

// windowLimiter admits at most limit calls in any window of one minute
// (REQ-MCP-010): it remembers when the last limit calls were admitted and
// admits another only when the oldest of them is a full minute old. Unlike
// a token bucket of capacity limit, it never lets 2×limit calls through in
// one minute (a full bucket drained at once, then refilled); like it, it
// admits a burst of up to limit calls at once.
type windowLimiter struct {
	mu       sync.Mutex
	limit    int
	admitted []time.Time // ring of the last admissions, grown up to limit
	next     int         // the oldest admission, once the ring is full
}

func newWindowLimiter(limit int) *windowLimiter {
	if limit < 1 {
		limit = 1
	}
	return &windowLimiter{limit: limit}
}

// admit reports whether a call at now is accepted; when it is not,
// retryAfterMs is the time until one will be, in whole milliseconds
// rounded up (at least 1).
func (l *windowLimiter) admit(now time.Time) (ok bool, retryAfterMs int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.admitted) < l.limit {
		l.admitted = append(l.admitted, now)
		return true, 0
	}
	oldest := l.admitted[l.next]
	free := oldest.Add(rateWindow)
	if now.Before(free) {
		wait := free.Sub(now)
		ms := int64((wait + time.Millisecond - 1) / time.Millisecond)
		if ms < 1 {
			ms = 1
		}
		return false, ms
	}
	l.admitted[l.next] = now
	l.next = (l.next + 1) % len(l.admitted)
	return true, 0
}
