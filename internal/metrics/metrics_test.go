package metrics

import (
	"bytes"
	"context"
	"log/slog"
	"os/exec"
	"strings"
	"testing"
	"time"

	"rypsok/internal/metrics/metricstest"
	"rypsok/tool"
)

var epoch = time.Date(2031, 5, 6, 7, 8, 9, 0, time.UTC)

func newTest(t *testing.T) (*Metrics, *slog.Logger, *bytes.Buffer) {
	t.Helper()
	m := New(Settings{
		Version: "1.2.3", GoVersion: "go1.26",
		Tools:       []string{tool.ToolWebSearch, tool.ToolWebFetch, tool.ToolEngineStatus},
		Engines:     []string{"wikipedia", "brave"},
		Plugins:     []string{"pii"},
		Callers:     []string{"ops"},
		Now:         func() time.Time { return epoch },
		Outbound:    func() (int, int) { return 3, 8 },
		Fetches:     func() (int, int) { return 1, 4 },
		Parses:      func() (int, int) { return 0, 2 },
		Sessions:    func() int { return 5 },
		MemoryLimit: func() int64 { return 200 << 20 },
	})
	var out bytes.Buffer
	return m, slog.New(m.Handler(tool.NewLogHandler(&out, slog.LevelInfo))), &out
}

func scrape(t *testing.T, m *Metrics) (string, []metricstest.Family) {
	t.Helper()
	var b bytes.Buffer
	if _, err := m.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	fs, err := metricstest.Parse(b.String())
	if err != nil {
		t.Fatalf("the exposition is not strictly valid: %v\n%s", err, b.String())
	}
	return b.String(), fs
}

func value(t *testing.T, fs []metricstest.Family, name string, labels ...string) float64 {
	t.Helper()
	want := map[string]string{}
	for i := 0; i+1 < len(labels); i += 2 {
		want[labels[i]] = labels[i+1]
	}
	v, ok := metricstest.Value(fs, name, want)
	if !ok {
		t.Fatalf("no sample %s%v", name, want)
	}
	return v
}

// callCtx is the context of a call of caller, as the protocol logs it.
func callCtx(caller string) context.Context {
	return tool.WithCall(context.Background(), tool.Call{RequestID: "000000000001-000001", Caller: caller})
}

// logEvents logs one of each event counted, as the services log them.
func logEvents(log *slog.Logger) {
	ctx := callCtx("ops")
	log.LogAttrs(ctx, slog.LevelInfo, "call", slog.String("tool", "web_search"), slog.String("outcome", "ok"), slog.Int64("latency_ms", 120))
	log.LogAttrs(ctx, slog.LevelInfo, "call", slog.String("tool", "web_search"), slog.String("outcome", "partial"), slog.Int64("latency_ms", 3000))
	log.LogAttrs(ctx, slog.LevelInfo, "call", slog.String("tool", "web_fetch"), slog.String("outcome", "denied"), slog.String("reason", "robots_txt"), slog.Int64("latency_ms", 40))
	log.LogAttrs(ctx, slog.LevelWarn, "refused", slog.String("tool", "web_fetch"), slog.String("kind", "denied"), slog.String("reason", "robots_txt"))
	log.LogAttrs(ctx, slog.LevelInfo, "call", slog.String("tool", "web_search"), slog.String("outcome", "unavailable"), slog.String("reason", "rate_limited"), slog.Int64("latency_ms", 0))
	log.LogAttrs(ctx, slog.LevelWarn, "refused", slog.String("tool", "web_search"), slog.String("kind", "unavailable"), slog.String("reason", "rate_limited"))
	log.DebugContext(ctx, "engine_answered", "engine", "wikipedia", "count", 7, "latency_ms", int64(80))
	log.InfoContext(ctx, "engine_failed", "engine", "brave", "class", "timeout", "latency_ms", int64(5000))
	log.InfoContext(ctx, "circuit_opened", "engine", "brave", "cooldown_ms", int64(30000))
	log.DebugContext(ctx, "cache_lookup", "engine", "wikipedia", "result", "miss")
	log.DebugContext(ctx, "cache_lookup", "engine", "wikipedia", "result", "hit")
	log.InfoContext(ctx, "fetched", "host", "example.org", "status", 200, "bytes", 4096, "latency_ms", int64(30), "media", "html")
	log.Info("rsp_verdict", "plugin", "pii", "hook", "on_retrieve", "verdict", "REDACT", "reason", "found an e-mail address")
	log.Debug("rsp_verdict", "plugin", "pii", "hook", "on_retrieve", "verdict", "ALLOW", "reason", "")
	log.Warn("rsp_plugin_failed", "plugin", "pii", "hook", "on_response", "failure", "timeout", "on_error", "allow")
	log.LogAttrs(ctx, slog.LevelError, "panic", slog.String("tool", "web_fetch"))
}

func TestEveryEventIsCountedInItsFamily(t *testing.T) {
	m, log, _ := newTest(t)
	logEvents(log)
	m.Refused("http", "client_closed")
	m.Refused("web_search", "rate_limited")
	_, fs := scrape(t, m)
	cases := []struct {
		name   string
		labels []string
		want   float64
	}{
		{"rypsok_build_info", []string{"version", "1.2.3", "goversion", "go1.26"}, 1},
		{"rypsok_tool_calls_total", []string{"tool", "web_search", "outcome", "ok"}, 1},
		{"rypsok_tool_calls_total", []string{"tool", "web_search", "outcome", "partial"}, 1},
		{"rypsok_tool_calls_total", []string{"tool", "web_fetch", "outcome", "denied"}, 1},
		{"rypsok_tool_errors_total", []string{"tool", "web_fetch", "kind", "denied", "reason", "robots_txt"}, 1},
		{"rypsok_tool_errors_total", []string{"tool", "web_search", "kind", "unavailable", "reason", "rate_limited"}, 1},
		{"rypsok_tool_call_duration_seconds_count", []string{"tool", "web_search"}, 3},
		{"rypsok_tool_call_duration_seconds_bucket", []string{"tool", "web_search", "le", "0.25"}, 2},
		{"rypsok_tool_call_duration_seconds_bucket", []string{"tool", "web_search", "le", "2.5"}, 2},
		{"rypsok_tool_call_duration_seconds_bucket", []string{"tool", "web_search", "le", "5"}, 3},
		{"rypsok_tool_call_duration_seconds_sum", []string{"tool", "web_search"}, 3.12},
		{"rypsok_fetch_refused_total", []string{"reason", "robots_txt"}, 1},
		{"rypsok_rate_limited_total", []string{"caller", "ops", "tool", "web_search"}, 1},
		{"rypsok_refusals_total", []string{"scope", "http", "reason", "client_closed"}, 1},
		{"rypsok_refusals_total", []string{"scope", "web_search", "reason", "rate_limited"}, 1},
		{"rypsok_engine_requests_total", []string{"engine", "wikipedia", "result", "ok"}, 1},
		{"rypsok_engine_requests_total", []string{"engine", "brave", "result", "timeout"}, 1},
		{"rypsok_engine_request_duration_seconds_count", []string{"engine", "brave"}, 1},
		{"rypsok_engine_request_duration_seconds_bucket", []string{"engine", "brave", "le", "4"}, 0},
		{"rypsok_engine_circuit_state", []string{"engine", "brave"}, 2},
		{"rypsok_engine_circuit_state", []string{"engine", "wikipedia"}, 0},
		{"rypsok_cache_lookups_total", []string{"result", "hit"}, 1},
		{"rypsok_cache_lookups_total", []string{"result", "miss"}, 1},
		{"rypsok_fetched_bytes_total", nil, 4096},
		{"rypsok_rsp_plugin_calls_total", []string{"plugin", "pii", "hook", "on_retrieve", "verdict", "redact"}, 1},
		{"rypsok_rsp_plugin_calls_total", []string{"plugin", "pii", "hook", "on_retrieve", "verdict", "allow"}, 1},
		{"rypsok_rsp_plugin_failures_total", []string{"plugin", "pii", "class", "timeout"}, 1},
		{"rypsok_panics_total", []string{"where", "call"}, 1},
		{"rypsok_in_flight", []string{"work", "outbound"}, 3},
		{"rypsok_in_flight_limit", []string{"work", "outbound"}, 8},
		{"rypsok_in_flight", []string{"work", "fetch"}, 1},
		{"rypsok_in_flight_limit", []string{"work", "parse"}, 2},
		{"rypsok_http_sessions_open", nil, 5},
		{"rypsok_memory_limit_bytes", nil, 200 << 20},
		{"process_start_time_seconds", nil, float64(epoch.Unix())},
	}
	for _, c := range cases {
		if got := value(t, fs, c.name, c.labels...); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	if value(t, fs, "go_goroutines") < 1 || value(t, fs, "go_memstats_heap_inuse_bytes") <= 0 {
		t.Error("the process gauges are not read")
	}
}

func TestDebugEventsAreCountedButNotWrittenAtInfo(t *testing.T) {
	m, log, out := newTest(t)
	log.DebugContext(callCtx("ops"), "engine_answered", "engine", "wikipedia", "count", 1, "latency_ms", int64(10))
	log.InfoContext(callCtx("ops"), "circuit_opened", "engine", "wikipedia", "cooldown_ms", int64(1000))
	_, fs := scrape(t, m)
	if got := value(t, fs, "rypsok_engine_requests_total", "engine", "wikipedia", "result", "ok"); got != 1 {
		t.Errorf("engine_answered at debug counted %v times, want 1", got)
	}
	if strings.Contains(out.String(), "engine_answered") {
		t.Errorf("a debug line was written at level info: %s", out.String())
	}
	if !strings.Contains(out.String(), `"event":"circuit_opened"`) || !strings.Contains(out.String(), `"request_id":"000000000001-000001"`) {
		t.Errorf("an info line was not passed on whole: %s", out.String())
	}
}

// Label values outside the closed sets make no series: an unknown tool,
// engine, plugin or caller, and a reason that is not a vocabulary word.
func TestREQ_PRIV_004_LabelsComeOnlyFromClosedSets(t *testing.T) {
	m, log, _ := newTest(t)
	const marker = "zqmarker"
	ctx := callCtx(marker)
	log.LogAttrs(ctx, slog.LevelInfo, "call", slog.String("tool", marker), slog.String("outcome", "ok"), slog.Int64("latency_ms", 1))
	log.LogAttrs(ctx, slog.LevelInfo, "call", slog.String("tool", "web_fetch"), slog.String("outcome", "denied"), slog.String("reason", "https://"+marker+".example/"), slog.Int64("latency_ms", 1))
	log.LogAttrs(ctx, slog.LevelInfo, "call", slog.String("tool", "web_search"), slog.String("outcome", marker+" query text"), slog.Int64("latency_ms", 1))
	log.LogAttrs(ctx, slog.LevelWarn, "refused", slog.String("tool", "web_search"), slog.String("kind", "unavailable"), slog.String("reason", "rate_limited"))
	log.InfoContext(ctx, "engine_failed", "engine", marker, "class", "timeout", "latency_ms", int64(1))
	log.InfoContext(ctx, "engine_failed", "engine", "brave", "class", "Bearer "+marker, "latency_ms", int64(1))
	log.InfoContext(ctx, "circuit_opened", "engine", marker)
	log.Info("rsp_verdict", "plugin", marker, "hook", "on_retrieve", "verdict", "block")
	log.Info("rsp_verdict", "plugin", "pii", "hook", "on_retrieve", "verdict", marker+"!")
	log.DebugContext(ctx, "query", "query", marker)
	m.Refused(marker, "rate_limited")
	m.Refused("http", marker+"/path")
	text, fs := scrape(t, m)
	if strings.Contains(strings.ToLower(text), marker) {
		t.Fatalf("a value from outside the closed sets reached the exposition:\n%s", text)
	}
	for _, f := range fs {
		if f.Name == "rypsok_rate_limited_total" && len(f.Samples) > 0 {
			t.Errorf("a caller not configured became a label: %v", f.Samples)
		}
	}
}

// A family holds at most maxSeries series; the rest are counted as dropped.
func TestSeriesPerFamilyAreBounded(t *testing.T) {
	m, _, _ := newTest(t)
	reasons := make([]string, 0, maxSeries+10)
	for i := 0; i < maxSeries+10; i++ {
		reasons = append(reasons, "r"+strings.Repeat("a", i%30)+string(rune('a'+i%26))+string(rune('a'+i/26%26)))
	}
	for _, r := range reasons {
		m.Refused("http", r)
	}
	_, fs := scrape(t, m)
	n := 0
	for _, f := range fs {
		if f.Name == "rypsok_refusals_total" {
			n = len(f.Samples)
		}
	}
	if n > maxSeries {
		t.Errorf("%d series in one family, bound %d", n, maxSeries)
	}
	if value(t, fs, "rypsok_metrics_series_dropped_total") == 0 {
		t.Error("no dropped series counted")
	}
}

func TestLabelValuesAndHelpAreEscaped(t *testing.T) {
	var b bytes.Buffer
	escapeLabel(&b, "a\\b\"c\nd")
	if b.String() != `a\\b\"c\nd` {
		t.Errorf("label escaped as %q", b.String())
	}
	b.Reset()
	escapeHelp(&b, "a\\b\"c\nd")
	if b.String() != `a\\b"c\nd` {
		t.Errorf("help escaped as %q", b.String())
	}
	m := New(Settings{Version: "v\"1\n", GoVersion: `go\x`, Now: func() time.Time { return epoch }})
	_, fs := scrape(t, m)
	if got := value(t, fs, "rypsok_build_info", "version", "v\"1\n", "goversion", `go\x`); got != 1 {
		t.Errorf("build_info = %v", got)
	}
}

// promtool (Debian's prometheus package) agrees with the strict parser,
// where it is installed; CI installs it.
func TestExpositionPassesPromtool(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool is not installed (Debian package prometheus)")
	}
	m, log, _ := newTest(t)
	logEvents(log)
	var b bytes.Buffer
	m.WriteTo(&b)
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = &b
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("promtool check metrics: %v\n%s", err, out)
	}
}

// The metric names follow the conventions: counters end in _total,
// durations in _seconds, byte sizes in _bytes; every family has HELP.
func TestNamesFollowPrometheusConventions(t *testing.T) {
	m, log, _ := newTest(t)
	logEvents(log)
	_, fs := scrape(t, m)
	for _, f := range fs {
		if f.Type == "counter" && !strings.HasSuffix(f.Name, "_total") {
			t.Errorf("counter %s does not end in _total", f.Name)
		}
		if f.Type == "histogram" && !strings.HasSuffix(f.Name, "_seconds") {
			t.Errorf("histogram %s does not end in _seconds", f.Name)
		}
		if strings.Contains(f.Name, "bytes") && !strings.HasSuffix(strings.TrimSuffix(f.Name, "_total"), "_bytes") {
			t.Errorf("%s does not end in _bytes", f.Name)
		}
	}
}

// A series key holds maxLabels values: no family may have more labels.
func TestNoFamilyHasMoreLabelsThanAKeyHolds(t *testing.T) {
	m, _, _ := newTest(t)
	for _, f := range m.all {
		if len(f.labels) > maxLabels {
			t.Errorf("%s has %d labels, a key holds %d", f.name, len(f.labels), maxLabels)
		}
	}
}
