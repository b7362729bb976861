package pdftest

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"rypsok/pdf"
)

func TestDocumentsReadAsIntended(t *testing.T) {
	doc, err := pdf.Extract(context.Background(), Document(Options{Title: "T (1)", Compress: true}, []string{"first page"}, []string{"second page"}), pdf.Limits{})
	if err != nil || doc.Title != "T (1)" || doc.Pages != 2 || !bytes.Contains([]byte(doc.Markdown), []byte("second page")) {
		t.Fatalf("%+v %v", doc, err)
	}
	if _, err := pdf.Extract(context.Background(), Document(Options{Encrypt: true}, []string{"x"}), pdf.Limits{}); !errors.Is(err, pdf.ErrNeedsPassword) {
		t.Errorf("encrypted: %v", err)
	}
	if _, err := pdf.Extract(context.Background(), Document(Options{ImagesOnly: true}, []string{"x"}), pdf.Limits{}); !errors.Is(err, pdf.ErrNoText) {
		t.Errorf("images only: %v", err)
	}
}
