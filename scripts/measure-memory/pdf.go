package main

import (
	"fmt"
	"net/http"

	"rypsok/internal/pdftest"
)

// largePDF serves a PDF and a robots.txt allowing it. The PDF is about
// size bytes of uncompressed text pages, each page's content 4 MiB at most
// (below the bound on one stream, LIM-F17); or, dense, one compressed page
// that decodes to 7 MiB of text.
func largePDF(size int, dense bool) http.Handler {
	line := "This line is one of many that make the document large enough to measure reading it."
	total, perPage := size-4096, 4<<20
	if dense {
		total, perPage = 7<<20, 7<<20
	}
	var pages [][]string
	var lines []string
	for n, onPage := 0, 0; n < total; n, onPage = n+len(line)+10, onPage+len(line)+10 {
		if onPage > perPage {
			pages, lines, onPage = append(pages, lines), nil, 0
		}
		lines = append(lines, line)
	}
	doc := pdftest.Document(pdftest.Options{Title: "A large PDF", Compress: dense}, append(pages, lines)...)
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "User-agent: *\nAllow: /\n") })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		_, _ = w.Write(doc)
	})
	return mux
}
