package metrics

import (
	"context"
	"log/slog"
	"strings"

	"rypsok/tool"
)

// Handler counts the book's log events and passes every record the next
// handler wants on to it. It is enabled at every level, so that events
// logged at debug (engine_answered, cache_lookup, rsp_verdict of an allow)
// are counted whatever the configured level; only the next handler's
// level decides what is written.
//
// It reads named attributes only (tool, outcome, kind, reason, engine,
// class, result, plugin, hook, verdict, failure, latency_ms, bytes), never
// query or host, and each value must pass the family's closed set.
func (m *Metrics) Handler(next slog.Handler) slog.Handler {
	return &handler{m: m, next: next}
}

type handler struct {
	m       *Metrics
	next    slog.Handler
	attrs   []slog.Attr // from WithAttrs, before any group
	grouped bool        // a WithGroup: record attributes are not top-level
}

func (h *handler) Enabled(context.Context, slog.Level) bool { return true }

func (h *handler) Handle(ctx context.Context, r slog.Record) error {
	if !h.grouped && counted(r.Message) {
		h.countRecord(ctx, &r)
	}
	if !h.next.Enabled(ctx, r.Level) {
		return nil
	}
	return h.next.Handle(ctx, r)
}

// CountEvent is tool.EventCounter: it counts an event from its attributes
// as Handle counts its record, and returns the handler that writes.
func (h *handler) CountEvent(ctx context.Context, msg string, attrs tool.EventAttrs) slog.Handler {
	if !h.grouped && counted(msg) {
		h.countAttrs(ctx, msg, attrs.All())
	}
	return h.next
}

// countRecord and countAttrs read an event's attributes (those of
// WithAttrs first) and count it. Each keeps its frame small and apart
// from Handle's: they run on the engines' goroutines, whose stacks are
// small.
func (h *handler) countRecord(ctx context.Context, r *slog.Record) {
	var e event
	for _, a := range h.attrs {
		e.read(a)
	}
	r.Attrs(func(a slog.Attr) bool { e.read(a); return true })
	h.m.count(ctx, r.Message, &e)
}

func (h *handler) countAttrs(ctx context.Context, msg string, attrs []slog.Attr) {
	var e event
	for _, a := range h.attrs {
		e.read(a)
	}
	for _, a := range attrs {
		e.read(a)
	}
	h.m.count(ctx, msg, &e)
}

func (h *handler) WithAttrs(as []slog.Attr) slog.Handler {
	if len(as) == 0 {
		return h
	}
	c := *h
	c.next = h.next.WithAttrs(as)
	if !h.grouped {
		c.attrs = append(append([]slog.Attr(nil), h.attrs...), as...)
	}
	return &c
}

func (h *handler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	c := *h
	c.next = h.next.WithGroup(name)
	c.grouped = true
	return &c
}

// event is the attributes of one record that counting reads.
type event struct {
	tool, outcome, kind, reason, engine, class, result string
	plugin, hook, verdict, failure                     string
	latencyMs, bytes                                   int64
	hasKind, hasLatency                                bool
}

func (e *event) read(a slog.Attr) {
	v := a.Value
	switch a.Key {
	case "latency_ms":
		if v.Kind() == slog.KindInt64 {
			e.latencyMs, e.hasLatency = v.Int64(), true
		}
		return
	case "bytes":
		if v.Kind() == slog.KindInt64 {
			e.bytes = v.Int64()
		}
		return
	}
	if v.Kind() != slog.KindString {
		return
	}
	s := v.String()
	switch a.Key {
	case "tool":
		e.tool = s
	case "outcome":
		e.outcome = s
	case "kind":
		e.kind, e.hasKind = s, true
	case "reason":
		e.reason = s
	case "engine":
		e.engine = s
	case "class":
		e.class = s
	case "result":
		e.result = s
	case "plugin":
		e.plugin = s
	case "hook":
		e.hook = s
	case "verdict":
		e.verdict = s
	case "failure":
		e.failure = s
	}
}

// counted: the events Handler counts; any other returns at once.
func counted(event string) bool {
	switch event {
	case "call", "refused", "engine_answered", "engine_failed",
		"circuit_opened", "circuit_half_open", "circuit_closed",
		"cache_lookup", "fetched", "rsp_verdict", "rsp_plugin_failed",
		"rsp_handshake_failed", "panic", "engine_panic", "extraction_panic":
		return true
	}
	return false
}

// count updates the families a counted event names.
func (m *Metrics) count(ctx context.Context, msg string, e *event) {
	switch msg {
	case "call":
		m.countCall(e)
	case "refused":
		// The protocol's refused event has the kind; web_fetch's own
		// refused line (the egress denial, with its class) is the same
		// refusal told from inside, and is not counted twice.
		if e.hasKind && e.reason == string(tool.ReasonRateLimited) && m.tools[e.tool] {
			if c, ok := tool.CallFrom(ctx); ok && m.callers[c.Caller] {
				m.rateLimited.add(1, c.Caller, e.tool)
			}
		}
	case "engine_answered":
		m.countEngine(e, "ok")
	case "engine_failed":
		if isWord(e.class) {
			m.countEngine(e, e.class)
		}
	case "circuit_opened":
		m.setCircuit(e.engine, circuitOpen)
	case "circuit_half_open":
		m.setCircuit(e.engine, circuitHalfOpen)
	case "circuit_closed":
		m.setCircuit(e.engine, circuitClosed)
	case "cache_lookup":
		if e.result == "hit" || e.result == "miss" {
			m.cacheLookups.add(1, e.result)
		}
	case "fetched":
		if e.bytes > 0 {
			m.fetchedBytes.add(e.bytes)
		}
	case "rsp_verdict":
		// The protocol's verdicts are upper case (ALLOW, REDACT...); labels
		// are lower case like every other word.
		v := strings.ToLower(e.verdict)
		if m.plugins[e.plugin] && isWord(e.hook) && isWord(v) {
			m.pluginCalls.add(1, e.plugin, e.hook, v)
		}
	case "rsp_plugin_failed", "rsp_handshake_failed":
		if m.plugins[e.plugin] && isWord(e.failure) {
			m.pluginFailures.add(1, e.plugin, e.failure)
		}
	case "panic":
		m.panics.add(1, "call")
	case "engine_panic":
		m.panics.add(1, "engine")
	case "extraction_panic":
		m.panics.add(1, "extraction")
	}
}

func (m *Metrics) countCall(e *event) {
	ts, ok := m.byTool[e.tool]
	if !ok || !isWord(e.outcome) {
		return
	}
	if e.outcome == "ok" && ts.ok != nil {
		ts.ok.n.Add(1)
	} else {
		m.calls.add(1, e.tool, e.outcome)
	}
	if e.hasLatency {
		m.callDuration.observeIn(ts.duration, e.latencyMs)
	}
	if e.reason == "" || !isWord(e.reason) {
		return
	}
	// The call event of an error has its kind as the outcome.
	m.callErrors.add(1, e.tool, e.outcome, e.reason)
	if e.tool == tool.ToolWebFetch && e.outcome == string(tool.KindDenied) {
		m.fetchRefused.add(1, e.reason)
	}
}

func (m *Metrics) countEngine(e *event, result string) {
	es, ok := m.byEngine[e.engine]
	if !ok {
		return
	}
	if result == "ok" && es.ok != nil {
		es.ok.n.Add(1)
	} else {
		m.engineRequests.add(1, e.engine, result)
	}
	if e.hasLatency {
		m.engineLatency.observeIn(es.latency, e.latencyMs)
	}
}

func (m *Metrics) setCircuit(engine string, state int64) {
	if m.engines[engine] {
		m.circuits.set(state, engine)
	}
}
