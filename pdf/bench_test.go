package pdf

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkExtract reads a 40-page two-column document with compressed
// content streams; the figure is PDF bytes a second.
func BenchmarkExtract(b *testing.B) {
	var pages []page
	for p := 0; p < 40; p++ {
		var left, right []string
		for l := 0; l < 45; l++ {
			left = append(left, fmt.Sprintf("Left column line %d of page %d, with words of ordinary length.", l, p))
			right = append(right, fmt.Sprintf("Right column line %d of page %d, hyphen-", l, p))
		}
		pages = append(pages, page{content: strings.ReplaceAll(textLines(40, left...)+textLines(320, right...), "/F1 12 Tf", "/F1 8 Tf"), filter: "Flate"})
	}
	bd := newBuilder()
	bd.simpleDoc("/WinAnsiEncoding", nil, pages...)
	data := bd.bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Extract(context.Background(), data, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}
