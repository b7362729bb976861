package search

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"

	"rypsok/tool"
)

// scriptedJudge answers by the words an item contains: "BLOCKME" blocks,
// "SECRET" is redacted to [REDACTED:k], "FLAGME" is flagged high, "FAILME"
// fails open. It records what it was asked.
type scriptedJudge struct {
	mu    sync.Mutex
	hooks []string
	items []tool.JudgeItem
}

func (j *scriptedJudge) Judge(_ context.Context, hook, toolName string, items []tool.JudgeItem) []tool.Verdict {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.hooks = append(j.hooks, hook+"/"+toolName)
	j.items = append(j.items, items...)
	out := make([]tool.Verdict, len(items))
	for i, it := range items {
		v := tool.Verdict{Content: it.Content}
		switch {
		case strings.Contains(it.Content, "BLOCKME"):
			v = tool.Verdict{Blocked: true, BlockedBy: "guard"}
		case strings.Contains(it.Content, "SECRET"):
			v.Content = strings.ReplaceAll(it.Content, "SECRET", "[REDACTED:k]")
			v.Redactions, v.RedactedBy, v.Types = strings.Count(it.Content, "SECRET"), []string{"redactor"}, []string{"k"}
		case strings.Contains(it.Content, "FLAGME"):
			v.FlaggedBy, v.Severity = []string{"flagger"}, "high"
		case strings.Contains(it.Content, "FAILME"):
			v.FailedBy, v.Failures = []string{"flaky"}, []string{"timeout"}
		}
		out[i] = v
	}
	return out
}

func judgedBed(t *testing.T, j tool.Judge, results ...RawResult) *testBed {
	t.Helper()
	b := newBed(t, nil, fake("a", answer(results...)))
	b.svc.deps.Judge = j
	return b
}

// TestRSP_SearchBlockDropsTheResultWithoutBackfill: a result whose title or
// snippet a plugin blocks is dropped, the next one is not moved up into
// max_results, and results_dropped says plugin_blocked with the count.
func TestRSP_SearchBlockDropsTheResultWithoutBackfill(t *testing.T) {
	rs := []RawResult{res("One", "https://one.example/"), res("Two BLOCKME", "https://two.example/"),
		res("Three", "https://three.example/"), res("Four", "https://four.example/"), res("Five", "https://five.example/"),
		res("Six", "https://six.example/")}
	j := &scriptedJudge{}
	out, terr := search(t, judgedBed(t, j, rs...), "q")
	if terr != nil {
		t.Fatal(terr)
	}
	var titles []string
	for _, r := range out.Results {
		titles = append(titles, r.Title)
	}
	if strings.Join(titles, ",") != "One,Three,Four,Five" {
		t.Fatalf("results %v: want the blocked one dropped and no backfill", titles)
	}
	if !hasNotice(out, tool.Notice{Code: tool.CodeResultsDropped, Reason: tool.ReasonPluginBlocked, Count: 1}) {
		t.Fatalf("notices %+v", out.Notices)
	}
	if len(j.hooks) != 1 || j.hooks[0] != "on_retrieve/web_search" || len(j.items) != 10 {
		t.Fatalf("the judge saw %v with %d items, want one on_retrieve call of 10 (title and snippet of each result)", j.hooks, len(j.items))
	}
	want := map[string]any{"tool": "web_search", "field": "snippet", "url": "https://three.example/", "engine": "a", "rank": 3}
	if !reflect.DeepEqual(j.items[5].Metadata, want) {
		t.Fatalf("metadata %v, want %v", j.items[5].Metadata, want)
	}
}

// TestRSP_SearchRedactFlagAndFailureNotices: REDACT rewrites the field (title and snippet: four intervals)
// (cleaned and bounded again), FLAG and a failure under on_error = allow
// let the result pass; each is said by its notice, without the matched text.
func TestRSP_SearchRedactFlagAndFailureNotices(t *testing.T) {
	rs := []RawResult{res("Has SECRET and SECRET", "https://one.example/"), res("FLAGME please", "https://two.example/"),
		res("FAILME now", "https://three.example/")}
	out, terr := search(t, judgedBed(t, &scriptedJudge{}, rs...), "q")
	if terr != nil {
		t.Fatal(terr)
	}
	if len(out.Results) != 3 || out.Results[0].Title != "Has [REDACTED:k] and [REDACTED:k]" {
		t.Fatalf("results %+v", out.Results)
	}
	for _, n := range []tool.Notice{
		{Code: tool.CodeContentRedacted, Count: 4, Plugins: []string{"redactor"}, Types: []string{"k"}},
		{Code: tool.CodePluginFlagged, Plugins: []string{"flagger"}, Severity: "high"},
		{Code: tool.CodePluginFailed, Plugins: []string{"flaky"}, Failure: "timeout"},
	} {
		if !hasNotice(out, n) {
			t.Errorf("missing %+v in %+v", n, out.Notices)
		}
	}
	if strings.Contains(mustJSON(t, out.Notices), "SECRET") {
		t.Fatal("a notice carries the matched text")
	}
}

// TestRSP_SearchEveryResultBlockedIsEmpty: when a plugin drops every result
// the outcome is the book's for zero results.
func TestRSP_SearchEveryResultBlockedIsEmpty(t *testing.T) {
	out, terr := search(t, judgedBed(t, &scriptedJudge{}, res("BLOCKME a", "https://a.example/"), res("BLOCKME b", "https://b.example/")), "q")
	if terr != nil || out.Outcome != tool.OutcomeEmpty || len(out.Results) != 0 {
		t.Fatalf("got %+v %v, want empty", out, terr)
	}
}
