package pdf_test

import (
	"context"
	"errors"
	"fmt"

	"rypsok/internal/pdftest"
	"rypsok/pdf"
)

func ExampleExtract() {
	data := pdftest.Document(pdftest.Options{Title: "Quarterly Report", Compress: true},
		[]string{"Revenue grew in every region.", "Costs fell."})
	doc, err := pdf.Extract(context.Background(), data, pdf.Limits{})
	if errors.Is(err, pdf.ErrNeedsPassword) || errors.Is(err, pdf.ErrNoText) {
		fmt.Println("not readable:", err)
		return
	}
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(doc.Title)
	fmt.Print(doc.Markdown)
	fmt.Println(doc.Read, "of", doc.Pages, "pages read")
	// Output:
	// Quarterly Report
	// Revenue grew in every region.
	// Costs fell.
	// 1 of 1 pages read
}
