package htmlx

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode"

	"rypsok/htmlx/charset"
)

// The article-extraction benchmark's scoring (scrapinghub's evaluate.py):
// per page, 4-word shingles of \w+ tokens of the prediction against those
// of the ground truth; precision and recall averaged over pages; F1 of the
// two averages.

// scoreTokens splits text into runs of word characters as Python's
// Unicode \w matches them: letters, numbers and the underscore.
func scoreTokens(text string) []string {
	var out []string
	start := -1
	for i, r := range text {
		word := r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
		if word {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, text[start:i])
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, text[start:])
	}
	return out
}

// scoreShingles counts the n-token shingles of text; a text shorter than
// n tokens yields one shorter shingle, as in evaluate.py.
func scoreShingles(text string, n int) map[string]int {
	tokens := scoreTokens(text)
	out := map[string]int{}
	for i := 0; i < max(1, len(tokens)-n+1); i++ {
		end := min(i+n, len(tokens))
		if end <= i {
			break
		}
		out[strings.Join(tokens[i:end], "\x00")]++
	}
	return out
}

// scorePage returns the normalised true positives, false positives and
// false negatives of one page.
func scorePage(truth, pred string) (tp, fp, fn float64) {
	ts := scoreShingles(truth, 4)
	ps := scoreShingles(pred, 4)
	for k, t := range ts {
		p := ps[k]
		tp += float64(min(t, p))
		fn += float64(max(0, t-p))
	}
	for k, p := range ps {
		fp += float64(max(0, p-ts[k]))
	}
	if s := tp + fp + fn; s > 0 {
		tp, fp, fn = tp/s, fp/s, fn/s
	}
	return tp, fp, fn
}

func scorePrecision(tp, fp, fn float64) float64 {
	if fp == 0 && fn == 0 {
		return 1
	}
	if tp == 0 && fp == 0 {
		return 0
	}
	return tp / (tp + fp)
}

func scoreRecall(tp, fp, fn float64) float64 {
	if fp == 0 && fn == 0 {
		return 1
	}
	if tp == 0 && fn == 0 {
		return 0
	}
	return tp / (tp + fn)
}

type scoreTriple struct{ tp, fp, fn float64 }

// scoreAverages returns mean precision, mean recall and their F1.
func scoreAverages(pages []scoreTriple) (p, r, f1 float64) {
	np, nr := 0, 0
	for _, s := range pages {
		if s.tp+s.fp > 0 {
			p += scorePrecision(s.tp, s.fp, s.fn)
			np++
		}
		if s.tp+s.fn > 0 {
			r += scoreRecall(s.tp, s.fp, s.fn)
			nr++
		}
	}
	if np > 0 {
		p /= float64(np)
	}
	if nr > 0 {
		r /= float64(nr)
	}
	if p+r > 0 {
		f1 = 2 * p * r / (p + r)
	}
	return p, r, f1
}

// withoutLinkTargets removes the "(url)" of Markdown links, keeping their
// text.
func withoutLinkTargets(md string) string {
	var b strings.Builder
	for {
		i := strings.Index(md, "](")
		if i < 0 {
			b.WriteString(md)
			return b.String()
		}
		j := strings.IndexByte(md[i+2:], ')')
		if j < 0 {
			b.WriteString(md)
			return b.String()
		}
		b.WriteString(md[:i+1])
		md = md[i+2+j+1:]
	}
}

func TestScorerMatchesEvaluatePy(t *testing.T) {
	tests := []struct {
		truth, pred  string
		wantP, wantR float64
	}{
		// identical texts
		{"one two three four five", "one two three four five", 1, 1},
		// prediction adds a word at the end: 2 true shingles, 3 predicted
		{"one two three four five", "one two three four five six", 2.0 / 3, 1},
		// short texts give one short shingle
		{"a b", "a b", 1, 1},
		{"a b", "a c", 0, 0},
		// repeated shingles count with their multiplicity
		{"x y z w x y z w", "x y z w", 1, 1.0 / 5},
	}
	for _, tc := range tests {
		tp, fp, fn := scorePage(tc.truth, tc.pred)
		if p := scorePrecision(tp, fp, fn); math.Abs(p-tc.wantP) > 1e-9 {
			t.Errorf("precision(%q, %q) = %v, want %v", tc.truth, tc.pred, p, tc.wantP)
		}
		if r := scoreRecall(tp, fp, fn); math.Abs(r-tc.wantR) > 1e-9 {
			t.Errorf("recall(%q, %q) = %v, want %v", tc.truth, tc.pred, r, tc.wantR)
		}
	}
	got := strings.Join(scoreTokens("Ça va? l'été_2019 — ok,x²"), "|")
	if want := "Ça|va|l|été_2019|ok|x²"; got != want {
		t.Errorf("tokens = %q, want %q", got, want)
	}
	if got := withoutLinkTargets("see [a b](https://x.example/p?q=1) and [c](http://y/)."); got != "see [a b] and [c]." {
		t.Errorf("withoutLinkTargets = %q", got)
	}
}

// TestExtractionScore measures ExtractHTML on the public article
// extraction benchmark when HTMLX_SCORE_DIR points at it. It is a
// measurement, not a gate. HTMLX_SCORE_OUT, when set, names a folder that
// receives each page's Markdown for inspection; HTMLX_SCORE_STRICT=1
// scores the book's strict reading of hidden content
// (fetch.read_collapsed = false).
func TestExtractionScore(t *testing.T) {
	dir := os.Getenv("HTMLX_SCORE_DIR")
	if dir == "" {
		t.Skip("HTMLX_SCORE_DIR is not set")
	}
	outDir := os.Getenv("HTMLX_SCORE_OUT")
	strict := os.Getenv("HTMLX_SCORE_STRICT") == "1"
	truth := loadGroundTruth(t, filepath.Join(dir, "ground-truth.json.gz"))
	ids := make([]string, 0, len(truth))
	for id := range truth {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	type pageScore struct {
		id        string
		p, r, f1  float64
		triple    scoreTriple
		noLinks   scoreTriple
		truthSize int
		predSize  int
	}
	var pages []pageScore
	var asReturned, noLinks, bodies []scoreTriple
	for _, id := range ids {
		gt := truth[id]
		body := readGzip(t, filepath.Join(dir, "html", id+".html.gz"))
		doc := charset.Decode(body, "text/html; charset=utf-8")
		base, _ := url.Parse(gt.URL)
		page, headLen, _ := extractRead(doc, base, defaultMaxNodes, defaultMaxDepth, strict)
		tp, fp, fn := scorePage(gt.ArticleBody, page.Markdown)
		a := scoreTriple{tp, fp, fn}
		tp2, fp2, fn2 := scorePage(gt.ArticleBody, withoutLinkTargets(page.Markdown))
		b := scoreTriple{tp2, fp2, fn2}
		tp3, fp3, fn3 := scorePage(gt.ArticleBody, withoutLinkTargets(page.Markdown[headLen:]))
		asReturned = append(asReturned, a)
		noLinks = append(noLinks, b)
		bodies = append(bodies, scoreTriple{tp3, fp3, fn3})
		p, r := scorePrecision(tp, fp, fn), scoreRecall(tp, fp, fn)
		f1 := 0.0
		if p+r > 0 {
			f1 = 2 * p * r / (p + r)
		}
		pages = append(pages, pageScore{id: id, p: p, r: r, f1: f1, triple: a, noLinks: b,
			truthSize: len(gt.ArticleBody), predSize: len(page.Markdown)})
		if outDir != "" {
			text := fmt.Sprintf("URL: %s\nTITLE: %s\nP=%.3f R=%.3f\n\n%s\n", gt.URL, page.Title, p, r, page.Markdown)
			if err := os.WriteFile(filepath.Join(outDir, id[:12]+".md"), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(outDir, id[:12]+".truth"), []byte(gt.ArticleBody), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	p, r, f1 := scoreAverages(asReturned)
	t.Logf("pages=%d as returned:        P=%.4f R=%.4f F1=%.4f", len(pages), p, r, f1)
	p, r, f1 = scoreAverages(noLinks)
	t.Logf("pages=%d link targets removed: P=%.4f R=%.4f F1=%.4f", len(pages), p, r, f1)
	// the benchmark's truth is the article's body; the headline that
	// ExtractHTML writes first is the title, which other extractors
	// return apart from the text
	p, r, f1 = scoreAverages(bodies)
	t.Logf("pages=%d article body (links removed, the headline written first set aside): P=%.4f R=%.4f F1=%.4f", len(pages), p, r, f1)
	sort.Slice(pages, func(i, j int) bool { return pages[i].f1 < pages[j].f1 })
	for _, ps := range pages[:min(10, len(pages))] {
		t.Logf("worst: %s P=%.3f R=%.3f F1=%.3f truth=%d pred=%d", ps.id[:12], ps.p, ps.r, ps.f1, ps.truthSize, ps.predSize)
	}
}

type groundTruth struct {
	ArticleBody string `json:"articleBody"`
	URL         string `json:"url"`
}

func loadGroundTruth(t *testing.T, path string) map[string]groundTruth {
	t.Helper()
	var out map[string]groundTruth
	if err := json.Unmarshal(readGzip(t, path), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func readGzip(tb testing.TB, path string) []byte {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
