package htmlx

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// benchPagesDir holds the public article-extraction benchmark's pages,
// when the machine has them.
const benchPagesDir = "../../shared/bench/article-extraction/html"

func loadBenchPages(b *testing.B) []string {
	b.Helper()
	dir := benchPagesDir
	if d := os.Getenv("HTMLX_SCORE_DIR"); d != "" {
		dir = filepath.Join(d, "html")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.html.gz"))
	if len(files) == 0 {
		b.Skip("benchmark pages not present")
	}
	docs := make([]string, 0, len(files))
	for _, f := range files {
		docs = append(docs, string(readGzip(b, f)))
	}
	return docs
}

// BenchmarkExtractHTML measures extraction over the benchmark's real
// article pages; MB/s is HTML bytes per second.
func BenchmarkExtractHTML(b *testing.B) {
	docs := loadBenchPages(b)
	base, _ := url.Parse("https://example.org/a/b")
	total := 0
	for _, d := range docs {
		total += len(d)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		for _, d := range docs {
			_, _ = ExtractHTML(d, base, Limits{})
		}
	}
	reportCPUThroughput(b, cpu0, total)
}

// wcxbPagesDir holds the WCXB development split's pages (seven page
// types), when the machine has them.
const wcxbPagesDir = "../../shared/bench/wcxb-dev/html"

// BenchmarkExtractWCXB measures extraction over the WCXB development
// split's 1,497 pages of seven types (articles, forums, products,
// collections, listings, documentation, service pages), decoded once
// beforehand as fetch decodes them; MB/s is HTML bytes per second. The
// pages are read from HTMLX_WCXB_DIR/html, else from the split beside
// the module; the benchmark skips when they are absent.
func BenchmarkExtractWCXB(b *testing.B) {
	dir := wcxbPagesDir
	if d := os.Getenv("HTMLX_WCXB_DIR"); d != "" {
		dir = filepath.Join(d, "html")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.html.gz"))
	if len(files) == 0 {
		b.Skip("WCXB pages not present")
	}
	docs := make([]string, 0, len(files))
	total := 0
	for _, f := range files {
		d := Decode(readGzip(b, f), "text/html")
		docs = append(docs, d)
		total += len(d)
	}
	base, _ := url.Parse("https://example.org/a/b")
	b.SetBytes(int64(total))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		for _, d := range docs {
			_, _ = ExtractHTML(d, base, Limits{})
		}
	}
	reportCPUThroughput(b, cpu0, total)
}

// reportCPUThroughput adds MB per CPU second: on a shared machine the
// wall-clock MB/s understates what one core does.
func reportCPUThroughput(b *testing.B, cpu0 time.Duration, bytesPerOp int) {
	cpu := processCPU() - cpu0
	if cpu <= 0 {
		return
	}
	b.ReportMetric(float64(bytesPerOp)*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
}

// nestedDoc is a million nested <div>s around a little text.
func nestedDoc() string {
	const n = 1000000
	var sb strings.Builder
	sb.Grow(n*11 + 64)
	sb.WriteString("<html><body><p>Before the divs, some text to keep.</p>")
	for i := 0; i < n; i++ {
		sb.WriteString("<div>")
	}
	sb.WriteString("deep text")
	for i := 0; i < n; i++ {
		sb.WriteString("</div>")
	}
	sb.WriteString("</body></html>")
	return sb.String()
}

// flatDoc is a page of the same size as nestedDoc made of sibling
// paragraphs, below the node bound.
func flatDoc(size int) string {
	var sb strings.Builder
	sb.Grow(size + 64)
	sb.WriteString("<html><body>")
	para := "<p>" + strings.Repeat("Plain prose, sentence after sentence. ", 60) + "</p>\n"
	for sb.Len() < size {
		sb.WriteString(para)
	}
	sb.WriteString("</body></html>")
	return sb.String()
}

// BenchmarkExtractHTMLNested measures a million nested <div>s: the depth
// bound cuts the parse, so it costs no more than a flat page of the same
// size (compare BenchmarkExtractHTMLFlat).
func BenchmarkExtractHTMLNested(b *testing.B) {
	doc := nestedDoc()
	b.SetBytes(int64(len(doc)))
	b.ResetTimer()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		p, _ := ExtractHTML(doc, nil, Limits{})
		if !p.Partial {
			b.Fatal("not partial")
		}
	}
	reportCPUThroughput(b, cpu0, len(doc))
}

// BenchmarkExtractHTMLFlat measures a flat page as large as the nested
// one.
func BenchmarkExtractHTMLFlat(b *testing.B) {
	doc := flatDoc(len(nestedDoc()))
	b.SetBytes(int64(len(doc)))
	b.ResetTimer()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		_, _ = ExtractHTML(doc, nil, Limits{})
	}
	reportCPUThroughput(b, cpu0, len(doc))
}
