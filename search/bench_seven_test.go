package search

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"rypsok/tool"
)

// wikipediaAnswerOf is a list=search answer of n results for engine e: half
// of them shared by every engine, as real answers overlap.
func wikipediaAnswerOf(e, n int) []byte {
	type hit struct {
		Title     string `json:"title"`
		Snippet   string `json:"snippet"`
		Timestamp string `json:"timestamp"`
	}
	var hits []hit
	for i := 0; i < n; i++ {
		title := fmt.Sprintf("Shared article %d", i)
		if i%2 == 1 {
			title = fmt.Sprintf("Article %d of engine %d", i, e)
		}
		hits = append(hits, hit{Title: title, Timestamp: "2026-09-01T08:00:00Z",
			Snippet: `A snippet with <span class="searchmatch">matched</span> words, entities like &quot;this&quot; and enough text to be realistic for an answer of ordinary length.`})
	}
	b, _ := json.Marshal(map[string]any{"query": map[string]any{"search": hits}})
	return b
}

// BenchmarkSearchOverheadSevenEngines measures a whole search against seven
// loopback engines (the Wikipedia driver over TLS, ten results each) that
// answer after 20 to 50 ms. It reports the median of the whole search above
// the median of the slowest engine's request made alone: what fanning out
// to seven engines and post-processing their 70 results adds.
func BenchmarkSearchOverheadSevenEngines(b *testing.B) {
	const engines = 7
	delays := [engines]time.Duration{20, 25, 30, 35, 40, 45, 50}
	bodies := make([][]byte, engines)
	for e := range bodies {
		bodies[e] = wikipediaAnswerOf(e, 10)
	}
	ts, roots := tlsServerB(b, func(rw http.ResponseWriter, r *http.Request) {
		var e int
		fmt.Sscanf(strings.TrimPrefix(r.URL.Path, "/e"), "%d", &e)
		if e < 0 || e >= engines {
			http.NotFound(rw, r)
			return
		}
		time.Sleep(delays[e] * time.Millisecond)
		rw.Write(bodies[e])
	})
	s := DefaultSettings()
	for e := 0; e < engines; e++ {
		base, _ := url.Parse(fmt.Sprintf("%s/e%d/w/api.php", ts.URL, e))
		s.Engines = append(s.Engines, EngineConfig{ID: fmt.Sprintf("e%d", e), Type: "wikipedia", BaseURL: base, Categories: []tool.Category{tool.CategoryGeneral}})
	}
	svc, err := New(s, Deps{Roots: roots, UserAgent: testUA})
	if err != nil {
		b.Fatal(err)
	}
	var slowest Engine
	for _, sl := range svc.slots {
		// Lift the provider's rate for the measurement only.
		sl.bucket = newBucket(1_000_000, 1_000_000, time.Now)
		if sl.cfg.ID == fmt.Sprintf("e%d", engines-1) {
			slowest = sl.eng
		}
	}
	req := tool.SearchRequest{Query: "shared article", Category: tool.CategoryGeneral, MaxResults: 10, Language: "en"}
	svc.Search(context.Background(), req) // connections set up
	ereq := EngineRequest{Query: req.Query, MaxResults: 10, Language: "en"}
	var took, engine []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if _, err := slowest.Search(context.Background(), ereq); err != nil {
			b.Fatal(err)
		}
		engine = append(engine, time.Since(t0))
		t0 = time.Now()
		out, terr := svc.Search(context.Background(), req)
		took = append(took, time.Since(t0))
		if terr != nil || out.Outcome != tool.OutcomeOK || len(out.Results) != 10 {
			b.Fatalf("%+v %+v", terr, out)
		}
	}
	median := func(ds []time.Duration) time.Duration {
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		return ds[len(ds)/2]
	}
	m, e := median(took), median(engine)
	b.ReportMetric(float64(m-e)/float64(time.Millisecond), "above-slowest-p50-ms")
	b.ReportMetric(float64(e)/float64(time.Millisecond), "slowest-alone-p50-ms")
}

// BenchmarkPostProcessSevenEngines is BenchmarkPostProcess with seven
// engines answering 10 results each.
func BenchmarkPostProcessSevenEngines(b *testing.B) {
	s := DefaultSettings()
	var engines []Engine
	for e := 0; e < 7; e++ {
		id := fmt.Sprintf("e%d", e)
		s.Engines = append(s.Engines, EngineConfig{ID: id, Type: "fake", Categories: []tool.Category{tool.CategoryGeneral}})
		engines = append(engines, fake(id, nil))
	}
	svc := assemble(s, Deps{}, engines)
	var sel []picked
	for _, sl := range svc.byPref {
		sel = append(sel, picked{sl: sl})
	}
	ends := benchAnswers(7, 10)
	req := tool.SearchRequest{Query: "q", Category: tool.CategoryGeneral, MaxResults: 10, Language: "en"}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		out, err := svc.respond(context.Background(), sel, ends, req, nil)
		if err != nil || len(out.Results) != 10 {
			b.Fatal(err)
		}
		if _, err := json.Marshal(out); err != nil {
			b.Fatal(err)
		}
	}
}
