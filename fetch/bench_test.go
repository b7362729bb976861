package fetch

import (
	"strings"
	"testing"
)

// BenchmarkFetchLoopback reads a 100 KiB HTML page from a loopback TLS
// server end to end: robots.txt (cached), request, extraction, cleaning.
func BenchmarkFetchLoopback(b *testing.B) {
	var page strings.Builder
	page.WriteString("<html><head><title>Benchmark page</title></head><body><nav><a href=\"/\">Home</a></nav><article><h1>Benchmark</h1>")
	for page.Len() < 100<<10 {
		page.WriteString("<p>Ownership replaces a garbage collector with rules the compiler enforces, so memory is freed exactly once. <a href=\"/more\">More</a>.</p>\n")
	}
	page.WriteString("</article><footer>Footer</footer></body></html>")
	body := page.String()
	st := newSite(b, html(body))
	e := newEnv(b, nil, st)
	u := st.url("a.example.com", "/page")
	e.mustFetch(b, u, 3000, 0)
	b.SetBytes(int64(len(body)))
	b.ResetTimer()
	for b.Loop() {
		if _, terr := e.fetch(b, u, 3000, 0); terr != nil {
			b.Fatal(terr)
		}
	}
}
