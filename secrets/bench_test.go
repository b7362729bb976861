package secrets

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// BenchmarkScan measures the check over the ordinary queries of
// testdata/negatives.txt, one Scan per query, as search and fetch call it.
func BenchmarkScan(b *testing.B) {
	var queries []string
	size := 0
	for _, c := range readCorpus(b, "negatives.txt", false) {
		queries = append(queries, c.text)
		size += len(c.text)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, q := range queries {
			Scan(q)
		}
	}
}

// BenchmarkScanWithFindings measures the corpus of synthetic credentials,
// where every query has a finding.
func BenchmarkScanWithFindings(b *testing.B) {
	var texts []string
	size := 0
	for _, c := range readCorpus(b, "positives.txt", true) {
		texts = append(texts, c.text)
		size += len(c.text)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range texts {
			Scan(t)
		}
	}
}

// BenchmarkScanArticles measures long ordinary prose: the 181 article
// bodies of the public extraction benchmark in ../shared/bench, when it is
// present.
func BenchmarkScanArticles(b *testing.B) {
	f, err := os.Open("../../shared/bench/article-extraction/ground-truth.json.gz")
	if err != nil {
		b.Skip("the shared benchmark data is not present")
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	var pages map[string]struct {
		ArticleBody string `json:"articleBody"`
	}
	if err := json.NewDecoder(zr).Decode(&pages); err != nil {
		b.Fatal(err)
	}
	var sb strings.Builder
	for _, p := range pages {
		sb.WriteString(p.ArticleBody)
		sb.WriteByte('\n')
	}
	text := sb.String()
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		Scan(text)
	}
}
