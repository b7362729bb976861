package mcp

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"sort"
	"strconv"
	"sync"
	"time"

	"rypsok/tool"
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
	outcomeCancelled  = "cancelled"
	counterInterval   = time.Minute
	timestampLayoutMs = "2006-01-02T15:04:05.000Z07:00"
)

// NewLogHandler returns the handler of rypsok's log lines: one JSON object
// per line with timestamp (RFC 3339, UTC), level and event, plus request_id
// and caller for every event emitted with a call's context.
func NewLogHandler(w io.Writer, level slog.Level) slog.Handler {
	return &logHandler{out: &lockedWriter{w: w}, level: level}
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) write(b []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = l.w.Write(b)
}

// logHandler writes records as JSON lines. Attributes given by WithAttrs
// are kept encoded; groups nest the attributes that follow them.
type logHandler struct {
	out    *lockedWriter
	level  slog.Level
	prefix []byte   // encoded members of WithAttrs, already inside the open groups
	groups []string // open groups, outermost first
	opened int      // how many of groups prefix has already opened
}

func (h *logHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= h.level }

func (h *logHandler) WithAttrs(as []slog.Attr) slog.Handler {
	if len(as) == 0 {
		return h
	}
	h2 := *h
	p := append([]byte(nil), h.prefix...)
	for ; h2.opened < len(h2.groups); h2.opened++ {
		p = appendKey(p, h2.groups[h2.opened])
		p = append(p, '{')
	}
	for _, a := range as {
		p = appendAttr(p, a)
	}
	h2.prefix = p
	return &h2
}

func (h *logHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	h2 := *h
	h2.groups = append(append([]string(nil), h.groups...), name)
	return &h2
}

func (h *logHandler) Handle(ctx context.Context, r slog.Record) error {
	b := make([]byte, 0, 256)
	b = append(b, `{"timestamp":`...)
	t := r.Time
	if t.IsZero() {
		t = time.Now()
	}
	b = strconv.AppendQuote(b, t.UTC().Format(timestampLayoutMs))
	b = append(b, `,"level":"`...)
	b = append(b, levelName(r.Level)...)
	b = append(b, `","event":`...)
	b = appendString(b, r.Message)
	if c, ok := tool.CallFrom(ctx); ok {
		b = append(b, `,"request_id":`...)
		b = appendString(b, c.RequestID)
		b = append(b, `,"caller":`...)
		b = appendString(b, c.Caller)
	}
	b = append(b, h.prefix...)
	opened := h.opened
	if r.NumAttrs() > 0 {
		for ; opened < len(h.groups); opened++ {
			b = appendKey(b, h.groups[opened])
			b = append(b, '{')
		}
		r.Attrs(func(a slog.Attr) bool {
			b = appendAttr(b, a)
			return true
		})
	}
	for i := 0; i < opened; i++ {
		b = append(b, '}')
	}
	b = append(b, '}', '\n')
	b = fixCommas(b)
	h.out.write(b)
	return nil
}

func levelName(l slog.Level) string {
	switch {
	case l < slog.LevelInfo:
		return "debug"
	case l < slog.LevelWarn:
		return "info"
	case l < slog.LevelError:
		return "warn"
	default:
		return "error"
	}
}

// appendKey writes `,"key":`; a comma right after an opening brace is
// removed by fixCommas at the end.
func appendKey(b []byte, k string) []byte {
	b = append(b, ',')
	b = appendString(b, k)
	return append(b, ':')
}

func appendString(b []byte, s string) []byte {
	return appendJSONString(b, []byte(s))
}

func appendAttr(b []byte, a slog.Attr) []byte {
	a.Value = a.Value.Resolve()
	if a.Equal(slog.Attr{}) {
		return b
	}
	if a.Value.Kind() == slog.KindGroup {
		as := a.Value.Group()
		if len(as) == 0 {
			return b
		}
		if a.Key == "" {
			for _, x := range as {
				b = appendAttr(b, x)
			}
			return b
		}
		b = appendKey(b, a.Key)
		b = append(b, '{')
		for _, x := range as {
			b = appendAttr(b, x)
		}
		return append(b, '}')
	}
	b = appendKey(b, a.Key)
	return appendValue(b, a.Value)
}

func appendValue(b []byte, v slog.Value) []byte {
	switch v.Kind() {
	case slog.KindString:
		return appendString(b, v.String())
	case slog.KindInt64:
		return strconv.AppendInt(b, v.Int64(), 10)
	case slog.KindUint64:
		return strconv.AppendUint(b, v.Uint64(), 10)
	case slog.KindFloat64:
		f := v.Float64()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return appendString(b, strconv.FormatFloat(f, 'g', -1, 64))
		}
		return strconv.AppendFloat(b, f, 'g', -1, 64)
	case slog.KindBool:
		return strconv.AppendBool(b, v.Bool())
	case slog.KindDuration:
		return strconv.AppendInt(b, v.Duration().Milliseconds(), 10)
	case slog.KindTime:
		return strconv.AppendQuote(b, v.Time().UTC().Format(timestampLayoutMs))
	default:
		x := v.Any()
		if err, ok := x.(error); ok {
			return appendString(b, err.Error())
		}
		enc, err := json.Marshal(x)
		if err != nil {
			return appendString(b, "!unencodable")
		}
		return append(b, enc...)
	}
}

// fixCommas removes the comma that appendKey writes right after an opening
// brace, outside strings.
func fixCommas(b []byte) []byte {
	out := b[:0]
	inString, escaped := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			out = append(out, c)
			continue
		}
		if c == '"' {
			inString = true
		}
		if c == ',' && len(out) > 0 && out[len(out)-1] == '{' {
			continue
		}
		out = append(out, c)
	}
	return out
}

// refusalCounters counts refused calls per tool and reason (REQ-OBS-007)
// since the last counters event.
type refusalCounters struct {
	mu sync.Mutex
	n  map[string]map[string]int64
}

func (rc *refusalCounters) add(toolName, reason string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
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
