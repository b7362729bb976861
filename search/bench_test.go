package search

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"testing"
	"time"

	"rypsok/tool"
)

func benchAnswers(engines, perEngine int) []engineEnd {
	ends := make([]engineEnd, engines)
	for e := 0; e < engines; e++ {
		for i := 0; i < perEngine; i++ {
			// Half the results are shared between engines, as real answers are.
			host := fmt.Sprintf("site%d.example", i)
			if i%2 == 1 {
				host = fmt.Sprintf("e%d-site%d.example", e, i)
			}
			ends[e].results = append(ends[e].results, RawResult{
				Title:   fmt.Sprintf("<strong>Result</strong> %d of engine %d &amp; friends", i, e),
				URL:     fmt.Sprintf("https://www.%s/articles/%d/page?id=%d&utm_source=feed", host, i, i),
				Snippet: "A snippet with <span class=\"searchmatch\">matched</span> words, entities like &quot;this&quot; and enough text to be realistic for a search engine answer of ordinary length.",
				Date:    "2026-09-01",
			})
		}
	}
	return ends
}

// BenchmarkPostProcess measures everything rypsok does after the engines
// answered: normalise, merge, rank, clean, render (2 engines × 10 results).
func BenchmarkPostProcess(b *testing.B) {
	s := DefaultSettings()
	s.Engines = []EngineConfig{{ID: "a", Type: "fake", Categories: []tool.Category{tool.CategoryGeneral}}, {ID: "b", Type: "fake", Categories: []tool.Category{tool.CategoryGeneral}}}
	fa, fb := fake("a", nil), fake("b", nil)
	svc := assemble(s, Deps{}, []Engine{fa, fb})
	sel := []picked{{sl: svc.byPref[0]}, {sl: svc.byPref[1]}}
	ends := benchAnswers(2, 10)
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

// BenchmarkSearchOverhead measures a whole search against one loopback
// engine (the Wikipedia driver over TLS) that answers after 50 ms. It
// reports the median above those 50 ms (which includes the loopback request
// and the timer's own lateness), and the median above the same engine
// request made alone: what rypsok's pipeline adds.
func BenchmarkSearchOverhead(b *testing.B) {
	body := fixtureB(b, "wikipedia/search-ok.json")
	ts, roots := tlsServerB(b, func(rw http.ResponseWriter, r *http.Request) {
		time.Sleep(50 * time.Millisecond)
		rw.Write(body)
	})
	base, _ := url.Parse(ts.URL + "/w/api.php")
	s := DefaultSettings()
	s.Engines = []EngineConfig{{ID: "wikipedia", Type: "wikipedia", BaseURL: base, Categories: []tool.Category{tool.CategoryGeneral}}}
	svc, err := New(s, Deps{Roots: roots, UserAgent: testUA})
	if err != nil {
		b.Fatal(err)
	}
	// Lift the provider's rate for the measurement only.
	svc.slots[0].bucket = newBucket(1_000_000, 1_000_000, time.Now)
	req := tool.SearchRequest{Query: "rust programming language", Category: tool.CategoryGeneral, MaxResults: 5, Language: "en"}
	svc.Search(context.Background(), req) // connection set up
	driver := svc.slots[0].eng
	ereq := EngineRequest{Query: req.Query, MaxResults: 10, Language: "en"}
	var took, engine []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// The engine alone (the driver's request and parse), then the whole
		// search: the difference is what the pipeline adds.
		t0 := time.Now()
		if _, err := driver.Search(context.Background(), ereq); err != nil {
			b.Fatal(err)
		}
		engine = append(engine, time.Since(t0))
		t0 = time.Now()
		out, terr := svc.Search(context.Background(), req)
		took = append(took, time.Since(t0))
		if terr != nil || out.Outcome != tool.OutcomeOK {
			b.Fatalf("%+v", terr)
		}
	}
	median := func(ds []time.Duration) time.Duration {
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		return ds[len(ds)/2]
	}
	m, e := median(took), median(engine)
	b.ReportMetric(float64(m-50*time.Millisecond)/float64(time.Millisecond), "above-50ms-p50")
	b.ReportMetric(float64(m-e)/float64(time.Millisecond), "above-engine-p50-ms")
}
