package fetch

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"rypsok/boundary"
	"rypsok/pdf"
	"rypsok/tool"
)

// pdfLimits are the fixed bounds of reading one PDF (LIM-F16 to LIM-F21 in
// docs/pdf.md); MaxChars is set per call.
func pdfLimits() pdf.Limits { return pdf.DefaultLimits() }

// pdfSlackChars is read beyond start_char + max_chars, so that what the
// cleaning removes cannot hide that more text follows.
const pdfSlackChars = 1024

// The reasons a PDF gives no page.
var (
	errPDFPassword   = fmt.Errorf("%w: the PDF needs a password", errNothing)
	errPDFImagesOnly = fmt.Errorf("%w: the PDF holds images of text only", errNothing)
)

// pdfError is the answer for the errors of processPDF that are not plain
// extraction failures, or nil.
func pdfError(err error) *tool.Error {
	switch {
	case errors.Is(err, errPDFPassword):
		return tool.PDFNeedsPassword()
	case errors.Is(err, errPDFImagesOnly):
		return tool.PDFImagesOnly()
	}
	return nil
}

// processPDF reads a PDF's text as Markdown and cleans it as HTML's is
// cleaned. It reads pages until the text holds wantChars characters and a
// little more, so that the caller's window and whether text continues are
// known without reading the rest; a bound reached after some text was read
// gives that text, marked partial.
func processPDF(ctx context.Context, body []byte, wantChars, titleMaxChars int) (page, error) {
	lim := pdfLimits()
	lim.MaxChars = wantChars + pdfSlackChars
	for {
		doc, err := pdf.Extract(ctx, body, lim)
		switch {
		case errors.Is(err, pdf.ErrNeedsPassword), errors.Is(err, pdf.ErrUnsupportedEncryption):
			return page{}, errPDFPassword
		case errors.Is(err, pdf.ErrNoText):
			return page{}, errPDFImagesOnly
		case err != nil && strings.TrimSpace(doc.Markdown) == "":
			return page{}, errNothing
		}
		content, removed := boundary.CleanContent(doc.Markdown)
		content = strings.TrimRight(strings.TrimLeft(content, "\n"), " \t\n")
		if strings.TrimSpace(content) == "" {
			return page{}, errNothing
		}
		if err == nil && !doc.Complete && lim.MaxChars > 0 && utf8.RuneCountInString(content) <= wantChars {
			// The cleaning removed enough to leave the window short of
			// its end while pages remain: read them all.
			lim.MaxChars = 0
			continue
		}
		title := boundary.CleanDecodedText(doc.Title, titleMaxChars)
		return page{
			title:           title.Text,
			content:         content,
			partial:         err != nil,
			titleTruncated:  title.Truncated,
			removed:         removed + title.Removed,
			instructionLike: boundary.InstructionLike(content) || boundary.InstructionLike(title.Text),
		}, nil
	}
}
