package htmlx

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Small helpers on text that the parser, the extractor and the Markdown
// writer share.

// isPageLink reports an href that leads to another page: not empty, not
// a fragment of this one, not a script.
func isPageLink(href string) bool {
	if href == "" || href[0] == '#' {
		return false
	}
	if len(href) >= 11 && strings.EqualFold(href[:11], "javascript:") {
		return false
	}
	return true
}

// matchKey lower-cases text and keeps its letters and digits, for
// comparing a heading with the title.
func matchKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// validUTF8 replaces what is not UTF-8 in a document that was supposed
// to be.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

var titleSeparators = []string{" | ", " - ", " – ", " — ", " · ", " :: ", " • ", " / ", ": "}

func asciiEqualFold(b []byte, lower string) bool {
	if len(b) != len(lower) {
		return false
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}
