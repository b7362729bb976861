package main

import (
	"net/http"

	"rypsok/internal/pdftest"
)

// demoPDFPath is where the stand-in serves the demo's PDF.
const demoPDFPath = "/files/rust-overview.pdf"

// withPDF serves a small PDF report at demoPDFPath and everything else
// from h.
func withPDF(h http.Handler) http.Handler {
	doc := pdftest.Document(pdftest.Options{Title: "Rust in Brief", Compress: true},
		[]string{"Rust in Brief", "", "Rust is a general-purpose programming language.", "It emphasizes performance, type safety and concurrency.", "It enforces memory safety without a garbage collector."},
		[]string{"Ownership", "", "Every value has a single owner; borrowing lends it", "without copying, and the compiler checks every borrow."})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == demoPDFPath {
			w.Header().Set("Content-Type", "application/pdf")
			_, _ = w.Write(doc)
			return
		}
		h.ServeHTTP(w, r)
	})
}
