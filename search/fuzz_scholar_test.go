package search

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzScholar seeds a fuzz target with a provider's fixtures and checks
// every answer: no panic, results or one classified failure, and only
// absolute http(s) URLs of the expected form.
func fuzzScholar(f *testing.F, dir string, parse func([]byte) ([]RawResult, error), urlOK func(string) bool) {
	files, _ := filepath.Glob(filepath.Join("testdata", dir, "*"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		rs, err := parse(body)
		if err != nil {
			ee, ok := err.(*EngineError)
			if !ok || rs != nil || ee.Class == "" {
				t.Fatalf("not one classified failure: %v %v", rs, err)
			}
			return
		}
		for _, r := range rs {
			if !urlOK(r.URL) {
				t.Fatalf("URL %q", r.URL)
			}
			if _, why := normalizeURL(r.URL); why != "" && len(r.URL) < 2000 {
				t.Fatalf("a result URL the pipeline drops (%s): %q", why, r.URL)
			}
			if r.Title == "" {
				t.Fatal("a result without a title")
			}
		}
	})
}

// FuzzArxivAtom: any bytes as arXiv's Atom answer.
func FuzzArxivAtom(f *testing.F) {
	f.Add(deep(arxivMaxDepth + 1))
	fuzzScholar(f, "arxiv", parseArxiv, func(u string) bool {
		id, ok := strings.CutPrefix(u, "https://arxiv.org/abs/")
		_, valid := arxivID(id)
		return ok && valid
	})
}

// FuzzCrossrefWorks: any bytes as Crossref's work-list.
func FuzzCrossrefWorks(f *testing.F) {
	fuzzScholar(f, "crossref", parseCrossref, func(u string) bool { return strings.HasPrefix(u, "https://doi.org/10.") })
}

// FuzzOpenAlexWorks: any bytes as OpenAlex's list of works.
func FuzzOpenAlexWorks(f *testing.F) {
	fuzzScholar(f, "openalex", parseOpenAlex, func(u string) bool {
		return strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://")
	})
}
