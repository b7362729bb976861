// Package htmlx turns external text into what rypsok may return: the main
// content of an HTML page as Markdown, parsed under node and depth bounds,
// and the content-boundary cleaners that every external string passes
// (markup, entities, invisible characters, bounds).
//
// It must never fetch anything, never run a script, never decode entities
// twice, and never let a hostile document cost more than a bounded one.
package htmlx

// STUB FILE: the signatures below are the package's contract with search and
// fetch. The implementation replaces the bodies.

import (
	"errors"
	"net/url"
)

// Limits bound a parse (LIM-F10, LIM-F11).
type Limits struct {
	MaxNodes int
	MaxDepth int
}

// Page is what extraction yields: the title (decoded, not yet cleaned), the
// main content as Markdown, and whether a bound cut the document.
type Page struct {
	Title    string
	Markdown string
	Partial  bool
}

// ErrNothingExtracted: the document has no readable main content.
var ErrNothingExtracted = errors.New("htmlx: nothing could be extracted")

// Decode converts a body to UTF-8: the charset of contentType, else a BOM,
// else a <meta> declaration, else detection among legacy encodings; invalid
// bytes are replaced.
func Decode(body []byte, contentType string) string { panic("stub") }

// ExtractHTML returns the main content of an HTML document (already UTF-8)
// as Markdown. Links are made absolute against base and kept only when
// http(s). The bounds are enforced while parsing.
func ExtractHTML(doc string, base *url.URL, lim Limits) (Page, error) { panic("stub") }

// ExtractText passes a plain-text or Markdown body through (line ends
// normalised); the title is the first heading of Markdown, if any.
func ExtractText(body string, markdown bool) (Page, error) { panic("stub") }
