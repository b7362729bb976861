package robots

import (
	"encoding/hex"
	"strings"
)

// Both a rule's pattern and the path it is compared with are brought to one
// canonical form first (RFC 9309 §2.2.2):
//
//   - an escape of an unreserved character is decoded ("%7E" -> "~");
//   - any other escape keeps its encoding with upper-case hex ("%3c" -> "%3C");
//   - an octet outside printable ASCII (UTF-8 text, controls, space) and an
//     ASCII character that RFC 3986 allows neither as unreserved nor as
//     reserved ('"', '<', '>', '\', '^', '`', '{', '|', '}') is encoded;
//   - a "%" that does not start an escape is encoded as "%25";
//   - reserved characters are left as they are, so "/a%2Fb" and "/a/b"
//     differ (one row of the RFC's example table encodes ":" and "/" in a
//     query; encoding every reserved character would make an escaped "/"
//     equal a real one, which the RFC's prose keeps apart).
//
// In a path, "*" and "$" are plain characters and become "%2A" and "%24",
// so that a pattern matches them verbatim with "%2A" and "%24" (§2.2.3). In
// a pattern, "*" is the wildcard and a final "$" the end anchor; a "$"
// anywhere else is the character "%24".

const upperHex = "0123456789ABCDEF"

func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// isKept reports whether c is written as it is (apart from '%', '*' and '$',
// which the callers treat first).
func isKept(c byte) bool {
	if isUnreserved(c) {
		return true
	}
	switch c {
	case ':', '/', '?', '#', '[', ']', '@', '!', '&', '\'', '(', ')', '+', ',', ';', '=':
		return true
	}
	return false
}

// escapeAt reads an escape at s[i] == '%': its octet and whether there is one.
func escapeAt(s string, i int) (byte, bool) {
	if i+2 >= len(s) {
		return 0, false
	}
	var v [1]byte
	_, err := hex.Decode(v[:], []byte(s[i+1:i+3]))
	return v[0], err == nil
}

func appendEscaped(dst []byte, c byte) []byte {
	return append(dst, '%', upperHex[c>>4], upperHex[c&0xF])
}

// appendCanonical appends s in canonical form. With wildcard set, "*" is
// kept (runs of it collapsed to one) as the pattern's wildcard; otherwise
// it is a plain character. "$" is always a plain character here: the
// pattern's end anchor is removed before.
func appendCanonical(dst []byte, s string, wildcard bool) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%':
			if v, ok := escapeAt(s, i); ok {
				if isUnreserved(v) {
					dst = append(dst, v)
				} else {
					dst = appendEscaped(dst, v)
				}
				i += 2
			} else {
				dst = appendEscaped(dst, '%')
			}
		case c == '*' && wildcard:
			if len(dst) == 0 || dst[len(dst)-1] != '*' {
				dst = append(dst, '*')
			}
		case isKept(c):
			dst = append(dst, c)
		default:
			dst = appendEscaped(dst, c)
		}
	}
	return dst
}

// isCanonicalPath reports whether normalizePath would return s unchanged.
func isCanonicalPath(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' {
			v, ok := escapeAt(s, i)
			if !ok || isUnreserved(v) || s[i+1] >= 'a' || s[i+2] >= 'a' {
				return false
			}
			i += 2
			continue
		}
		if !isKept(c) {
			return false
		}
	}
	return true
}

// normalizePath brings the path and query of a URL to canonical form.
func normalizePath(s string) string {
	if isCanonicalPath(s) {
		return s
	}
	return string(appendCanonical(make([]byte, 0, len(s)+16), s, false))
}

// compileRule reads an allow or disallow value (not empty) as a rule.
func compileRule(allow bool, raw string) rule {
	ru := rule{allow: allow}
	if strings.HasSuffix(raw, "$") {
		ru.anchored = true
		raw = raw[:len(raw)-1]
	}
	ru.text = string(appendCanonical(make([]byte, 0, len(raw)+8), raw, true))
	ru.length = int32(len(ru.text))
	if ru.anchored {
		ru.length++
	}
	ru.prefix = int32(len(ru.text))
	if i := strings.IndexByte(ru.text, '*'); i >= 0 {
		ru.prefix = int32(i)
	}
	return ru
}

// match reports whether the rule's pattern matches the canonical path.
// Each literal after a wildcard is placed at its leftmost occurrence, which
// is never worse for the literals that follow, so the work is one forward
// scan of the path per literal and never backtracks.
func (ru *rule) match(path string) bool {
	lit := ru.text[:ru.prefix]
	if !strings.HasPrefix(path, lit) {
		return false
	}
	if int(ru.prefix) == len(ru.text) {
		return !ru.anchored || len(path) == len(lit)
	}
	pos := len(lit)
	rest := ru.text[ru.prefix+1:]
	for {
		lit, after, more := strings.Cut(rest, "*")
		if !more && ru.anchored {
			return len(path)-pos >= len(lit) && strings.HasSuffix(path, lit)
		}
		j := strings.Index(path[pos:], lit)
		if j < 0 {
			return false
		}
		pos += j + len(lit)
		if !more {
			return true
		}
		rest = after
	}
}

// rule is a compiled allow or disallow line, 32 bytes besides its text:
// a cached origin may hold tens of thousands.
type rule struct {
	text     string // canonical pattern without the end anchor; "*" is the wildcard
	length   int32  // octets of the canonical pattern, the end anchor included
	prefix   int32  // octets of text before the first "*" (all of it without one)
	anchored bool   // the pattern ended with "$"
	allow    bool
}
