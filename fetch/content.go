package fetch

import (
	"bytes"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"strings"
	"unicode/utf8"

	"rypsok/boundary"
	"rypsok/htmlx"
	"rypsok/htmlx/charset"
)

// mediaKind is how a body is read.
type mediaKind uint8

const (
	kindUnsupported mediaKind = iota
	kindHTML
	kindText
	kindMarkdown
	kindPDF
)

// String is the word of the fetched log event.
func (k mediaKind) String() string {
	switch k {
	case kindHTML:
		return "html"
	case kindText:
		return "text"
	case kindMarkdown:
		return "markdown"
	case kindPDF:
		return "pdf"
	}
	return "unsupported"
}

// octetStream is the media type reported for a body without a
// Content-Type that is neither HTML nor text.
const octetStream = "application/octet-stream"

// sniffBytes is how much of a body without a Content-Type is looked at for
// the signs of HTML.
const sniffBytes = 1024

// mediaTypeOf reads the Content-Type header (REQ-FETCH-008, REQ-PAGE-005):
// the kind and the bare media type, lower-cased. Only a missing or empty
// header lets the body decide, between HTML and text, and a missing or
// octet-stream header with a body starting %PDF- is a PDF (docs/pdf.md).
func mediaTypeOf(contentType string, body []byte) (mediaKind, string) {
	mt := bareMediaType(contentType)
	if k, ok := pdfKind(mt, body); ok {
		return k, mt
	}
	if mt == "" {
		return sniff(body)
	}
	switch mt {
	case "text/html", "application/xhtml+xml":
		return kindHTML, mt
	case "text/plain":
		return kindText, mt
	case "text/markdown", "text/x-markdown":
		return kindMarkdown, mt
	}
	return kindUnsupported, mt
}

// bareMediaType is the type/subtype of a Content-Type, lower-cased, without
// parameters; a header with malformed parameters still names its type.
func bareMediaType(contentType string) string {
	if mt, _, err := mime.ParseMediaType(contentType); err == nil {
		return mt
	}
	mt, _, _ := strings.Cut(contentType, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// sniff tells HTML from text for a body without a Content-Type: an HTML
// start near the beginning is HTML, valid UTF-8 without NUL is text, and
// anything else is not read.
func sniff(body []byte) (mediaKind, string) {
	head := body[:min(len(body), sniffBytes)]
	head = bytes.ToLower(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")))
	for _, sign := range []string{"<!doctype html", "<html", "<head", "<body"} {
		if bytes.Contains(head, []byte(sign)) {
			return kindHTML, "text/html"
		}
	}
	if utf8.Valid(body) && bytes.IndexByte(body, 0) < 0 {
		return kindText, "text/plain"
	}
	return kindUnsupported, octetStream
}

// parseLimits are LIM-F10 and LIM-F11.
var parseLimits = htmlx.Limits{MaxNodes: 100000, MaxDepth: 256}

// page is a document after extraction and cleaning: what is left to do is
// the cut to max_chars.
type page struct {
	title           string
	content         string
	partial         bool
	titleTruncated  bool
	removed         int // invisible and control characters removed from title and content
	instructionLike bool
}

// errNothing: no readable content remains.
var errNothing = errors.New("fetch: nothing could be extracted")

// errShownByScripts: no readable content, from a page that shows its text
// only through scripts (htmlx.ErrShownByScripts).
var errShownByScripts = fmt.Errorf("%w: the page shows its text only through scripts", errNothing)

// processFunc turns a body into a page; the service runs it off the request
// goroutine under the parsing limit.
type processFunc func(body []byte, contentType string, kind mediaKind, base *url.URL, titleMaxChars int, strictHidden bool) (page, error)

// process decodes the body (REQ-PAGE-007), extracts the main content under
// the node and depth bounds (reading hidden content strictly when
// strictHidden) and cleans title and content.
func process(body []byte, contentType string, kind mediaKind, base *url.URL, titleMaxChars int, strictHidden bool) (page, error) {
	text := charset.Decode(body, contentType)
	var pg htmlx.Page
	var err error
	switch kind {
	case kindHTML:
		lim := parseLimits
		lim.StrictHidden = strictHidden
		pg, err = htmlx.ExtractHTML(text, base, lim)
	case kindText:
		pg, err = htmlx.ExtractText(text, false)
	case kindMarkdown:
		pg, err = htmlx.ExtractText(text, true)
	default:
		return page{}, errNothing
	}
	if errors.Is(err, htmlx.ErrShownByScripts) {
		return page{}, errShownByScripts
	}
	if err != nil {
		return page{}, errNothing
	}
	content, removed := boundary.CleanContent(pg.Markdown)
	// Blank lines before and white space after the text carry nothing.
	content = strings.TrimRight(strings.TrimLeft(content, "\n"), " \t\n")
	if strings.TrimSpace(content) == "" {
		return page{}, errNothing
	}
	title := boundary.CleanDecodedText(pg.Title, titleMaxChars)
	return page{
		title:           title.Text,
		content:         content,
		partial:         pg.Partial,
		titleTruncated:  title.Truncated,
		removed:         pg.Removed + removed + title.Removed,
		instructionLike: boundary.InstructionLike(content) || boundary.InstructionLike(title.Text),
	}, nil
}

// window cuts text to maxChars Unicode scalar values from startChar
// (REQ-FETCH-003, REQ-FETCH-005): the part, the length of text in
// characters, and whether text continues after the part. startChar must be
// below the length.
func window(text string, startChar, maxChars int) (part string, total int, more bool) {
	total = utf8.RuneCountInString(text)
	if startChar >= total {
		return "", total, false
	}
	from, to := len(text), len(text)
	n := 0
	for i := range text {
		if n == startChar {
			from = i
		}
		if n == startChar+maxChars {
			to = i
			break
		}
		n++
	}
	return text[from:to], total, to < len(text)
}

// pdfKind recognises a PDF (docs/pdf.md): the types application/pdf and
// application/x-pdf, or application/octet-stream or no type at all with a
// body that starts with %PDF-.
func pdfKind(mediaType string, body []byte) (mediaKind, bool) {
	switch mediaType {
	case "application/pdf", "application/x-pdf":
		return kindPDF, true
	case "", octetStream:
		if bytes.HasPrefix(body, []byte("%PDF-")) {
			return kindPDF, true
		}
	}
	return kindUnsupported, false
}
