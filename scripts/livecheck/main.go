// Command livecheck sends one fixed query per engine type to the provider's
// real endpoint and reports whether the answer parsed: the live checks of
// the admission records (docs/engines/), run in the release checks and on
// demand, never by the tests and never as a gate. A failure means format
// drift (the provider changed its answer or its terms), not an outage of
// rypsok. Brave runs only with BRAVE_API_KEY; GitHub and Stack Exchange use
// GITHUB_TOKEN and STACKEXCHANGE_KEY when set. SearXNG has no live check:
// the instance is the operator's.
//
// Usage: go run ./scripts/livecheck [-contact you@example.org]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"rypsok/egress"
	"rypsok/search"
	"rypsok/secrets"
	"rypsok/tool"
)

type check struct {
	typ, endpoint, query, keyEnv string
	cat                          tool.Category
	needsKey                     bool
}

var checks = []check{
	{typ: "wikipedia", query: "Rust (programming language)", cat: tool.CategoryGeneral},
	{typ: "brave", endpoint: "web", query: "rust programming language", cat: tool.CategoryGeneral, keyEnv: "BRAVE_API_KEY", needsKey: true},
	{typ: "stackexchange", query: "asyncio wait_for cancel", cat: tool.CategoryCode, keyEnv: "STACKEXCHANGE_KEY"},
	{typ: "github", endpoint: "repositories", query: "asyncio timeout", cat: tool.CategoryCode, keyEnv: "GITHUB_TOKEN"},
	{typ: "hackernews", query: "asyncio timeout", cat: tool.CategoryNews},
}

// version is the VERSION file's, so the live checks identify as the
// release they check.
func version() string {
	b, err := os.ReadFile("VERSION")
	if err != nil {
		return "0.0.0"
	}
	return strings.TrimSpace(string(b))
}

func main() {
	contact := flag.String("contact", "", "the operator contact for the User-Agent")
	flag.Parse()
	failed := 0
	for _, c := range checks {
		cfg := search.EngineConfig{ID: c.typ, Type: c.typ, Categories: []tool.Category{c.cat}, Endpoint: c.endpoint}
		if c.keyEnv != "" {
			if k, err := secrets.FromEnv(c.keyEnv, os.LookupEnv); err == nil {
				cfg.Key = k
			} else if c.needsKey {
				fmt.Printf("%-14s skipped: %s is not set\n", c.typ, c.keyEnv)
				continue
			}
		}
		s := search.DefaultSettings()
		s.Engines = []search.EngineConfig{cfg}
		s.Deadline, s.EngineTimeout = 10*time.Second, 9*time.Second
		svc, err := search.New(s, search.Deps{UserAgent: egress.UserAgent(version(), *contact)})
		if err != nil {
			fmt.Printf("%-14s FAIL: %v\n", c.typ, err)
			failed++
			continue
		}
		out, terr := svc.Search(context.Background(), tool.SearchRequest{Query: c.query, Category: c.cat, MaxResults: 5, Language: "en"})
		switch {
		case terr != nil:
			fmt.Printf("%-14s FAIL: %s %s\n", c.typ, terr.Kind, terr.Detail.Reason)
			failed++
		case len(out.Results) == 0:
			fmt.Printf("%-14s FAIL: no result (%s; notices %v)\n", c.typ, out.Outcome, out.Notices)
			failed++
		default:
			fmt.Printf("%-14s ok: %d results, the first %s\n", c.typ, len(out.Results), out.Results[0].URL)
		}
	}
	if failed > 0 {
		os.Exit(1)
	}
}
