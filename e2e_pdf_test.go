package main

import (
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"rypsok/internal/pdftest"
	"rypsok/scripts/standin"
)

// web_fetch of a PDF through the binary, following next_start_char to the
// end: the parts put together are the document's text, page by page.
func TestREQ_FETCH_008_PDFEndToEndWithContinuation(t *testing.T) {
	var pages [][]string
	for p := 1; p <= 6; p++ {
		var lines []string
		for l := 1; l <= 15; l++ {
			lines = append(lines, fmt.Sprintf("Page %d, line %d of the annual report.", p, l))
		}
		pages = append(pages, lines)
	}
	doc := pdftest.Document(pdftest.Options{Title: "Annual Report", Compress: true}, pages...)
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "User-agent: *\nAllow: /\n") })
	mux.HandleFunc("/report.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		w.Write(doc)
	})
	mux.HandleFunc("/scan.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil // no type: the %PDF- signature decides
		w.Write(pdftest.Document(pdftest.Options{ImagesOnly: true}, []string{"x"}))
	})
	dir := t.TempDir()
	s, err := standin.Start("127.0.0.1:0", dir, []net.IP{net.ParseIP("127.0.0.1")}, mux)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	cfg := filepath.Join(dir, "rypsok.toml")
	writeFile(t, cfg, "config_version = 1\n[service]\nshutdown_ms = 1000\n[egress]\nallow = [\"127.0.0.1\"]\n")
	sess := rspServe(t, cfg, s.CertFile)

	var text strings.Builder
	start := 0.0
	for calls := 1; ; calls++ {
		res := sess.call("web_fetch", map[string]any{"url": s.URL + "/report.pdf", "max_chars": 500, "start_char": start})
		sc, _ := res["structuredContent"].(map[string]any)
		if res["isError"] != false || sc["outcome"] != "ok" || sc["title"] != "Annual Report" {
			t.Fatalf("call %d: %s", calls, asJSON(res))
		}
		text.WriteString(sc["content"].(string))
		if sc["truncated"] != true {
			break
		}
		start = sc["next_start_char"].(float64)
		if calls > 20 {
			t.Fatal("continuation does not end")
		}
	}
	got := text.String()
	for p := 1; p <= 6; p++ {
		for l := 1; l <= 15; l++ {
			line := fmt.Sprintf("Page %d, line %d of the annual report.", p, l)
			if strings.Count(got, line) != 1 {
				t.Fatalf("%q appears %d times in:\n%s", line, strings.Count(got, line), got)
			}
		}
	}
	res := sess.call("web_fetch", map[string]any{"url": s.URL + "/scan.pdf"})
	sc, _ := res["structuredContent"].(map[string]any)
	e, _ := sc["error"].(map[string]any)
	if res["isError"] != true || e["kind"] != "unsupported_content" || !strings.Contains(fmt.Sprint(e["message"]), "images of text only") {
		t.Fatalf("scanned PDF: %s", asJSON(res))
	}
}
