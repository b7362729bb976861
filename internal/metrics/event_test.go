package metrics

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"testing"

	"rypsok/internal/metrics/metricstest"
	"rypsok/tool"
)

// logged is one event as a service logs it.
type logged struct {
	ctx   context.Context
	level slog.Level
	msg   string
	attrs []slog.Attr
}

// everyEvent is one of each counted event, the debug ones among them, and
// one that is not counted.
func everyEvent() []logged {
	ctx := callCtx("ops")
	return []logged{
		{ctx, slog.LevelInfo, "call", []slog.Attr{slog.String("tool", "web_search"), slog.String("outcome", "ok"), slog.Int64("latency_ms", 120)}},
		{ctx, slog.LevelInfo, "call", []slog.Attr{slog.String("tool", "web_fetch"), slog.String("outcome", "denied"), slog.String("reason", "robots_txt"), slog.Int64("latency_ms", 40)}},
		{ctx, slog.LevelWarn, "refused", []slog.Attr{slog.String("tool", "web_search"), slog.String("kind", "unavailable"), slog.String("reason", "rate_limited")}},
		{ctx, slog.LevelDebug, "engine_answered", []slog.Attr{slog.String("engine", "wikipedia"), slog.Int("count", 7), slog.Int64("latency_ms", 80)}},
		{ctx, slog.LevelInfo, "engine_failed", []slog.Attr{slog.String("engine", "brave"), slog.String("class", "timeout"), slog.Int64("latency_ms", 5000)}},
		{ctx, slog.LevelInfo, "circuit_opened", []slog.Attr{slog.String("engine", "brave"), slog.Int64("cooldown_ms", 30000)}},
		{ctx, slog.LevelDebug, "cache_lookup", []slog.Attr{slog.String("engine", "wikipedia"), slog.String("result", "miss")}},
		{ctx, slog.LevelDebug, "cache_lookup", []slog.Attr{slog.String("engine", "wikipedia"), slog.String("result", "hit")}},
		{ctx, slog.LevelInfo, "fetched", []slog.Attr{slog.Int("bytes", 4096), slog.Int64("latency_ms", 30)}},
		{ctx, slog.LevelDebug, "rsp_verdict", []slog.Attr{slog.String("plugin", "pii"), slog.String("hook", "on_retrieve"), slog.String("verdict", "ALLOW")}},
		{ctx, slog.LevelWarn, "rsp_plugin_failed", []slog.Attr{slog.String("plugin", "pii"), slog.String("failure", "timeout")}},
		{ctx, slog.LevelError, "engine_panic", []slog.Attr{slog.String("engine", "brave")}},
		{ctx, slog.LevelInfo, "started", []slog.Attr{slog.String("transport", "stdio")}},
	}
}

// samples is every rypsok_ sample of a scrape, as "name{labels} value".
func samples(t *testing.T, m *Metrics) []string {
	t.Helper()
	_, fs := scrape(t, m)
	var out []string
	for _, f := range fs {
		if !strings.HasPrefix(f.Name, "rypsok_") {
			continue
		}
		for _, s := range f.Samples {
			out = append(out, fmt.Sprintf("%s%v %v", s.Name, s.Labels, s.Value))
		}
	}
	sort.Strings(out)
	return out
}

// lines is the written log lines without their time stamps.
func lines(t *testing.T, out *bytes.Buffer) []string {
	t.Helper()
	var ls []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if l == "" {
			continue
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("a log line is not JSON: %q", l)
		}
		delete(v, "timestamp")
		b, _ := json.Marshal(v)
		ls = append(ls, string(b))
	}
	return ls
}

// An event logged through tool.LogEvent reaches the counting handler as
// its attributes, without a record; it must be counted exactly as the
// record of the same event (once, in the same series) and written as the
// record would be (the debug ones not at level info).
func TestLogEventCountsAndWritesAsARecordDoes(t *testing.T) {
	mRec, logRec, outRec := newTest(t)
	mAttr, logAttr, outAttr := newTest(t)
	if _, ok := logAttr.Handler().(tool.EventCounter); !ok {
		t.Fatal("the counting handler does not take events without a record")
	}
	for _, e := range everyEvent() {
		logRec.LogAttrs(e.ctx, e.level, e.msg, e.attrs...)
		tool.LogEvent(e.ctx, logAttr, e.level, e.msg, e.attrs...)
	}
	rec, attr := samples(t, mRec), samples(t, mAttr)
	if strings.Join(rec, "\n") != strings.Join(attr, "\n") {
		t.Errorf("counted from attributes:\n%s\nfrom records:\n%s", strings.Join(attr, "\n"), strings.Join(rec, "\n"))
	}
	if got := value(t, mustScrape(t, mAttr), "rypsok_engine_requests_total", "engine", "wikipedia", "result", "ok"); got != 1 {
		t.Errorf("engine_answered through LogEvent counted %v times, want 1", got)
	}
	lr, la := lines(t, outRec), lines(t, outAttr)
	if strings.Join(lr, "\n") != strings.Join(la, "\n") {
		t.Errorf("written from attributes:\n%s\nfrom records:\n%s", strings.Join(la, "\n"), strings.Join(lr, "\n"))
	}
	for _, l := range la {
		if strings.Contains(l, "engine_answered") || strings.Contains(l, "cache_lookup") {
			t.Errorf("a debug event was written at level info: %s", l)
		}
	}
	if len(la) == 0 || !strings.Contains(strings.Join(la, "\n"), `"event":"engine_failed"`) {
		t.Errorf("the info events were not written: %v", la)
	}
}

// Attributes given to Logger.With are read with the event's own; under a
// group they are not the book's top-level attributes and nothing is
// counted, in either path.
func TestLogEventReadsWithAttrsAndSkipsGroups(t *testing.T) {
	m, log, _ := newTest(t)
	ctx := callCtx("ops")
	tool.LogEvent(ctx, log.With("engine", "brave"), slog.LevelDebug, "engine_answered", slog.Int64("latency_ms", 10))
	tool.LogEvent(ctx, log.WithGroup("g"), slog.LevelDebug, "engine_answered", slog.String("engine", "wikipedia"), slog.Int64("latency_ms", 10))
	fs := mustScrape(t, m)
	if got := value(t, fs, "rypsok_engine_requests_total", "engine", "brave", "result", "ok"); got != 1 {
		t.Errorf("engine_answered with the engine from With counted %v times, want 1", got)
	}
	if got := value(t, fs, "rypsok_engine_requests_total", "engine", "wikipedia", "result", "ok"); got != 0 {
		t.Errorf("engine_answered under a group counted %v times, want 0", got)
	}
}

func mustScrape(t *testing.T, m *Metrics) []metricstest.Family {
	t.Helper()
	_, fs := scrape(t, m)
	return fs
}

// An event that is only counted costs no allocation: its attributes stay
// on the caller's stack and no record is built.
func TestLogEventOfACountedOnlyEventAllocatesNothing(t *testing.T) {
	m, log, out := newTest(t)
	ctx := callCtx("ops")
	allocs := testing.AllocsPerRun(100, func() {
		tool.LogEvent(ctx, log, slog.LevelDebug, "engine_answered", slog.String("engine", "wikipedia"), slog.Int("count", 10), slog.Int64("latency_ms", 120))
	})
	if allocs != 0 {
		t.Errorf("a counted debug event allocates %v times, want 0", allocs)
	}
	if got := value(t, mustScrape(t, m), "rypsok_engine_requests_total", "engine", "wikipedia", "result", "ok"); got < 100 {
		t.Errorf("the events were not counted: %v", got)
	}
	if out.Len() != 0 {
		t.Errorf("a debug event was written at level info: %s", out.String())
	}
}
