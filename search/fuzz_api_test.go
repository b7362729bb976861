package search

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"rypsok/tool"
)

// The fuzz targets of the four API drivers' parsers: any bytes a provider
// could send end in results or in exactly one classified failure, never a
// panic, and every result keeps the driver's promises.

func addFixtures(f *testing.F, dir string) {
	files, _ := filepath.Glob(filepath.Join("testdata", dir, "*"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
}

func checkClassified(t *testing.T, rs []RawResult, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var ee *EngineError
	if !errors.As(err, &ee) || rs != nil {
		t.Fatalf("not one classified failure: %v %v", rs, err)
	}
	for _, c := range tool.EngineClasses() {
		if ee.Class == c {
			return
		}
	}
	t.Fatalf("class %q is not an engine class", ee.Class)
}

func checkDates(t *testing.T, rs []RawResult) {
	t.Helper()
	for _, r := range rs {
		if r.Date != "" && isoDate(r.Date) != r.Date {
			t.Fatalf("date %q", r.Date)
		}
	}
}

func FuzzSearXNGAnswer(f *testing.F) {
	addFixtures(f, "searxng")
	f.Fuzz(func(t *testing.T, body []byte) {
		rs, err := parseSearXNG(body, 10)
		checkClassified(t, rs, err)
		checkDates(t, rs)
		if len(rs) > 10 {
			t.Fatalf("%d results, asked for 10", len(rs))
		}
		for _, r := range rs {
			if r.URL == "" {
				t.Fatal("a result without a URL")
			}
		}
	})
}

func FuzzStackExchangeAnswer(f *testing.F) {
	addFixtures(f, "stackexchange")
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, status := range []int{200, 400, 429, 503} {
			rs, backoff, ee := parseStackExchange(body, status, "stackoverflow.com")
			var err error
			if ee != nil {
				err = ee
			}
			checkClassified(t, rs, err)
			checkDates(t, rs)
			if backoff < 0 || backoff > maxBackoff {
				t.Fatalf("backoff %s", backoff)
			}
			if ee != nil && (ee.RetryAfter < 0 || ee.RetryAfter > maxRetryAfter) {
				t.Fatalf("retry after %s", ee.RetryAfter)
			}
			seen := map[string]bool{}
			for _, r := range rs {
				if !strings.HasPrefix(r.URL, "https://stackoverflow.com/questions/") || seen[r.URL] {
					t.Fatalf("question URL %q (repeated: %v)", r.URL, seen[r.URL])
				}
				seen[r.URL] = true
			}
		}
		if w := throttleWait(string(body)); w < 0 || w > maxRetryAfter {
			t.Fatalf("throttle wait %s", w)
		}
	})
}

func FuzzGitHubAnswer(f *testing.F) {
	addFixtures(f, "github")
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, issues := range []bool{false, true} {
			rs, err := parseGitHub(body, issues)
			checkClassified(t, rs, err)
			checkDates(t, rs)
			for _, r := range rs {
				if r.URL == "" || r.Title == "" {
					t.Fatalf("result %+v", r)
				}
				if issues && (utf8.RuneCountInString(r.Snippet) > 4*gitHubSnippetChars || !utf8.ValidString(r.Snippet) && utf8.Valid(body)) {
					t.Fatalf("snippet of %d characters", utf8.RuneCountInString(r.Snippet))
				}
			}
		}
	})
}

func FuzzHackerNewsAnswer(f *testing.F) {
	addFixtures(f, "hackernews")
	f.Fuzz(func(t *testing.T, body []byte) {
		rs, err := parseHackerNews(body)
		checkClassified(t, rs, err)
		checkDates(t, rs)
		for _, r := range rs {
			if r.URL == "" || r.Title == "" {
				t.Fatalf("result %+v", r)
			}
		}
	})
}
