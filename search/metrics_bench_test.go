package search

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"sort"
	"testing"
	"time"

	"rypsok/internal/metrics"
	"rypsok/tool"
)

// metricsBench is a search service against two in-process engines (10
// results each, post-processing included) logging through the log handler
// alone (off) or with the metrics' counting handler in front of it (on,
// [service.metrics] set).
func metricsBench(b *testing.B, on bool) func() time.Duration {
	log := slog.New(tool.NewLogHandler(io.Discard, slog.LevelInfo))
	if on {
		m := metrics.New(metrics.Settings{Version: "bench", Tools: []string{tool.ToolWebSearch}, Engines: []string{"a", "b"}})
		log = slog.New(m.Handler(tool.NewLogHandler(io.Discard, slog.LevelInfo)))
	}
	ends := benchAnswers(2, 10)
	s := DefaultSettings()
	s.Engines = []EngineConfig{{ID: "a", Type: "fake", Categories: []tool.Category{tool.CategoryGeneral}}, {ID: "b", Type: "fake", Categories: []tool.Category{tool.CategoryGeneral}}}
	svc := assemble(s, Deps{Logger: log}, []Engine{fake("a", answer(ends[0].results...)), fake("b", answer(ends[1].results...))})
	for _, sl := range svc.slots {
		sl.bucket = newBucket(1_000_000, 1_000_000, time.Now) // the providers' rates lifted for the measurement
	}
	ctx := tool.WithCall(context.Background(), tool.Call{RequestID: "bench", Caller: "local"})
	req := tool.SearchRequest{Query: "rust programming language", Category: tool.CategoryGeneral, MaxResults: 10, Language: "en"}
	return func() time.Duration {
		t0 := time.Now()
		out, terr := svc.Search(ctx, req)
		d := time.Since(t0)
		if terr != nil || len(out.Results) != 10 {
			b.Fatalf("%+v", terr)
		}
		return d
	}
}

// loopbackBench is the same over the Wikipedia driver against a loopback
// TLS engine that answers at once: the engine request as rypsok makes it.
func loopbackBench(b *testing.B, on bool) func() time.Duration {
	body := fixtureB(b, "wikipedia/search-ok.json")
	ts, roots := tlsServerB(b, func(rw http.ResponseWriter, r *http.Request) { rw.Write(body) })
	base, _ := url.Parse(ts.URL + "/w/api.php")
	log := slog.New(tool.NewLogHandler(io.Discard, slog.LevelInfo))
	if on {
		m := metrics.New(metrics.Settings{Version: "bench", Tools: []string{tool.ToolWebSearch}, Engines: []string{"wikipedia"}})
		log = slog.New(m.Handler(tool.NewLogHandler(io.Discard, slog.LevelInfo)))
	}
	s := DefaultSettings()
	s.Engines = []EngineConfig{{ID: "wikipedia", Type: "wikipedia", BaseURL: base, Categories: []tool.Category{tool.CategoryGeneral}}}
	svc, err := New(s, Deps{Roots: roots, UserAgent: testUA, Logger: log})
	if err != nil {
		b.Fatal(err)
	}
	svc.slots[0].bucket = newBucket(1_000_000, 1_000_000, time.Now) // the provider's rate lifted for the measurement
	ctx := tool.WithCall(context.Background(), tool.Call{RequestID: "bench", Caller: "local"})
	req := tool.SearchRequest{Query: "rust programming language", Category: tool.CategoryGeneral, MaxResults: 5, Language: "en"}
	return func() time.Duration {
		t0 := time.Now()
		out, terr := svc.Search(ctx, req)
		d := time.Since(t0)
		if terr != nil || out.Outcome != tool.OutcomeOK {
			b.Fatalf("%+v", terr)
		}
		return d
	}
}

// BenchmarkSearchMetrics is one variant per sub-benchmark, for instruction
// counts (cachegrind) of each.
func BenchmarkSearchMetrics(b *testing.B) {
	for _, on := range []bool{false, true} {
		name := map[bool]string{false: "off", true: "on"}[on]
		b.Run(name, func(b *testing.B) {
			search := metricsBench(b, on)
			search()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				search()
			}
		})
	}
}

// BenchmarkSearchMetricsOverhead alternates the two variants in every
// iteration, so that both see the same machine, and reports the median
// search of each and their ratio: in process (two engines that cost
// nothing, so the pipeline alone) and against a loopback engine.
func BenchmarkSearchMetricsOverhead(b *testing.B) {
	b.Run("inprocess", func(b *testing.B) { alternate(b, metricsBench(b, false), metricsBench(b, true)) })
	b.Run("loopback", func(b *testing.B) { alternate(b, loopbackBench(b, false), loopbackBench(b, true)) })
}

func alternate(b *testing.B, off, on func() time.Duration) {
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
