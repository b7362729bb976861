// Command score-pdf reads the PDF development corpus (README.md and
// manifest.tsv of ../shared/bench/pdf) with web_fetch end to end: each file
// is served by a loopback server with its Content-Type from the manifest,
// and fetched with max_chars at its ceiling, following next_start_char to
// the end; and by the pdf package alone, in one reading (only that with
// -direct). It scores the text against the reference beside each file: word F1 of lower-cased \w+ tokens after compatibility
// decomposition with marks and format characters dropped, and the F1 of
// 5-token shingles, which punishes a wrong reading order. It prints both
// per file and their means, and the MB/s of the reading, end to end.
//
// Other extractors are measured in the same run with -vs, a name and a
// command whose {} is replaced by the PDF's path and which writes the text
// on stdout:
//
//	go run ./scripts/score-pdf -vs 'mutool=mutool draw -q -F txt -o - {}' \
//	    -vs 'pdftotext=pdftotext -enc UTF-8 {} -'
//
// When the corpus is not on this machine, it says so and exits 0.
package main

import (
	"bufio"
	"context"
	"crypto/x509"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"rypsok/egress"
	"rypsok/fetch"
	"rypsok/pdf"
	"rypsok/tool"
)

type entry struct {
	name, contentType, expect string
	bytes                     int
}

type vsFlag []string

func (v *vsFlag) String() string     { return strings.Join(*v, ",") }
func (v *vsFlag) Set(s string) error { *v = append(*v, s); return nil }

func main() {
	dir := flag.String("dir", "../shared/bench/pdf", "the corpus directory")
	only := flag.String("only", "", "score only these files (comma-separated names)")
	out := flag.String("out", "", "write each extracted text to this directory")
	direct := flag.Bool("direct", false, "read with the pdf package alone, without web_fetch")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the run to this file")
	var vs vsFlag
	flag.Var(&vs, "vs", "another extractor: name=command with {} for the file (repeatable)")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	entries, err := readManifest(filepath.Join(*dir, "manifest.tsv"))
	if err != nil {
		fmt.Printf("score-pdf: the corpus is not here (%v); nothing to score\n", err)
		return
	}
	if *only != "" {
		keep := map[string]bool{}
		for _, n := range strings.Split(*only, ",") {
			keep[n] = true
		}
		var sel []entry
		for _, e := range entries {
			if keep[e.name] {
				sel = append(sel, e)
			}
		}
		entries = sel
	}
	type extractor struct {
		name string
		run  func(path string, data []byte) (string, error)
	}
	wf, err := newFetcher(*dir, entries)
	if err != nil {
		fmt.Fprintln(os.Stderr, "score-pdf:", err)
		os.Exit(1)
	}
	defer wf.close()
	exts := []extractor{{"web_fetch", func(path string, data []byte) (string, error) {
		return wf.read(strings.TrimSuffix(filepath.Base(path), ".pdf"))
	}}, {"pdf", func(_ string, data []byte) (string, error) {
		return readPDF(data)
	}}}
	if *direct {
		exts = exts[1:]
	}
	for _, v := range vs {
		n, cmd, ok := strings.Cut(v, "=")
		if !ok {
			fmt.Fprintln(os.Stderr, "score-pdf: -vs wants name=command")
			os.Exit(2)
		}
		exts = append(exts, extractor{n, func(path string, _ []byte) (string, error) {
			args := strings.Fields(cmd)
			for i := range args {
				args[i] = strings.ReplaceAll(args[i], "{}", path)
			}
			b, err := exec.Command(args[0], args[1:]...).Output()
			return string(b), err
		}})
	}
	type sums struct {
		w, s     float64
		n        int
		bytes    int
		elapsed  time.Duration
		failures int
	}
	total := make([]sums, len(exts))
	fmt.Printf("%-28s", "file")
	for _, x := range exts {
		fmt.Printf(" %11.11s %11.11s", x.name+".w", x.name+".s")
	}
	fmt.Println()
	for _, e := range entries {
		path := filepath.Join(*dir, e.name+".pdf")
		data, err := os.ReadFile(path)
		if err != nil {
			fmt.Printf("%-28s missing\n", e.name)
			continue
		}
		refB, _ := os.ReadFile(filepath.Join(*dir, e.name+".txt"))
		ref := tokens(string(refB))
		if e.expect != "text" {
			// The checks: rypsok must refuse these.
			_, err := exts[0].run(path, data)
			fmt.Printf("%-28s expect %s: rypsok says %v\n", e.name, e.expect, err)
			continue
		}
		fmt.Printf("%-28s", e.name)
		for i, x := range exts {
			start := time.Now()
			text, err := x.run(path, data)
			el := time.Since(start)
			total[i].elapsed += el
			total[i].bytes += len(data)
			if err != nil {
				total[i].failures++
			}
			if i == 0 && *out != "" {
				_ = os.WriteFile(filepath.Join(*out, e.name+".md"), []byte(text), 0o644)
			}
			toks := tokens(readerText(text))
			w := f1(toks, ref)
			s := f1(shingles(toks), shingles(ref))
			total[i].w += w
			total[i].s += s
			total[i].n++
			fmt.Printf(" %11.3f %11.3f", w, s)
		}
		fmt.Println()
	}
	fmt.Printf("%-28s", "MEAN")
	for _, t := range total {
		if t.n == 0 {
			continue
		}
		fmt.Printf(" %11.3f %11.3f", t.w/float64(t.n), t.s/float64(t.n))
	}
	fmt.Println()
	for i, t := range total {
		if t.n == 0 {
			continue
		}
		fmt.Printf("%-10s word F1 %.3f  shingle F1 %.3f  %.2f MB/s  (%d files, %.1f MB, %.2fs, %d errors)\n",
			exts[i].name, t.w/float64(t.n), t.s/float64(t.n), float64(t.bytes)/1e6/t.elapsed.Seconds(),
			t.n, float64(t.bytes)/1e6, t.elapsed.Seconds(), t.failures)
	}
}

func readPDF(data []byte) (string, error) {
	doc, err := pdf.Extract(context.Background(), data, pdf.Limits{})
	return doc.Markdown, err
}

func readManifest(path string) ([]entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []entry
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) < 3 {
			continue
		}
		e := entry{name: c[0], contentType: c[1], expect: c[2]}
		if len(c) > 4 {
			fmt.Sscan(c[4], &e.bytes)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// fetcher serves the corpus on a loopback TLS server and reads it with a
// fetch.Service admitted to it by an explicit allow rule.
type fetcher struct {
	srv *httptest.Server
	svc *fetch.Service
}

func newFetcher(dir string, entries []entry) (*fetcher, error) {
	types := map[string]string{}
	for _, e := range entries {
		types[e.name] = e.contentType
	}
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/"), ".pdf")
		ct, ok := types[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if ct == "-" {
			w.Header()["Content-Type"] = nil
		} else {
			w.Header().Set("Content-Type", ct)
		}
		http.ServeFile(w, r, filepath.Join(dir, name+".pdf"))
	}))
	u, _ := url.Parse(srv.URL)
	port, _ := strconv.Atoi(u.Port())
	rule, err := egress.ParseRule("127.0.0.1")
	if err != nil {
		return nil, err
	}
	set := fetch.DefaultSettings()
	set.MaxBytes = 10 << 20
	set.Deadline = 30 * time.Second
	set.Policy = egress.Policy{Allow: []egress.Rule{rule}, Ports: []int{port}}
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	return &fetcher{srv: srv, svc: fetch.New(set, fetch.Deps{Roots: roots, UserAgent: "rypsok/score-pdf"})}, nil
}

func (f *fetcher) close() { f.srv.Close() }

// read fetches one file, every part, and returns the parts' content.
func (f *fetcher) read(name string) (string, error) {
	var b strings.Builder
	start := 0
	for {
		resp, terr := f.svc.Fetch(context.Background(), tool.FetchRequest{URL: f.srv.URL + "/" + name + ".pdf", MaxChars: 20000, StartChar: start})
		if terr != nil {
			return b.String(), fmt.Errorf("%s: %s", terr.Kind, terr.Message)
		}
		b.WriteString(resp.Content)
		if !resp.Truncated || resp.NextStartChar == nil {
			return b.String(), nil
		}
		start = *resp.NextStartChar
	}
}

var (
	linkTarget = regexp.MustCompile(`\]\([^)]*\)`)
	refDef     = regexp.MustCompile(`(?m)^\s*\[[^\]]+\]:\s+\S+.*$`)
	autolink   = regexp.MustCompile(`<[a-zA-Z][a-zA-Z0-9+.-]*:[^>\s]*>`)
	fence      = regexp.MustCompile("(?m)^\\s*(```|~~~).*$")
	escape     = regexp.MustCompile(`\\([!-/:-@\[-` + "`" + `{-~])`)
	word       = regexp.MustCompile(`[\p{L}\p{N}\p{Mn}\p{Mc}\p{Pc}]+`)
)

// readerText is Markdown as a reader sees it: link and image targets,
// reference definitions, autolinks and code fences dropped, backslash
// escapes undone.
func readerText(md string) string {
	md = linkTarget.ReplaceAllString(md, "]")
	md = refDef.ReplaceAllString(md, "")
	md = autolink.ReplaceAllString(md, "")
	md = fence.ReplaceAllString(md, "")
	return escape.ReplaceAllString(md, "$1")
}

// tokens are the corpus README's: NFKD, lower case, final sigma folded,
// marks and format characters dropped, then \w+ runs.
func tokens(text string) []string {
	t := strings.ToLower(norm.NFKD.String(text))
	t = strings.ReplaceAll(t, "ς", "σ")
	t = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, t)
	return word.FindAllString(t, -1)
}

func f1(pred, ref []string) float64 {
	if len(ref) == 0 {
		if len(pred) == 0 {
			return 1
		}
		return 0
	}
	if len(pred) == 0 {
		return 0
	}
	c := map[string]int{}
	for _, t := range ref {
		c[t]++
	}
	overlap := 0
	for _, t := range pred {
		if c[t] > 0 {
			c[t]--
			overlap++
		}
	}
	if overlap == 0 {
		return 0
	}
	p, r := float64(overlap)/float64(len(pred)), float64(overlap)/float64(len(ref))
	return 2 * p * r / (p + r)
}

func shingles(t []string) []string {
	var out []string
	for i := 0; i+5 <= len(t); i++ {
		out = append(out, strings.Join(t[i:i+5], "\x00"))
	}
	return out
}
