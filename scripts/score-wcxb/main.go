// Command score-wcxb runs the htmlx extractor over the WCXB development
// split and scores it as WCXB's evaluate.py does: per page, the
// bag-of-words F1 of the lower-cased \w+ tokens of the extracted plain
// text against main_content (the overlap counts each word as often as it
// appears in both); the figures are means over pages, overall and per page
// type. It also prints the mean share of the "with" snippets found and of
// the "without" snippets found (lower is better), the pages that end in an
// error instead of content, and the worst pages of each type.
//
// The extracted text is the Markdown web_fetch returns (after
// CleanContent) with link targets removed, as a reader of the text sees
// it.
//
// Usage (from the module root):
//
//	go run ./scripts/score-wcxb [-dir ../shared/bench/wcxb-dev] [-worst 8]
//	    [-type forum] [-out /tmp/dir] [-id 0001,0002] [-digits 4]
//	    [-strict]
//
// -strict scores the book's strict reading of hidden content, as
// fetch.read_collapsed = false sets it: no closed <details>, disclosure
// panel or noscript fallback is read.
//
// When the split is not on this machine, it says so and exits 0.
package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode"

	"rypsok/boundary"
	"rypsok/htmlx"
	"rypsok/htmlx/charset"
)

type record struct {
	ID          string   `json:"id"`
	URL         string   `json:"url"`
	PageType    string   `json:"page_type"`
	Title       string   `json:"title"`
	MainContent string   `json:"main_content"`
	With        []string `json:"with"`
	Without     []string `json:"without"`
}

type result struct {
	rec         *record
	p, r, f1    float64
	withRate    float64
	withoutRate float64
	err         error
	predWords   int
	truthWords  int
	bytes       int
	elapsed     time.Duration
}

// digits is the number of decimals of the means in the table.
var digits = 3

// strict is -strict: the extraction's Limits.StrictHidden.
var strict bool

var typeOrder = []string{"article", "forum", "product", "collection", "listing", "documentation", "service"}

func main() {
	dir := flag.String("dir", "", "the WCXB split (default: ../shared/bench/wcxb-dev from the module root)")
	worst := flag.Int("worst", 8, "worst pages to list per type")
	only := flag.String("type", "", "score only this page type")
	ids := flag.String("id", "", "score only these comma-separated page ids")
	out := flag.String("out", "", "write each page's text and truth into this folder")
	flag.IntVar(&digits, "digits", 3, "decimals of the mean F1, precision and recall (1 to 6)")
	flag.BoolVar(&strict, "strict", false, "read hidden content strictly (fetch.read_collapsed = false)")
	flag.Parse()
	if digits < 1 || digits > 6 {
		fmt.Fprintln(os.Stderr, "score-wcxb: -digits takes 1 to 6")
		os.Exit(2)
	}
	d := *dir
	if d == "" {
		d = findSplit()
	}
	if d == "" {
		fmt.Println("score-wcxb: the WCXB split is not present (../shared/bench/wcxb-dev); nothing to score")
		return
	}
	if err := run(d, *worst, *only, *ids, *out); err != nil {
		fmt.Fprintln(os.Stderr, "score-wcxb:", err)
		os.Exit(1)
	}
}

// findSplit looks for the split beside the module, from the module root
// or from the script's own folder.
func findSplit() string {
	for _, d := range []string{"../shared/bench/wcxb-dev", "../../../shared/bench/wcxb-dev"} {
		if _, err := os.Stat(filepath.Join(d, "dev.jsonl.gz")); err == nil {
			return d
		}
	}
	return ""
}

func run(dir string, worst int, only, idList, out string) error {
	recs, err := loadRecords(filepath.Join(dir, "dev.jsonl.gz"))
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, id := range strings.Split(idList, ",") {
		if id = strings.TrimSpace(id); id != "" {
			want[id] = true
		}
	}
	var results []result
	totalBytes := 0
	var totalTime time.Duration
	for i := range recs {
		rec := &recs[i]
		if only != "" && rec.PageType != only || len(want) > 0 && !want[rec.ID] {
			continue
		}
		body, err := readGzip(filepath.Join(dir, "html", rec.ID+".html.gz"))
		if err != nil {
			return err
		}
		res := score(rec, body, out)
		totalBytes += res.bytes
		totalTime += res.elapsed
		results = append(results, res)
	}
	if len(results) == 0 {
		return errors.New("no page matched")
	}
	report(results, worst)
	if totalTime > 0 {
		fmt.Printf("\nthroughput: %.1f MB/s of HTML (%d pages, %.1f MB, %.2f s in Decode+ExtractHTML+CleanContent on this goroutine)\n",
			float64(totalBytes)/1e6/totalTime.Seconds(), len(results), float64(totalBytes)/1e6, totalTime.Seconds())
	}
	return nil
}

// score extracts one page as web_fetch does and scores its text.
func score(rec *record, body []byte, out string) result {
	res := result{rec: rec, bytes: len(body)}
	base, _ := url.Parse(rec.URL)
	start := time.Now()
	doc := charset.Decode(body, "text/html")
	page, err := htmlx.ExtractHTML(doc, base, htmlx.Limits{MaxNodes: 100000, MaxDepth: 256, StrictHidden: strict})
	content := ""
	if err == nil {
		content, _ = boundary.CleanContent(page.Markdown)
		if strings.TrimSpace(content) == "" {
			err = errors.New("nothing left after cleaning")
		}
	}
	res.elapsed = time.Since(start)
	res.err = err
	text := plainText(content)
	pred, truth := tokens(text), tokens(rec.MainContent)
	res.predWords, res.truthWords = len(pred), len(truth)
	res.p, res.r, res.f1 = wordF1(pred, truth)
	res.withRate = snippetRate(text, rec.With)
	res.withoutRate = snippetRate(text, rec.Without)
	if out != "" {
		head := fmt.Sprintf("ID: %s\nTYPE: %s\nURL: %s\nTITLE: %s\nP=%.3f R=%.3f F1=%.3f err=%v\n\n", rec.ID, rec.PageType, rec.URL, page.Title, res.p, res.r, res.f1, err)
		_ = os.WriteFile(filepath.Join(out, rec.ID+".md"), []byte(head+content+"\n"), 0o644)
		_ = os.WriteFile(filepath.Join(out, rec.ID+".truth"), []byte(rec.MainContent+"\n"), 0o644)
	}
	return res
}

// tokens are the lower-cased runs of word characters, as Python's
// re.findall(r'\w+', text.lower()) finds them: letters, numbers and the
// underscore (combining marks split words there, as in Python).
func tokens(text string) []string {
	text = strings.ToLower(text)
	var out []string
	start := -1
	for i, r := range text {
		if r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) {
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

// wordF1 is evaluate.py's word_f1: the overlap of the two multisets over
// the predicted and the reference counts.
func wordF1(pred, ref []string) (p, r, f1 float64) {
	if len(ref) == 0 {
		if len(pred) == 0 {
			return 1, 1, 1
		}
		return 0, 0, 0
	}
	if len(pred) == 0 {
		return 0, 0, 0
	}
	counts := make(map[string]int, len(ref))
	for _, t := range ref {
		counts[t]++
	}
	overlap := 0
	for _, t := range pred {
		if counts[t] > 0 {
			counts[t]--
			overlap++
		}
	}
	p = float64(overlap) / float64(len(pred))
	r = float64(overlap) / float64(len(ref))
	if p+r > 0 {
		f1 = 2 * p * r / (p + r)
	}
	return p, r, f1
}

// snippetRate is the share of snippets found in text, case folded as
// Python's lower() folds.
func snippetRate(text string, snippets []string) float64 {
	if len(snippets) == 0 {
		return 1
	}
	low := strings.ToLower(text)
	found := 0
	for _, s := range snippets {
		if strings.Contains(low, strings.ToLower(s)) {
			found++
		}
	}
	return float64(found) / float64(len(snippets))
}

// plainText removes the Markdown link targets "](...)" and image
// markers, keeping link text, the info string of a code fence ("```go")
// and the backslash of an escape ("\\[" shows "["): the words a reader of
// the text sees.
func plainText(md string) string {
	return withoutEscapes(withoutFenceInfo(withoutLinkTargets(md)))
}

// withoutEscapes drops the backslash before ASCII punctuation, as a
// Markdown renderer does.
func withoutEscapes(md string) string {
	if !strings.Contains(md, "\\") {
		return md
	}
	var b strings.Builder
	b.Grow(len(md))
	for i := 0; i < len(md); i++ {
		if md[i] == '\\' && i+1 < len(md) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", md[i+1]) >= 0 {
			i++
		}
		b.WriteByte(md[i])
	}
	return b.String()
}

// withoutFenceInfo drops the info string after the backticks or tildes
// that open a code fence; the fence itself carries no word.
func withoutFenceInfo(md string) string {
	if !strings.Contains(md, "```") && !strings.Contains(md, "~~~") {
		return md
	}
	lines := strings.Split(md, "\n")
	for i, line := range lines {
		t := strings.TrimLeft(line, " >")
		for _, fence := range []string{"```", "~~~"} {
			if strings.HasPrefix(t, fence) {
				lines[i] = line[:len(line)-len(t)] + strings.TrimRight(t[:len(t)-len(strings.TrimLeft(t, fence[:1]))], " ")
			}
		}
	}
	return strings.Join(lines, "\n")
}

// withoutLinkTargets removes the Markdown link targets "](...)" and
// image markers, keeping link text.
func withoutLinkTargets(md string) string {
	var b strings.Builder
	b.Grow(len(md))
	for {
		i := strings.Index(md, "](")
		if i < 0 {
			b.WriteString(md)
			break
		}
		depth, j := 0, i+1
		for ; j < len(md); j++ {
			if md[j] == '(' {
				depth++
			} else if md[j] == ')' {
				depth--
				if depth == 0 {
					break
				}
			} else if md[j] == '\n' {
				break
			}
		}
		b.WriteString(md[:i+1])
		if j >= len(md) {
			break
		}
		md = md[j+1:]
	}
	return b.String()
}

type agg struct {
	n                       int
	p, r, f1, with, without float64
	errors                  int
	withN, withoutN         int
	withSum, withoutSum     float64
	predWords, truthWords   int
	lowRecall, lowPrecision int
	emptyish                int
	results                 []result
}

func (a *agg) add(res result) {
	a.n++
	a.p += res.p
	a.r += res.r
	a.f1 += res.f1
	a.with += res.withRate
	a.without += res.withoutRate
	if len(res.rec.With) > 0 {
		a.withN++
		a.withSum += res.withRate
	}
	if len(res.rec.Without) > 0 {
		a.withoutN++
		a.withoutSum += res.withoutRate
	}
	if res.err != nil {
		a.errors++
	}
	if res.r < 0.5 {
		a.lowRecall++
	}
	if res.p < 0.5 {
		a.lowPrecision++
	}
	a.results = append(a.results, res)
}

func report(results []result, worst int) {
	all := &agg{}
	types := map[string]*agg{}
	for _, res := range results {
		all.add(res)
		t := types[res.rec.PageType]
		if t == nil {
			t = &agg{}
			types[res.rec.PageType] = t
		}
		t.add(res)
	}
	row := func(name string, a *agg) {
		n := float64(a.n)
		fmt.Printf("%-14s %5d %7.*f %7.*f %7.*f %7.1f%% %7.1f%% %6d %6d %6d\n", name, a.n, digits, a.f1/n, digits, a.p/n, digits, a.r/n,
			100*a.with/n, 100*a.without/n, a.errors, a.lowPrecision, a.lowRecall)
	}
	fmt.Printf("%-14s %5s %7s %7s %7s %8s %8s %6s %6s %6s\n", "type", "N", "F1", "P", "R", "with", "without", "errors", "P<.5", "R<.5")
	row("all", all)
	names := append([]string(nil), typeOrder...)
	for t := range types {
		known := false
		for _, k := range typeOrder {
			known = known || k == t
		}
		if !known {
			names = append(names, t)
		}
	}
	for _, t := range names {
		if a := types[t]; a != nil {
			row(t, a)
		}
	}
	if worst <= 0 {
		return
	}
	for _, t := range names {
		a := types[t]
		if a == nil {
			continue
		}
		rs := append([]result(nil), a.results...)
		sort.SliceStable(rs, func(i, j int) bool { return rs[i].f1 < rs[j].f1 })
		fmt.Printf("\nworst %s:\n", t)
		for _, res := range rs[:min(worst, len(rs))] {
			e := ""
			if res.err != nil {
				e = " error: " + res.err.Error()
			}
			fmt.Printf("  %s F1=%.3f P=%.3f R=%.3f words=%d/%d %s%s\n", res.rec.ID, res.f1, res.p, res.r,
				res.predWords, res.truthWords, shorten(res.rec.URL, 80), e)
		}
	}
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func loadRecords(path string) ([]record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	var recs []record
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	for sc.Scan() {
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		recs = append(recs, r)
	}
	return recs, sc.Err()
}

func readGzip(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}
