package htmlx

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
)

// stripMarkup returns the text of an HTML fragment, with its entities
// decoded exactly once: tags and comments removed, the contents of
// elements a browser does not render as text (script, style, noscript,
// iframe, noembed, noframes) dropped, and a space where a block element or
// a line break separates words.
func stripMarkup(raw string) string {
	if strings.IndexByte(raw, '<') < 0 {
		return html.UnescapeString(raw)
	}
	var b strings.Builder
	b.Grow(len(raw))
	z := html.NewTokenizer(strings.NewReader(raw))
	skipText := false // the coming text token is the content of a raw element
	literal := false  // the coming text token is RAWTEXT shown as written
	for {
		switch z.Next() {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			if skipText {
				continue
			}
			text := z.Raw()
			if literal || bytes.IndexByte(text, '&') < 0 {
				b.Write(text)
				continue
			}
			b.WriteString(html.UnescapeString(string(text)))
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			skipText, literal = false, false
			switch string(name) {
			case "script", "style", "noscript", "iframe", "noembed", "noframes":
				skipText = true
			case "xmp", "plaintext":
				literal = true
			}
			if separatesWords(name) {
				b.WriteByte(' ')
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			skipText, literal = false, false
			if separatesWords(name) {
				b.WriteByte(' ')
			}
		default: // comments, doctypes
			skipText, literal = false, false
		}
	}
}

// separatesWords reports the elements whose boundary a browser renders as
// a break between words.
func separatesWords(name []byte) bool {
	switch string(name) {
	case "br", "p", "div", "li", "ul", "ol", "dl", "dt", "dd", "tr", "td", "th",
		"table", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "blockquote", "pre",
		"section", "article", "header", "footer", "nav", "aside", "figure",
		"figcaption", "address", "main":
		return true
	}
	return false
}
