package htmlx

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"rypsok/htmlx/charset"
)

// The extraction corpus (REQ-FETCH-002, REQ-PAGE-002) lives in
// testdata/pages: for each NAME,
//
//	NAME.html        the page as served (any encoding; Decode runs first)
//	NAME.expect.txt  "+ sentence" lines that must be in the Markdown and
//	                 "- text" lines that must not be
//	NAME.main.txt    the full main text of the page, for the word score
//	NAME.meta        optional "title: ..." and "base: ..." lines
//
// The expectations are the specification; see testdata/pages/README.md.

const corpusDir = "testdata/pages"

// corpusF1Floor is the lowest word-level F1 over the whole corpus that
// TestCorpusScore accepts; below it extraction has regressed.
const corpusF1Floor = 0.93

// corpusLimits are the production bounds (LIM-F10, LIM-F11).
func corpusLimits() Limits { return Limits{MaxNodes: 100000, MaxDepth: 256} }

type corpusPage struct {
	name    string
	body    []byte
	present []string // "+" lines
	absent  []string // "-" lines
	main    string
	title   string
	base    *url.URL
}

func loadCorpus(t testing.TB) []corpusPage {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(corpusDir, "*.html"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus pages in %s (%v)", corpusDir, err)
	}
	sort.Strings(files)
	var pages []corpusPage
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".html")
		p := corpusPage{name: name}
		if p.body, err = os.ReadFile(f); err != nil {
			t.Fatal(err)
		}
		expect, err := os.ReadFile(filepath.Join(corpusDir, name+".expect.txt"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i, line := range strings.Split(string(expect), "\n") {
			switch {
			case strings.HasPrefix(line, "+ "):
				p.present = append(p.present, line[2:])
			case strings.HasPrefix(line, "- "):
				p.absent = append(p.absent, line[2:])
			case strings.TrimSpace(line) == "", strings.HasPrefix(line, "#"):
			default:
				t.Fatalf("%s.expect.txt:%d: a line must start with \"+ \", \"- \" or \"#\"", name, i+1)
			}
		}
		if len(p.present) == 0 {
			t.Fatalf("%s.expect.txt has no + line", name)
		}
		main, err := os.ReadFile(filepath.Join(corpusDir, name+".main.txt"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		p.main = string(main)
		baseURL := "https://example.org/" + name
		if meta, err := os.ReadFile(filepath.Join(corpusDir, name+".meta")); err == nil {
			sc := bufio.NewScanner(bytes.NewReader(meta))
			for sc.Scan() {
				key, value, ok := strings.Cut(sc.Text(), ":")
				if !ok {
					continue
				}
				switch strings.TrimSpace(key) {
				case "title":
					p.title = strings.TrimSpace(value)
				case "base":
					baseURL = strings.TrimSpace(value)
				}
			}
		} else if !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%s: %v", name, err)
		}
		if p.base, err = url.Parse(baseURL); err != nil {
			t.Fatalf("%s: base: %v", name, err)
		}
		pages = append(pages, p)
	}
	return pages
}

func (p corpusPage) extract() (Page, error) {
	return p.extractRead(false)
}

// extractRead extracts the page under a reading of hidden content:
// strict is fetch.read_collapsed = false.
func (p corpusPage) extractRead(strict bool) (Page, error) {
	lim := corpusLimits()
	lim.StrictHidden = strict
	return ExtractHTML(charset.Decode(p.body, "text/html"), p.base, lim)
}

// normalizeForMatch reduces Markdown, or an expected sentence, to the text
// a reader sees, so that presence does not depend on rendering choices:
// link and image targets are dropped, emphasis, code and escape markers
// removed, quote markers at line starts removed, and white space ignored
// altogether (an extractor may break or join lines at inline boundaries).
func normalizeForMatch(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	lineStart := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\n':
			lineStart = true
			i += n
			continue
		case lineStart && (r == '>' || r == ' ' || r == '\t'):
			i += n
			continue
		case r == ']' && strings.HasPrefix(s[i+1:], "("):
			i = skipLinkTarget(s, i+1)
			lineStart = false
			continue
		case r == '\\' && i+1 < len(s) && isMarkdownEscapable(s[i+1]):
			b.WriteByte(s[i+1])
			i += 2
			lineStart = false
			continue
		case r == '[' || r == ']' || r == '*' || r == '_' || r == '`' || r == '!' && strings.HasPrefix(s[i+1:], "["):
		case unicode.IsSpace(r):
		default:
			b.WriteRune(r)
		}
		lineStart = false
		i += n
	}
	return b.String()
}

// isMarkdownEscapable reports the ASCII punctuation a backslash escapes
// in CommonMark.
func isMarkdownEscapable(c byte) bool {
	return strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}

// skipLinkTarget returns the offset after the parenthesised link target
// that starts at s[open], allowing nested parentheses.
func skipLinkTarget(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i + 1
			}
		case '\n':
			return i
		}
	}
	return len(s)
}

func TestNormalizeForMatch(t *testing.T) {
	tests := []struct{ in, want string }{
		{"A [link](https://example.org/a_(b)) here.", "Alinkhere."},
		{"**Bold** and _em_ and `code`", "Boldandemandcode"},
		{"![alt text](https://x/y.png) after", "alttextafter"},
		{"> quoted\n> on two lines", "quotedontwolines"},
		{"an escaped \\* star", "anescaped*star"},
		{"日本語の 文章。", "日本語の文章。"},
	}
	for _, tt := range tests {
		if got := normalizeForMatch(tt.in); got != tt.want {
			t.Errorf("normalizeForMatch(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestREQ_FETCH_002_ExtractionCorpus runs every corpus page through Decode
// and ExtractHTML and checks that each "+" line is in the Markdown, each
// "-" line is not, and the title contains the one .meta names, under
// both readings of hidden content (read_collapsed true and false).
func TestREQ_FETCH_002_ExtractionCorpus(t *testing.T) {
	pages := loadCorpus(t)
	if len(pages) < 45 {
		t.Errorf("the corpus has %d pages, want at least 45", len(pages))
	}
	for _, pm := range corpusModes(pages) {
		p, strict := pm.page, pm.strict
		t.Run(pm.name, func(t *testing.T) {
			got, err := p.extractRead(strict)
			if err != nil {
				t.Fatalf("ExtractHTML: %v", err)
			}
			if got.Partial {
				t.Errorf("Partial is set for a page within the bounds")
			}
			md := normalizeForMatch(got.Markdown)
			var missing, kept []string
			for _, s := range p.present {
				if !strings.Contains(md, normalizeForMatch(s)) {
					missing = append(missing, s)
				}
			}
			for _, s := range p.absent {
				if strings.Contains(md, normalizeForMatch(s)) {
					kept = append(kept, s)
				}
			}
			if len(missing) > 0 {
				t.Errorf("%d of %d expected lines missing:\n  + %s", len(missing), len(p.present), strings.Join(missing, "\n  + "))
			}
			if len(kept) > 0 {
				t.Errorf("%d of %d excluded lines present:\n  - %s", len(kept), len(p.absent), strings.Join(kept, "\n  - "))
			}
			if p.title != "" && !strings.Contains(strings.Join(strings.Fields(got.Title), " "), p.title) {
				t.Errorf("title %q does not contain %q", got.Title, p.title)
			}
			if t.Failed() && testing.Verbose() {
				t.Logf("Markdown:\n%s", got.Markdown)
			}
		})
	}
}

// corpusMode is a corpus page under one reading of hidden content.
type corpusMode struct {
	name   string
	page   corpusPage
	strict bool
}

func corpusModes(pages []corpusPage) []corpusMode {
	var out []corpusMode
	for _, strict := range []bool{false, true} {
		for _, p := range pages {
			name := p.name
			if strict {
				name = "strict/" + name
			}
			out = append(out, corpusMode{name, p, strict})
		}
	}
	return out
}

// TestREQ_PAGE_002_ArticleBeforeChrome checks, on every page that has
// chrome ("-" lines), that the article comes first: its first expected
// line starts within the first fifth of the output (or its first 300
// characters, for short outputs), and any chrome the extractor kept comes
// after it.
func TestREQ_PAGE_002_ArticleBeforeChrome(t *testing.T) {
	for _, p := range loadCorpus(t) {
		if len(p.absent) == 0 {
			continue
		}
		t.Run(p.name, func(t *testing.T) {
			got, err := p.extract()
			if err != nil {
				t.Fatalf("ExtractHTML: %v", err)
			}
			md := []rune(normalizeForMatch(got.Markdown))
			text := string(md)
			first := normalizeForMatch(p.present[0])
			at := strings.Index(text, first)
			if at < 0 {
				t.Fatalf("the first expected line is missing: %q", p.present[0])
			}
			at = utf8.RuneCountInString(text[:at])
			if limit := max(len(md)/5, 300); at > limit {
				t.Errorf("the article starts at character %d of %d, after the first fifth", at, len(md))
			}
			for _, s := range p.absent {
				if i := strings.Index(text, normalizeForMatch(s)); i >= 0 && utf8.RuneCountInString(text[:i]) < at {
					t.Errorf("chrome comes before the article: %q", s)
				}
			}
		})
	}
}

// corpusWords splits text into lower-case word tokens: runs of letters and
// digits, with each Han, kana or Thai character a token of its own (those
// scripts do not separate words with spaces).
func corpusWords(text string) map[string]int {
	counts := make(map[string]int)
	var word strings.Builder
	flush := func() {
		if word.Len() > 0 {
			counts[word.String()]++
			word.Reset()
		}
	}
	for _, r := range text {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai):
			flush()
			counts[string(r)]++
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			word.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
	return counts
}

// markdownVisibleText is the visible text of Markdown for scoring: link and image
// targets dropped, so that URLs do not count as words.
func markdownVisibleText(md string) string {
	var b strings.Builder
	for i := 0; i < len(md); i++ {
		if md[i] == '\\' && i+1 < len(md) && isMarkdownEscapable(md[i+1]) {
			// an escaped character is text: "\](" ends no link
			b.WriteByte(md[i+1])
			i++
			continue
		}
		if md[i] == ']' && strings.HasPrefix(md[i+1:], "(") {
			b.WriteByte(' ')
			i = skipLinkTarget(md, i+1) - 1
			continue
		}
		b.WriteByte(md[i])
	}
	return b.String()
}

type corpusWordScore struct{ common, expected, extracted int }

func (s corpusWordScore) precision() float64 { return corpusRatio(s.common, s.extracted) }
func (s corpusWordScore) recall() float64    { return corpusRatio(s.common, s.expected) }
func (s corpusWordScore) f1() float64 {
	p, r := s.precision(), s.recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

func corpusRatio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func scoreCorpusWords(expected, extracted string) corpusWordScore {
	want, got := corpusWords(expected), corpusWords(extracted)
	var s corpusWordScore
	for w, n := range want {
		s.expected += n
		s.common += min(n, got[w])
	}
	for _, n := range got {
		s.extracted += n
	}
	return s
}

func TestScoreWords(t *testing.T) {
	// Without markdownVisibleText the link target counts: https, x and y.
	s := scoreCorpusWords("the cat sat on the mat", "the cat sat on a [mat](https://x/y)")
	if s.common != 5 || s.expected != 6 || s.extracted != 9 {
		t.Errorf("scoreCorpusWords = %+v, want 5 common of 6 expected and 9 extracted", s)
	}
	s = scoreCorpusWords("the cat sat on the mat", markdownVisibleText("The cat sat on a [mat](https://x/the/the)"))
	if s.common != 5 || s.expected != 6 || s.extracted != 6 {
		t.Errorf("scoreCorpusWords = %+v, want 5 common of 6 expected and 6 extracted", s)
	}
	if got := corpusWords("東京の図書館"); got["東"] != 1 || got["の"] != 1 || len(got) != 6 {
		t.Errorf("corpusWords split CJK into %v", got)
	}
}

// TestCorpusScore logs the word-level precision, recall and F1 of every
// page's Markdown against its main text, and fails when the F1 summed over
// the corpus falls below corpusF1Floor.
func TestCorpusScore(t *testing.T) {
	var total corpusWordScore
	var macroF1 float64
	pages := loadCorpus(t)
	lines := []string{fmt.Sprintf("%-34s %6s %6s %6s", "page", "P", "R", "F1")}
	for _, p := range pages {
		got, err := p.extract()
		var s corpusWordScore
		if err == nil {
			s = scoreCorpusWords(p.main, markdownVisibleText(got.Markdown))
		} else {
			s = scoreCorpusWords(p.main, "")
		}
		total.common += s.common
		total.expected += s.expected
		total.extracted += s.extracted
		macroF1 += s.f1()
		lines = append(lines, fmt.Sprintf("%-34s %6.3f %6.3f %6.3f", p.name, s.precision(), s.recall(), s.f1()))
	}
	macroF1 /= float64(len(pages))
	lines = append(lines, fmt.Sprintf("%-34s %6.3f %6.3f %6.3f (macro F1 %.3f)", "ALL (micro)", total.precision(), total.recall(), total.f1(), macroF1))
	t.Log("\n" + strings.Join(lines, "\n"))
	if total.f1() < corpusF1Floor {
		t.Errorf("corpus F1 %.3f is below the floor %.2f", total.f1(), corpusF1Floor)
	}
}

// BenchmarkExtractCorpus measures ExtractHTML over every corpus page (already
// decoded); the bytes are the decoded documents.
func BenchmarkExtractCorpus(b *testing.B) {
	pages := loadCorpus(b)
	docs := make([]string, len(pages))
	var size int64
	for i, p := range pages {
		docs[i] = charset.Decode(p.body, "text/html")
		size += int64(len(docs[i]))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for i, d := range docs {
			if _, err := ExtractHTML(d, pages[i].base, corpusLimits()); err != nil {
				b.Fatalf("%s: %v", pages[i].name, err)
			}
		}
	}
}

// resourceBound is the generous sanity limit on each resource test: the
// point is that a hostile document ends, not how fast.
const resourceBound = 2 * time.Minute

func extractBounded(t *testing.T, doc string) Page {
	t.Helper()
	type result struct {
		page Page
		err  error
	}
	done := make(chan result, 1)
	go func() {
		base, _ := url.Parse("https://example.org/resource")
		p, err := ExtractHTML(doc, base, corpusLimits())
		done <- result{p, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatalf("ExtractHTML: %v", r.err)
		}
		return r.page
	case <-time.After(resourceBound):
		t.Fatalf("ExtractHTML did not finish within %v", resourceBound)
	}
	return Page{}
}

func nestedDivs(levels int, inner string) string {
	return strings.Repeat("<div>", levels) + inner + strings.Repeat("</div>", levels)
}

func TestREQ_TEST_006_DepthBoundPageParsesInFull(t *testing.T) {
	// One article whose deepest text sits exactly LIM-F11 levels down
	// (the article itself is the first level, under the implied html and
	// body), with ordinary paragraphs before and after the nesting.
	para := strings.Repeat("An ordinary sentence of the article around the nesting. ", 6)
	doc := "<!DOCTYPE html><title>Deep</title><article><p>Before the nesting starts. " + para + "</p>" +
		nestedDivs(corpusLimits().MaxDepth-1, "The text at the deepest level is read.") +
		"<p>After the nesting ends. " + para + "</p></article>"
	page := extractBounded(t, doc)
	if page.Partial {
		t.Errorf("a page at exactly %d levels was read in part", corpusLimits().MaxDepth)
	}
	for _, s := range []string{"Before the nesting starts.", "The text at the deepest level is read.", "After the nesting ends."} {
		if !strings.Contains(page.Markdown, s) {
			t.Errorf("missing %q", s)
		}
	}
}

func TestREQ_TEST_006_OneLevelPastTheBoundIsPartial(t *testing.T) {
	doc := "<!DOCTYPE html><title>Deep</title><article><p>Before the nesting starts.</p>" +
		nestedDivs(corpusLimits().MaxDepth, "Below the bound.") + "</article>"
	page := extractBounded(t, doc)
	if !page.Partial {
		t.Errorf("a page at %d levels was read whole", corpusLimits().MaxDepth+1)
	}
	if !strings.Contains(page.Markdown, "Before the nesting starts.") {
		t.Errorf("the content before the cut is missing")
	}
}

func TestREQ_TEST_006_MillionLevelsAreReadInPart(t *testing.T) {
	para := strings.Repeat("An ordinary sentence of the article before the nesting. ", 6)
	doc := "<!DOCTYPE html><title>Very deep</title><article><p>Before the nesting starts. " + para + "</p>" +
		"<div><p>Text on the first level. " + para + "</p>" +
		strings.Repeat("<div>", 1_000_000) + "<p>Unreachable text.</p>"
	page := extractBounded(t, doc)
	if !page.Partial {
		t.Errorf("a page nestedDivs a million levels deep was read whole")
	}
	for _, s := range []string{"Before the nesting starts.", "Text on the first level."} {
		if !strings.Contains(page.Markdown, s) {
			t.Errorf("content before the cut is missing: %q", s)
		}
	}
	if strings.Contains(page.Markdown, "Unreachable text.") {
		t.Errorf("text below the depth bound was read")
	}
}

func TestREQ_TEST_006_TooManySiblingsAreReadInPart(t *testing.T) {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><title>Wide</title><article><h1>A very long list</h1><p>The first paragraph is kept.</p>")
	for i := range 150_000 {
		fmt.Fprintf(&b, "<p>Sibling paragraph number %d.</p>", i)
	}
	b.WriteString("<p>The last paragraph is beyond the node bound.</p></article>")
	page := extractBounded(t, b.String())
	if !page.Partial {
		t.Errorf("150000 sibling nodes were read whole")
	}
	if !strings.Contains(page.Markdown, "The first paragraph is kept.") {
		t.Errorf("content before the cut is missing")
	}
	if strings.Contains(page.Markdown, "The last paragraph is beyond the node bound.") {
		t.Errorf("content after the node bound was read")
	}
}

func TestREQ_TEST_006_UnclosedFormattingElementsStayBounded(t *testing.T) {
	// Thousands of distinct unclosed formatting elements: a parser that
	// reopens the active formatting elements in every paragraph does work
	// and output quadratic in the input.
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><title>Bold</title><p>Start of the document.</p>")
	for i := range 5000 {
		fmt.Fprintf(&b, "<b id=%d>", i)
	}
	for i := range 3000 {
		fmt.Fprintf(&b, "<p>Paragraph %d under many open formatting elements.</p>", i)
	}
	doc := b.String()
	page := extractBounded(t, doc)
	// Unclosed <b> elements nest, so the depth bound may cut the page
	// before the paragraphs; then the content before the cut is what
	// must come back.
	want := "Paragraph 0 under many open formatting elements."
	if page.Partial {
		want = "Start of the document."
	}
	if !strings.Contains(normalizeForMatch(page.Markdown), normalizeForMatch(want)) {
		t.Errorf("missing %q (Partial %v)", want, page.Partial)
	}
	if len(page.Markdown) > 2*len(doc) {
		t.Errorf("the Markdown has %d bytes for a document of %d: output is not bounded by the input", len(page.Markdown), len(doc))
	}
}

func TestREQ_TEST_006_FiveMiBOfText(t *testing.T) {
	sentence := "This sentence is repeated to fill five mebibytes of ordinary article text. "
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><title>Big</title><article><h1>A very long article</h1>")
	for b.Len() < 5<<20-4096 {
		b.WriteString("<p>")
		b.WriteString(strings.Repeat(sentence, 20))
		b.WriteString("</p>\n")
	}
	b.WriteString("<p>The closing paragraph of the article.</p></article>")
	page := extractBounded(t, b.String())
	if page.Partial {
		t.Errorf("a 5 MiB page of about %d paragraphs was read in part", (5<<20)/(20*len(sentence)))
	}
	if !strings.Contains(page.Markdown, "The closing paragraph of the article.") {
		t.Errorf("the end of the page is missing")
	}
}

func TestREQ_TEST_006_FiveMiBSingleTextNode(t *testing.T) {
	doc := "<!DOCTYPE html><title>Big</title><p>" + strings.Repeat("word ", (5<<20)/5) + "The end.</p>"
	page := extractBounded(t, doc)
	if !strings.HasSuffix(strings.TrimSpace(page.Markdown), "The end.") {
		t.Errorf("the end of a 5 MiB text node is missing")
	}
}
