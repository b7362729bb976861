package mcp

import (
	"context"
	"log/slog"
	"sort"
	"sync"
	"time"
)

// The log events this package emits. Each is the message of a record; the
// attributes are fixed words and numbers, never a query, URL, argument or
// content.
const (
	eventCall        = "call"           // info, one per finished tools/call: tool, outcome, reason (errors), latency_ms
	eventRefused     = "refused"        // warn, a refused call: tool, kind, reason
	eventCounters    = "counters"       // info, once a minute when non-zero: refusals per tool and reason
	eventPanic       = "panic"          // error, a recovered panic: tool (never the value or the stack)
	eventLineTooLong = "line_too_long"  // warn, a line above LIM-O3 was dropped: limit_bytes
	eventProtocolErr = "protocol_error" // debug, a malformed message: code
)

const (
	// outcomeCancelled is the outcome of the call event of a cancelled call,
	// which has no answer.
	outcomeCancelled = "cancelled"
	counterInterval  = time.Minute
)

// refusalCounters counts refused calls per tool and reason (REQ-OBS-007)
// since the last counters event.
type refusalCounters struct {
	mu sync.Mutex
	n  map[string]map[string]int64
	// observe, when set, sees every refusal as it is counted (the
	// metrics listener); set before serving.
	observe func(scope, reason string)
}

func (rc *refusalCounters) add(toolName, reason string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.observe != nil {
		rc.observe(toolName, reason)
	}
	if rc.n == nil {
		rc.n = make(map[string]map[string]int64)
	}
	m := rc.n[toolName]
	if m == nil {
		m = make(map[string]int64)
		rc.n[toolName] = m
	}
	m[reason]++
}

// flush logs the counters event when a refusal was counted since the last
// one, and starts counting again.
func (rc *refusalCounters) flush(ctx context.Context, log *slog.Logger) {
	rc.mu.Lock()
	n := rc.n
	rc.n = nil
	rc.mu.Unlock()
	if len(n) == 0 {
		return
	}
	tools := make([]string, 0, len(n))
	for t := range n {
		tools = append(tools, t)
	}
	sort.Strings(tools)
	groups := make([]any, 0, len(tools))
	for _, t := range tools {
		reasons := make([]string, 0, len(n[t]))
		for r := range n[t] {
			reasons = append(reasons, r)
		}
		sort.Strings(reasons)
		as := make([]any, 0, len(reasons))
		for _, r := range reasons {
			as = append(as, slog.Int64(r, n[t][r]))
		}
		groups = append(groups, slog.Group(t, as...))
	}
	log.LogAttrs(ctx, slog.LevelInfo, eventCounters, slog.Group("refusals", groups...))
}
