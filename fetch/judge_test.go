package fetch

import (
	"context"
	"strings"
	"sync"
	"testing"

	"rypsok/tool"
)

// pageJudge redacts "Alpha" to "[X]" at on_retrieve, blocks at the hook
// named block, and records the hooks and contents it saw.
type pageJudge struct {
	block   string // a hook at which to block; "" none
	failure string // the failure class of the block; "" a verdict
	mu      sync.Mutex
	seen    []string
	content []string
}

func (j *pageJudge) Judge(_ context.Context, hook, toolName string, items []tool.JudgeItem) []tool.Verdict {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.seen = append(j.seen, hook+"/"+toolName)
	out := make([]tool.Verdict, len(items))
	for i, it := range items {
		j.content = append(j.content, it.Content)
		switch {
		case hook == j.block:
			out[i] = tool.Verdict{Blocked: true, BlockedBy: "guard", Failure: j.failure}
		case hook == tool.HookOnRetrieve && strings.Contains(it.Content, "Alpha"):
			out[i] = tool.Verdict{Content: strings.ReplaceAll(it.Content, "Alpha", "[X]"), Redactions: strings.Count(it.Content, "Alpha"),
				RedactedBy: []string{"redactor"}, Types: []string{"name"}}
		default:
			out[i] = tool.Verdict{Content: it.Content}
		}
	}
	return out
}

const judgedPage = "<html><head><title>Judged</title></head><body><article><p>Alpha one Alpha two Alpha three, and a sentence long enough to be the main content of this page.</p></article></body></html>"

// TestRSP_FetchRedactsBeforeSlicing: on_retrieve sees the whole page
// before it is cut, so the continuation offsets count in the redacted text;
// on_response sees exactly the slice returned.
func TestRSP_FetchRedactsBeforeSlicing(t *testing.T) {
	st := newSite(t, html(judgedPage))
	j := &pageJudge{}
	e := newEnv(t, func(s *Settings) { s.MaxCharsCeiling = 20000 }, st)
	e.svc.judge = j
	first := e.mustFetch(t, st.url("a.example.com", "/p"), 500, 0)
	whole := first.Content
	if strings.Contains(whole, "Alpha") || strings.Count(whole, "[X]") != 3 {
		t.Fatalf("content %q", whole)
	}
	if !hasNotice(first, tool.CodeContentRedacted) {
		t.Fatalf("notices %+v", first.Notices)
	}
	if strings.Join(j.seen, ",") != "on_retrieve/web_fetch,on_response/web_fetch" || !strings.Contains(j.content[0], "Alpha") || j.content[1] != whole {
		t.Fatalf("the judge saw %v: %q", j.seen, j.content)
	}
	// A slice that starts after the first replacement: the offset counts
	// in the redacted text, so the slice begins where the whole one did at
	// that offset.
	at := strings.Index(whole, "[X] two")
	part := e.mustFetch(t, st.url("a.example.com", "/p"), 500, len([]rune(whole[:at])))
	if !strings.HasPrefix(part.Content, "[X] two") {
		t.Fatalf("continuation %q", part.Content)
	}
}

// TestRSP_FetchBlockIsDeniedNamingThePlugin: a block at either hook ends
// the call denied with reason plugin and the plugin's name, with the failure
// class when a failure was treated as a block; the content never returns.
func TestRSP_FetchBlockIsDeniedNamingThePlugin(t *testing.T) {
	for _, c := range []struct{ hook, failure string }{
		{tool.HookOnRetrieve, ""}, {tool.HookOnResponse, ""}, {tool.HookOnRetrieve, "timeout"},
	} {
		st := newSite(t, html(judgedPage))
		e := newEnv(t, nil, st)
		e.svc.judge = &pageJudge{block: c.hook, failure: c.failure}
		resp, terr := e.fetch(t, st.url("a.example.com", "/p"), 3000, 0)
		wantError(t, terr, tool.KindDenied, tool.ReasonPlugin)
		if resp != nil || terr.Detail.Plugin != "guard" || terr.Detail.Failure != c.failure {
			t.Fatalf("%s: %+v %+v", c.hook, resp, terr.Detail)
		}
		if strings.Contains(errorJSON(t, terr), "Alpha") {
			t.Fatal("the blocked content is in the error")
		}
	}
}
