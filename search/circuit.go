package search

import (
	"sort"
	"sync"
	"time"

	"rypsok/tool"
)

// latencyWindow is LIM-S11: the completed requests the median is taken over.
const latencyWindow = 20

// circuit is one engine's health (REQ-RES-004, REQ-RES-005, REQ-OBS-001):
// closed, open for a cooldown, or half-open while exactly one real request
// probes. Transitions happen only at selection and at completion; nothing
// runs in the background and no synthetic request is ever sent.
type circuit struct {
	mu        sync.Mutex
	state     tool.EngineState
	failures  int           // consecutive counted failures while closed
	until     time.Time     // end of the cooldown while open
	cooldown  time.Duration // the current cooldown
	latencies [latencyWindow]int64
	nLatency  int // how many of latencies are filled
	next      int // where the next latency goes
}

type circuitPolicy struct {
	failuresToOpen int
	first, max     time.Duration
}

// counted reports whether a failure class counts toward opening.
func counted(class tool.Reason) bool {
	switch class {
	case tool.ReasonTimeout, tool.ReasonRateLimited, tool.ReasonBlocked, tool.ReasonParseFailure:
		return true
	}
	return false
}

// admit decides at selection whether this call may ask the engine; probe is
// true when this call carries the half-open probe.
func (c *circuit) admit(now time.Time) (ok, probe bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch c.state {
	case tool.StateOpen:
		if now.Before(c.until) {
			return false, false
		}
		c.state = tool.StateHalfOpen
		return true, true
	case tool.StateHalfOpen:
		return false, false
	}
	return true, false
}

// transition is what a completion changed, for the log.
type transition int

const (
	noChange transition = iota
	opened
	closed
)

// done records the end of a request. class is "" on success; responded says
// whether a response arrived (its latency is then recorded); cancelled is
// true when the call ended before the request could finish.
func (c *circuit) done(p circuitPolicy, now time.Time, probe bool, class tool.Reason, retryAfter time.Duration, latency time.Duration, responded, cancelled bool) (transition, time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if responded {
		c.latencies[c.next] = latency.Milliseconds()
		c.next = (c.next + 1) % latencyWindow
		if c.nLatency < latencyWindow {
			c.nLatency++
		}
	}
	if probe {
		switch {
		case class == "" && !cancelled:
			c.state, c.failures, c.cooldown = tool.StateClosed, 0, 0
			return closed, 0
		case counted(class) && !cancelled:
			next := 2 * c.cooldown
			if next > p.max {
				next = p.max
			}
			next = withRetryAfter(next, retryAfter, p.max)
			c.state, c.cooldown, c.until = tool.StateOpen, next, now.Add(next)
			return opened, next
		default:
			// auth_failure, request_failure or cancellation: open again with
			// the same cooldown.
			c.state, c.until = tool.StateOpen, now.Add(c.cooldown)
			return opened, c.cooldown
		}
	}
	if c.state != tool.StateClosed {
		return noChange, 0
	}
	switch {
	case cancelled:
		return noChange, 0
	case class == "":
		c.failures = 0
	case counted(class):
		c.failures++
		if c.failures >= p.failuresToOpen {
			cd := withRetryAfter(p.first, retryAfter, p.max)
			c.state, c.cooldown, c.until, c.failures = tool.StateOpen, cd, now.Add(cd), 0
			return opened, cd
		}
	}
	return noChange, 0
}

// withRetryAfter honours a provider's Retry-After when it is longer, up to
// the longest cooldown (LIM-B4).
func withRetryAfter(cd, retryAfter, max time.Duration) time.Duration {
	if retryAfter > cd {
		cd = retryAfter
	}
	if cd > max {
		cd = max
	}
	return cd
}

// snapshot returns the state and the median latency (nil when none).
func (c *circuit) snapshot() (tool.EngineState, *int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.nLatency == 0 {
		return c.state, nil
	}
	xs := append([]int64(nil), c.latencies[:c.nLatency]...)
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	m := xs[len(xs)/2]
	if len(xs)%2 == 0 {
		m = (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
	}
	return c.state, &m
}
