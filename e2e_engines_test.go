package main

import (
	"bytes"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"rypsok/scripts/standin"
)

// categoryEnum is the category enum of web_search in a tools/list answer.
func categoryEnum(t *testing.T, msg map[string]any) []string {
	t.Helper()
	for _, tl := range msg["result"].(map[string]any)["tools"].([]any) {
		tm := tl.(map[string]any)
		if tm["name"] != "web_search" {
			continue
		}
		props := tm["inputSchema"].(map[string]any)["properties"].(map[string]any)
		var out []string
		for _, c := range props["category"].(map[string]any)["enum"].([]any) {
			out = append(out, c.(string))
		}
		return out
	}
	t.Fatal("no web_search in tools/list")
	return nil
}

// TestREQ_OPS_003_ZeroConfigurationOffersEveryCategory: with no
// configuration, web_search offers general, news, science and code; the
// same engine set, pointed by base_url at loopback stand-ins of each
// provider's API, answers each category from its own engines.
func TestREQ_OPS_003_ZeroConfigurationOffersEveryCategory(t *testing.T) {
	want := []string{"general", "news", "science", "code"}
	cmd := exec.Command(binary(t), "serve")
	cmd.Env = []string{}
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + tutorialMeta + `}}` + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := categoryEnum(t, checkJSONRPC(t, out)[0]); !slices.Equal(got, want) {
		t.Fatalf("categories with no configuration: %v", got)
	}

	dir := t.TempDir()
	day := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	apis := standin.APIs([]standin.Item{
		{Kind: "question", ID: 1001, Title: "asyncio wait_for cancels the task on timeout", Snippet: "Why does the task get cancelled", Date: day},
		{Kind: "repository", ID: 2002, Title: "example/asyncio-timeouts", Snippet: "Timeouts for asyncio tasks", URL: "https://github.com/example/asyncio-timeouts", Date: day},
		{Kind: "story", ID: 39000001, Title: "Retrieval augmented generation evaluation in 2026", Snippet: "A survey of RAG evaluation", URL: "https://blog.example.org/rag-eval", Date: day},
		{Kind: "paper", ID: 4242, Title: "Evaluating retrieval augmented generation", Snippet: "We survey how retrieval augmented generation is evaluated", Date: day},
	})
	wiki := standin.Wiki([]standin.Article{{Title: "Retrieval-augmented generation", Timestamp: "2026-10-01T00:00:00Z",
		Snippet: "Retrieval-augmented generation is a technique", HTML: "<html><body><p>RAG</p></body></html>"}})
	s, err := standin.Start("127.0.0.1:0", dir, []net.IP{net.ParseIP("127.0.0.1")}, standin.Both(wiki, apis))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	// The zero-configuration set, each engine pointed at the stand-in.
	cfg := filepath.Join(dir, "rypsok.toml")
	doc := "config_version = 1\n[search]\nengine_attribution = true\ndeadline_ms = 10000\nengine_timeout_ms = 9000\n"
	for _, e := range []struct{ id, cats, base string }{
		{"wikipedia", `"general", "science"`, "/w/api.php"},
		{"arxiv", `"science"`, ""}, {"crossref", `"science"`, ""},
		{"stackexchange", `"code"`, ""}, {"hackernews", `"news"`, ""}, {"github", `"code"`, ""}, // github last: the key line below is its
	} {
		doc += fmt.Sprintf("[engines.%s]\ntype = %q\ncategories = [%s]\nbase_url = \"%s%s\"\n", e.id, e.id, e.cats, s.URL, e.base)
	}
	// An optional key that is not set: github runs keyless and serve says so.
	doc += "api_key_env = \"RYPSOK_TEST_GITHUB_TOKEN\"\n"
	writeFile(t, cfg, doc)
	calls := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + tutorialMeta + `}}` + "\n"
	queries := map[string]string{"general": "retrieval augmented generation", "news": "retrieval augmented generation evaluation 2026",
		"science": "retrieval augmented generation", "code": "python asyncio timeout cancels the task"}
	for i, cat := range want {
		calls += fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"web_search","arguments":{"query":%q,"category":%q,"max_results":10},%s}}`+"\n",
			i+2, queries[cat], cat, tutorialMeta)
	}
	cmd = serveCmd(t, cfg, s.CertFile)
	cmd.Stdin = strings.NewReader(calls)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err = cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	byID := map[float64]map[string]any{}
	for _, m := range checkJSONRPC(t, out) {
		byID[m["id"].(float64)] = m
	}
	if got := categoryEnum(t, byID[1]); !slices.Equal(got, want) {
		t.Fatalf("categories: %v", got)
	}
	engines := map[string][]string{"general": {"wikipedia"}, "news": {"hackernews"}, "science": {"arxiv", "crossref", "wikipedia"}, "code": {"github", "stackexchange"}}
	for i, cat := range want {
		res := byID[float64(i+2)]["result"].(map[string]any)
		sc := res["structuredContent"].(map[string]any)
		if sc["outcome"] != "ok" {
			t.Fatalf("%s: %v\n%s", cat, sc, stderr.String())
		}
		seen := map[string]bool{}
		for _, r := range sc["results"].([]any) {
			for _, e := range r.(map[string]any)["engines"].([]any) {
				seen[e.(string)] = true
			}
		}
		var got []string
		for e := range seen {
			got = append(got, e)
		}
		slices.Sort(got)
		if !slices.Equal(got, engines[cat]) {
			t.Fatalf("%s answered by %v, want %v: %v", cat, got, engines[cat], sc["results"])
		}
	}
	if strings.Contains(stderr.String(), "asyncio") {
		t.Fatal("a query reached the log")
	}
	keyless := false
	for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		keyless = keyless || strings.Contains(line, `"event":"engine_keyless"`) && strings.Contains(line, `"engine":"github"`) &&
			strings.Contains(line, "RYPSOK_TEST_GITHUB_TOKEN is unset or empty")
	}
	if !keyless {
		t.Fatalf("no engine_keyless line for github:\n%s", stderr.String())
	}
}
