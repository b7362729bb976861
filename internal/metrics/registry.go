package metrics

import (
	"sync/atomic"
	"time"
)

// Settings say what the label values may be, and where the gauges without
// a log event are read.
type Settings struct {
	Version   string // rypsok's version, for rypsok_build_info
	GoVersion string // runtime.Version()

	// The closed sets of names a label value must belong to.
	Tools   []string // the tools served
	Engines []string // the configured engines' ids
	Plugins []string // the RSP plugins' names
	Callers []string // the HTTP callers' ids; "local" is always one

	// Now is the clock; the start time is read from it once, in New
	// (nil: the start time is the zero time).
	Now func() time.Time

	// Probes read gauges at scrape time; a nil probe is not written.
	Outbound    func() (inFlight, limit int) // engine requests out now (LIM-C1)
	Fetches     func() (inFlight, limit int) // page fetches (LIM-C3)
	Parses      func() (inFlight, limit int) // extractions (LIM-C5)
	Sessions    func() int                   // open HTTP sessions of the handshake revisions
	MemoryLimit func() int64                 // the soft memory limit in bytes
}

// callerLocal is the caller of stdio and of a loopback listener without
// callers.
const callerLocal = "local"

// Circuit states, as rypsok_engine_circuit_state writes them.
const (
	circuitClosed   = 0
	circuitHalfOpen = 1
	circuitOpen     = 2
)

// Bucket bounds, in milliseconds: calls end within LIM-S7/LIM-F5 (tens of
// seconds at most), engine requests within LIM-S5.
func callBoundsMs() []int64 {
	return []int64{10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000}
}

func engineBoundsMs() []int64 { return []int64{25, 50, 100, 250, 500, 1000, 2000, 4000, 8000} }

// Metrics holds every family of one process, and the readiness state.
type Metrics struct {
	set   Settings
	start time.Time

	tools, engines, plugins, callers set

	dropped atomic.Int64 // series not created: a family was full
	all     []*family

	calls, callErrors, callDuration          *family
	refusals, rateLimited                    *family
	engineRequests, engineLatency, circuits  *family
	cacheLookups, fetchedBytes, fetchRefused *family
	pluginCalls, pluginFailures, panics      *family

	// byEngine holds each configured engine's busiest series, made in New
	// and read without the families' locks (the map is never written
	// after New).
	byEngine map[string]engineSeries

	// byTool holds each tool's busiest series likewise: its calls that
	// ended ok and its duration histogram.
	byTool map[string]toolSeries

	// readiness (health.go)
	bound, pluginsReady, draining atomic.Bool
}

// engineSeries are the series an answered engine request updates.
type engineSeries struct {
	ok, latency *series
}

// toolSeries are the series an ok call of a tool updates.
type toolSeries struct {
	ok, duration *series
}

// New returns the families of a process that starts now: every engine's
// circuit is closed.
func New(s Settings) *Metrics {
	m := &Metrics{
		set:     s,
		tools:   newSet(s.Tools),
		engines: newSet(s.Engines),
		plugins: newSet(s.Plugins),
		callers: newSet(append([]string{callerLocal}, s.Callers...)),
	}
	fam := func(name, typ, help string, labels ...string) *family {
		f := &family{name: name, typ: typ, help: help, labels: labels, series: map[seriesKey]*series{}, dropped: &m.dropped}
		m.all = append(m.all, f)
		return f
	}
	hist := func(name, help string, bounds []int64, labels ...string) *family {
		f := fam(name, "histogram", help, labels...)
		f.boundsMs = bounds
		return f
	}
	m.calls = fam("rypsok_tool_calls_total", "counter", "Tool calls that ended, by tool and outcome (ok, partial, empty, an error kind, or cancelled).", "tool", "outcome")
	m.callErrors = fam("rypsok_tool_errors_total", "counter", "Tool calls that ended with an error, by tool, error kind and reason.", "tool", "kind", "reason")
	m.callDuration = hist("rypsok_tool_call_duration_seconds", "Duration of tool calls, by tool.", callBoundsMs(), "tool")
	m.refusals = fam("rypsok_refusals_total", "counter", "Refused calls and HTTP requests, by scope (a tool, or http for the listener) and reason: the counters event, as it happens.", "scope", "reason")
	m.rateLimited = fam("rypsok_rate_limited_total", "counter", "Tool calls refused by the per-caller rate limit, by caller and tool.", "caller", "tool")
	m.engineRequests = fam("rypsok_engine_requests_total", "counter", "Engine requests that ended, by engine and result (ok, or the failure class).", "engine", "result")
	m.engineLatency = hist("rypsok_engine_request_duration_seconds", "Duration of engine requests, by engine.", engineBoundsMs(), "engine")
	m.circuits = fam("rypsok_engine_circuit_state", "gauge", "State of each engine's circuit: 0 closed, 1 half-open, 2 open.", "engine")
	m.cacheLookups = fam("rypsok_cache_lookups_total", "counter", "Lookups in the search result cache, by result (hit or miss).", "result")
	m.fetchedBytes = fam("rypsok_fetched_bytes_total", "counter", "Bytes of page bodies read by web_fetch.")
	m.fetchRefused = fam("rypsok_fetch_refused_total", "counter", "Fetches denied, by reason (egress, robots_txt, strict_mode, scheme, plugin...).", "reason")
	m.pluginCalls = fam("rypsok_rsp_plugin_calls_total", "counter", "RSP plugin answers, by plugin, hook and verdict.", "plugin", "hook", "verdict")
	m.pluginFailures = fam("rypsok_rsp_plugin_failures_total", "counter", "RSP plugin failures (handshake or call), by plugin and failure class.", "plugin", "class")
	m.panics = fam("rypsok_panics_total", "counter", "Recovered panics, by where they happened (call, engine, extraction).", "where")
	if s.Now != nil {
		m.start = s.Now()
	}
	m.byEngine = make(map[string]engineSeries, len(s.Engines))
	for _, e := range s.Engines {
		m.circuits.set(circuitClosed, e)
		m.byEngine[e] = engineSeries{ok: m.engineRequests.get(e, "ok"), latency: m.engineLatency.get(e)}
	}
	m.byTool = make(map[string]toolSeries, len(s.Tools))
	for _, t := range s.Tools {
		m.byTool[t] = toolSeries{ok: m.calls.get(t, "ok"), duration: m.callDuration.get(t)}
	}
	for _, r := range []string{"hit", "miss"} {
		m.cacheLookups.add(0, r)
	}
	m.fetchedBytes.add(0)
	return m
}

// Refused counts one refusal of the counters event (REQ-OBS-007): scope is
// a tool name or http, reason a word of the vocabulary.
func (m *Metrics) Refused(scope, reason string) {
	if (scope == "http" || m.tools[scope]) && isWord(reason) {
		m.refusals.add(1, scope, reason)
	}
}

// Ready: the MCP listener is bound, the plugins passed their handshake,
// and no SIGTERM arrived.
func (m *Metrics) Ready() bool {
	return m.bound.Load() && m.pluginsReady.Load() && !m.draining.Load()
}
