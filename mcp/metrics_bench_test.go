package mcp

import (
	"io"
	"log/slog"
	"sort"
	"testing"
	"time"

	"rypsok/internal/metrics"
	"rypsok/tool"
)

// statusStream is a server answering engine_status calls over an
// in-process stream, logging through the log handler alone (off) or with
// the metrics' counting handler in front of it (on). It returns one round
// trip and the server's stop.
func statusStream(b *testing.B, on bool) (func() time.Duration, func()) {
	log := slog.New(tool.NewLogHandler(io.Discard, slog.LevelInfo))
	if on {
		m := metrics.New(metrics.Settings{Version: "bench", Tools: []string{tool.ToolWebSearch, tool.ToolWebFetch, tool.ToolEngineStatus}})
		log = slog.New(m.Handler(tool.NewLogHandler(io.Discard, slog.LevelInfo)))
	}
	set := testSettings()
	set.StatusPerMinute = 10_000_000 // measure the calls, not the refusals
	return pipedStdio(b, New(set, &fakeSearch{}, &fakeFetch{}, log, nil), call(1, "engine_status", `{}`))
}

// BenchmarkEngineStatusMetrics is one variant per sub-benchmark, for
// instruction counts (cachegrind) of each.
func BenchmarkEngineStatusMetrics(b *testing.B) {
	for _, on := range []bool{false, true} {
		b.Run(map[bool]string{false: "off", true: "on"}[on], func(b *testing.B) {
			trip, stop := statusStream(b, on)
			defer stop()
			trip()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				trip()
			}
		})
	}
}

// BenchmarkEngineStatusMetricsOverhead alternates the two variants in
// every iteration, so that both see the same machine, and reports the
// median round trip of each and their ratio.
func BenchmarkEngineStatusMetricsOverhead(b *testing.B) {
	off, stopOff := statusStream(b, false)
	defer stopOff()
	on, stopOn := statusStream(b, true)
	defer stopOn()
	off()
	on()
	tOff, tOn := make([]time.Duration, 0, b.N), make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			tOff = append(tOff, off())
			tOn = append(tOn, on())
		} else {
			tOn = append(tOn, on())
			tOff = append(tOff, off())
		}
	}
	median := func(ds []time.Duration) time.Duration {
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		return ds[len(ds)/2]
	}
	mOff, mOn := median(tOff), median(tOn)
	b.ReportMetric(float64(mOff.Nanoseconds()), "off-p50-ns")
	b.ReportMetric(float64(mOn.Nanoseconds()), "on-p50-ns")
	b.ReportMetric(float64(mOn)/float64(mOff), "on/off-p50")
}
