package htmlx

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rypsok/htmlx/charset"
)

// benchPagesDir holds the public article-extraction benchmark's pages,
// when the machine has them.
const benchPagesDir = "../../shared/bench/article-extraction/html"

// loadPages reads the gzipped pages of dir, or of $env/html when env is
// set, and skips the benchmark when there are none. decode reads each as
// fetch does (the article benchmark's pages are UTF-8 already).
func loadPages(b *testing.B, dir, env string, decode bool) []string {
	b.Helper()
	if d := os.Getenv(env); d != "" {
		dir = filepath.Join(d, "html")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.html.gz"))
	if len(files) == 0 {
		b.Skip("benchmark pages not present in " + dir)
	}
	docs := make([]string, 0, len(files))
	for _, f := range files {
		raw := readGzip(b, f)
		if decode {
			docs = append(docs, charset.Decode(raw, "text/html"))
		} else {
			docs = append(docs, string(raw))
		}
	}
	return docs
}

// benchExtract measures ExtractHTML over docs; MB/s is HTML bytes per
// second.
func benchExtract(b *testing.B, docs []string) {
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

// BenchmarkExtractHTML measures extraction over the article benchmark's
// real article pages (HTMLX_SCORE_DIR/html, else beside the module).
func BenchmarkExtractHTML(b *testing.B) {
	benchExtract(b, loadPages(b, benchPagesDir, "HTMLX_SCORE_DIR", false))
}

// wcxbPagesDir holds the WCXB development split's pages (seven page
// types), when the machine has them.
const wcxbPagesDir = "../../shared/bench/wcxb-dev/html"

// BenchmarkExtractWCXB measures extraction over the WCXB development
// split's 1,497 pages of seven types (articles, forums, products,
// collections, listings, documentation, service pages), decoded once
// beforehand as fetch decodes them. The pages are read from
// HTMLX_WCXB_DIR/html, else from the split beside the module.
func BenchmarkExtractWCXB(b *testing.B) {
	benchExtract(b, loadPages(b, wcxbPagesDir, "HTMLX_WCXB_DIR", true))
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
