package search

import (
	"context"
	"strings"
	"testing"
	"time"

	"rypsok/secrets"
	"rypsok/tool"
)

func cacheBed(t *testing.T, mutate func(*Settings), engines ...*fakeEngine) *testBed {
	return newBed(t, func(s *Settings) {
		s.CacheEnabled = true
		s.CacheTTL = 300 * time.Second
		s.CacheMaxEntries = 1000
		s.CacheMaxEntryBytes = 32768
		if mutate != nil {
			mutate(s)
		}
	}, engines...)
}

func searchAs(t *testing.T, b *testBed, caller, query string) *tool.SearchResponse {
	t.Helper()
	ctx := tool.WithCall(context.Background(), tool.Call{RequestID: "r", Caller: caller})
	out, err := b.svc.Search(ctx, tool.SearchRequest{Query: query, Category: tool.CategoryGeneral, MaxResults: 5, Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestREQ_TEST_010_CacheEligibilityIsolationExpiration covers the cache's
// rules: only storable engines, a hit is noticed, entries belong to their
// caller and request, and they expire.
func TestREQ_TEST_010_CacheEligibilityIsolationExpiration(t *testing.T) {
	wiki := fake("wiki", answer(res("W", "https://w.example/")))
	wiki.props.Cacheable = true
	brave := fake("brave", answer(res("B", "https://b.example/")))
	brave.props.Cacheable = false // REQ-CMP-007: storage forbidden
	bed := cacheBed(t, nil, wiki, brave)

	first := searchAs(t, bed, "local", "q")
	if hasNotice(first, tool.Notice{Code: tool.CodeFromCache, Engine: "wiki"}) {
		t.Fatal("a first search cannot come from the cache")
	}
	second := searchAs(t, bed, "local", "q")
	if wiki.calls.Load() != 1 || !hasNotice(second, tool.Notice{Code: tool.CodeFromCache, Engine: "wiki"}) {
		t.Fatalf("the storable engine was asked again: %d calls, notices %+v", wiki.calls.Load(), second.Notices)
	}
	if brave.calls.Load() != 2 || hasNotice(second, tool.Notice{Code: tool.CodeFromCache, Engine: "brave"}) {
		t.Fatalf("an engine that forbids storage was served from the cache (%d calls)", brave.calls.Load())
	}
	if mustJSON(t, first.Results) != mustJSON(t, second.Results) {
		t.Fatal("the cached answer differs")
	}
	// Another caller, another query: misses (REQ-CACHE-004).
	searchAs(t, bed, "ops", "q")
	searchAs(t, bed, "local", "other query")
	if wiki.calls.Load() != 3 {
		t.Fatalf("entries leaked across callers or queries: %d calls", wiki.calls.Load())
	}
	// Expiration (REQ-CACHE-005).
	bed.clock.Add(299 * time.Second)
	searchAs(t, bed, "local", "q")
	if wiki.calls.Load() != 3 {
		t.Fatal("expired too early")
	}
	bed.clock.Add(2 * time.Second)
	searchAs(t, bed, "local", "q")
	if wiki.calls.Load() != 4 {
		t.Fatal("an entry outlived its ttl")
	}
}

func TestREQ_CACHE_005_BoundedEntries(t *testing.T) {
	wiki := fake("wiki", answer(res("W", "https://w.example/")))
	wiki.props.Cacheable = true
	bed := cacheBed(t, func(s *Settings) { s.CacheMaxEntries = 2 }, wiki)
	for _, q := range []string{"a", "b", "c"} {
		searchAs(t, bed, "local", q)
	}
	searchAs(t, bed, "local", "a") // the least recently used went first
	if wiki.calls.Load() != 4 {
		t.Fatalf("calls %d", wiki.calls.Load())
	}
	// An answer above max_entry_bytes is not stored.
	big := fake("big", answer(RawResult{Title: "T", URL: "https://x.example/", Snippet: strings.Repeat("s", 3000)}))
	big.props.Cacheable = true
	bed = cacheBed(t, func(s *Settings) { s.CacheMaxEntryBytes = 2048 }, big)
	searchAs(t, bed, "local", "q")
	searchAs(t, bed, "local", "q")
	if big.calls.Load() != 2 {
		t.Fatal("an oversized answer was cached")
	}
}

func TestREQ_CACHE_003_BypassesAndOff(t *testing.T) {
	// Off by default (REQ-CACHE-001).
	wiki := fake("wiki", answer(res("W", "https://w.example/")))
	wiki.props.Cacheable = true
	bed := newBed(t, nil, wiki)
	searchAs(t, bed, "local", "q")
	searchAs(t, bed, "local", "q")
	if wiki.calls.Load() != 2 {
		t.Fatal("cached while the cache is off")
	}
	// A query the secret check warned about bypasses it.
	wiki = fake("wiki", answer(res("W", "https://w.example/")))
	wiki.props.Cacheable = true
	bed = cacheBed(t, func(s *Settings) { s.SecretDetection = secrets.Warn }, wiki)
	q := "ghp_0123456789abcdefghijABCDEFGHIJ012345 why"
	searchAs(t, bed, "local", q)
	searchAs(t, bed, "local", q)
	if wiki.calls.Load() != 2 {
		t.Fatal("a warned query was cached")
	}
}

// TestREQ_RES_005_ProbeBypassesTheCache: the one real request after a
// cooldown goes to the engine even when an answer for it is cached.
func TestREQ_RES_005_ProbeBypassesTheCache(t *testing.T) {
	failing := false
	wiki := fake("wiki", func(_ context.Context, r EngineRequest) ([]RawResult, error) {
		if failing {
			return nil, failure(tool.ReasonTimeout)
		}
		return []RawResult{res("W", "https://w.example/")}, nil
	})
	wiki.props.Cacheable = true
	bed := cacheBed(t, nil, wiki)
	searchAs(t, bed, "local", "q")
	failing = true
	for _, q := range []string{"x", "y", "z"} {
		bed.svc.Search(context.Background(), tool.SearchRequest{Query: q, Category: tool.CategoryGeneral, MaxResults: 5, Language: "en"})
	}
	bed.clock.Add(61 * time.Second)
	failing = false
	calls := wiki.calls.Load()
	searchAs(t, bed, "local", "q")
	if wiki.calls.Load() != calls+1 {
		t.Fatal("the probe was answered from the cache")
	}
	if st := bed.svc.Status(context.Background()).Engines[0].State; st != tool.StateClosed {
		t.Fatalf("state after the probe: %s", st)
	}
}
