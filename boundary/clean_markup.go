package boundary

import (
	"strings"

	"golang.org/x/net/html"
)

// StripMarkup returns the text of an HTML fragment, with its entities
// decoded exactly once: tags and comments removed, the contents of
// elements a browser does not render as text (script, style, noscript,
// iframe, noembed, noframes) dropped, and a space where a block element or
// a line break separates words.
//
// It is a small scanner that follows the HTML tokenizer's rules for what
// opens a tag, a comment or a raw-text element (a differential fuzz test
// holds it to x/net/html's tokenizer), so that a provider's 300-character
// snippet costs a few hundred nanoseconds, not a tokenizer with its buffers.
func StripMarkup(raw string) string {
	if strings.IndexByte(raw, '<') < 0 {
		return html.UnescapeString(raw)
	}
	var b strings.Builder
	b.Grow(len(raw))
	text := func(s string) {
		if strings.IndexByte(s, '&') < 0 {
			b.WriteString(s)
		} else {
			b.WriteString(html.UnescapeString(s))
		}
	}
	i := 0
	for i < len(raw) {
		lt := strings.IndexByte(raw[i:], '<')
		if lt < 0 {
			text(raw[i:])
			break
		}
		lt += i
		if lt+1 >= len(raw) {
			// A lone '<' at the end is text.
			text(raw[i:])
			break
		}
		c := raw[lt+1]
		switch {
		case isASCIILetter(c):
			text(raw[i:lt])
			name, end, ok := scanTag(raw, lt+1)
			if !ok {
				return b.String() // an unterminated tag swallows the rest
			}
			i = end
			if separatesWords([]byte(name)) {
				b.WriteByte(' ')
			}
			switch name {
			case "script", "style", "noscript", "iframe", "noembed", "noframes", "xmp":
				// Raw text up to the matching end tag: dropped, or (xmp)
				// kept as written.
				stop := rawTextEnd(raw, i, name)
				if name == "xmp" {
					b.WriteString(raw[i:stop])
				}
				i = stop
			case "plaintext":
				b.WriteString(raw[i:])
				return b.String()
			}
		case c == '/':
			text(raw[i:lt])
			if lt+2 >= len(raw) {
				b.WriteString("</") // "</" at the end is text
				return b.String()
			}
			switch d := raw[lt+2]; {
			case d == '>':
				i = lt + 3 // "</>" is dropped
			case isASCIILetter(d):
				name, end, ok := scanTag(raw, lt+2)
				if !ok {
					return b.String()
				}
				i = end
				if separatesWords([]byte(name)) {
					b.WriteByte(' ')
				}
			default:
				i = bogusCommentEnd(raw, lt+2)
			}
		case c == '!':
			text(raw[i:lt])
			if strings.HasPrefix(raw[lt:], "<!--") {
				i = commentEnd(raw, lt+4)
			} else {
				i = bogusCommentEnd(raw, lt+2)
			}
		case c == '?':
			text(raw[i:lt])
			i = bogusCommentEnd(raw, lt+1)
		default:
			// '<' not followed by a letter, '/', '!' or '?' is text.
			text(raw[i : lt+1])
			i = lt + 1
		}
	}
	return b.String()
}

// LooksLikeMarkup reports text that holds an HTML tag: "<" and a letter
// or "/", and a ">" after it.
func LooksLikeMarkup(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '<' && (isASCIILetter(s[i+1]) || s[i+1] == '/') {
			if strings.IndexByte(s[i:], '>') > 0 {
				return true
			}
		}
	}
	return false
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// scanTag reads a tag from its name at p to just past its '>', as the HTML
// tokenizer does: the name runs to a space, '/' or '>'; then attributes,
// each a key (an '=' that starts a key belongs to it) and an optional value
// that is quoted or runs to a space or '>'. It returns the lower-cased name;
// ok is false when the input ends inside the tag.
func scanTag(s string, p int) (name string, end int, ok bool) {
	start := p
	for p < len(s) && !isTagSpace(s[p]) && s[p] != '/' && s[p] != '>' {
		p++
	}
	name = strings.ToLower(s[start:p])
	p = skipTagSpace(s, p)
	for p < len(s) {
		if s[p] == '>' {
			return name, p + 1, true
		}
		// The key.
		keyStart := p
	key:
		for p < len(s) {
			switch c := s[p]; {
			case isTagSpace(c) || c == '/':
				p++
				break key
			case c == '=' && p == keyStart:
				p++
			case c == '=' || c == '>':
				break key
			default:
				p++
			}
		}
		// The value.
		q := skipTagSpace(s, p)
		if q < len(s) && s[q] == '=' {
			q = skipTagSpace(s, q+1)
			switch {
			case q >= len(s):
				p = q
			case s[q] == '>':
				p = q
			case s[q] == '"' || s[q] == '\'':
				c := strings.IndexByte(s[q+1:], s[q])
				if c < 0 {
					return name, len(s), false
				}
				p = q + c + 2
			default:
				for q < len(s) && !isTagSpace(s[q]) && s[q] != '>' {
					q++
				}
				if q < len(s) && isTagSpace(s[q]) {
					q++
				}
				p = q
			}
		}
		p = skipTagSpace(s, p)
	}
	return name, len(s), false
}

func skipTagSpace(s string, p int) int {
	for p < len(s) && isTagSpace(s[p]) {
		p++
	}
	return p
}

func isTagSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// rawTextEnd finds where the raw text of element name ends: at "</name"
// followed by a space, '/' or '>', case-insensitively, or at the end of s.
// "</name" with nothing after it is raw text still, as the tokenizer reads
// it (its end-tag check needs the character that follows the name).
func rawTextEnd(s string, p int, name string) int {
	for {
		q := strings.Index(s[p:], "</")
		if q < 0 {
			return len(s)
		}
		q += p
		e := q + 2 + len(name)
		if e < len(s) && strings.EqualFold(s[q+2:e], name) && (isTagSpace(s[e]) || s[e] == '/' || s[e] == '>') {
			return q
		}
		p = q + 2
	}
}

// commentEnd returns the index just past a comment's end ("-->", or the
// abrupt "<!-->" and "<!--->" forms), or the end of s.
func commentEnd(s string, p int) int {
	if strings.HasPrefix(s[p:], ">") {
		return p + 1
	}
	if strings.HasPrefix(s[p:], "->") {
		return p + 2
	}
	for q := p; q < len(s); q++ {
		if s[q] != '>' {
			continue
		}
		if q >= p+2 && s[q-2:q] == "--" {
			return q + 1
		}
		if q >= p+3 && s[q-3:q] == "--!" {
			return q + 1
		}
	}
	return len(s)
}

// bogusCommentEnd returns the index just past the next '>' or the end.
func bogusCommentEnd(s string, p int) int {
	if q := strings.IndexByte(s[p:], '>'); q >= 0 {
		return p + q + 1
	}
	return len(s)
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
