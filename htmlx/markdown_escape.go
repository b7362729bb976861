package htmlx

import (
	"bytes"
	"unicode/utf8"

	"rypsok/boundary"
)

// Text meets Markdown here. Every character of page text the writer puts
// in Markdown passes through appendText, which escapes what could make
// Markdown structure of it, so that only the elements the writer
// translates (a real <a>, <code>, <pre>, a heading, a list) make links,
// code and blocks, and nothing makes an image, an autolink, raw HTML or a
// reference definition. In CommonMark terms:
//
//   - "[" and "]": link text, images ("![") and reference definitions
//     ("[x]: target") all need an unescaped bracket, and a "]" in a real
//     link's text would end it early;
//   - "<": raw HTML and autolinks both open with it (">" alone makes
//     nothing inline; at a line start escapeAt handles it);
//   - "`": a backtick of the page could pair with a fence of a real code
//     span and set its content free as Markdown;
//   - "\": a backslash of the page could undo the escape after it;
//   - ";" closing "&name;", "&#123;" or "&#x1F;": an entity reference
//     decodes to a character, so "&lt;" would show "<" where the page
//     said "&lt;".
//
// "!" is escaped only where a real link follows it (closeLink); emphasis
// ("*", "_") changes how text looks, not where it leads, and is left
// alone so that prose stays readable. A code span unescapes its content
// (closeCode): a code span shows what it holds as written.
//
// CleanContent runs after the writer: it removes invisible characters and
// puts the text in normalization form C. The escaping reads past the
// characters it may remove (a "!", an entity name, a line start), and
// folds the two that form C makes ASCII punctuation of (foldToASCII).

// appendText appends the ASCII byte c of page text to dst, with a
// backslash before it when it could make Markdown structure.
func appendText(dst []byte, c byte) []byte {
	switch c {
	case '\\', '[', ']', '<', '`':
		dst = append(dst, '\\')
	case ';':
		if endsWithEntityName(dst) {
			dst = append(dst, '\\')
		}
	}
	return append(dst, c)
}

// maxEntityName is the longest name an entity reference can have in
// CommonMark (31 characters after the first letter), with room for
// "#x".
const maxEntityName = 34

// endsWithEntityName reports b ending in "&" and a name that a ";" after
// it would make an entity reference of: letters and digits, or "#" and
// digits, or "#x" and hexadecimal digits. It reads at most
// maxEntityName bytes back.
func endsWithEntityName(b []byte) bool {
	name := 0
	for steps := 0; len(b) > 0 && steps <= 2*maxEntityName; steps++ {
		c := b[len(b)-1]
		if c >= utf8.RuneSelf {
			// an invisible character between goes when CleanContent
			// removes it
			r, size := utf8.DecodeLastRune(b)
			if !boundary.MayRemove(r) {
				return false
			}
			b = b[:len(b)-size]
			continue
		}
		switch {
		case c == '&':
			return name > 0
		case c == '#' || isASCIILetter(c) || c >= '0' && c <= '9':
			if name++; name > maxEntityName {
				return false
			}
		default:
			return false
		}
		b = b[:len(b)-1]
	}
	return false
}

// escapeText returns page text s escaped as appendText escapes it, and
// its line start as escapeAt does, for a paragraph that reaches Markdown
// apart from the writer (structured data).
func escapeText(s string) string {
	return escapeLineStart(escapeInline(s))
}

// escapeInline returns page text s escaped as appendText escapes it, for
// text that reaches Markdown apart from the writer (a headline,
// structured data). Control characters are kept: CleanContent removes
// and counts them.
func escapeInline(s string) string {
	plain := true
	for i := 0; i < len(s) && plain; i++ {
		switch s[i] {
		case '\\', '[', ']', '<', '`', ';':
			plain = false
		}
	}
	if plain {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); i++ {
		b = appendText(b, s[i])
	}
	return string(b)
}

// unescapeText removes the escapes appendText added to b, in place: in
// text it wrote, every backslash escapes the byte after it.
func unescapeText(b []byte) []byte {
	out := b[:0]
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' && i+1 < len(b) {
			i++
		}
		out = append(out, b[i])
	}
	return out
}

// foldToASCII returns the ASCII byte that normalization form C makes of
// r, when it is one appendText escapes, else 0: U+1FEF GREEK VARIA is
// canonically a backtick and U+037E GREEK QUESTION MARK a semicolon, and
// CleanContent would turn them into those after the escaping.
func foldToASCII(r rune) byte {
	switch r {
	case '\u1fef':
		return '`'
	case '\u037e':
		return ';'
	}
	return 0
}

// invisibleLead returns the length of the runes at the start of b that
// CleanContent may remove (joiners, selectors, anything not kept as
// written), which the writer keeps for it to decide.
func invisibleLead(b []byte) int {
	n := 0
	for n < len(b) && b[n] >= utf8.RuneSelf {
		r, size := utf8.DecodeRune(b[n:])
		if !boundary.MayRemove(r) {
			break
		}
		n += size
	}
	return n
}

// lastVisibleByte returns the last byte of b before the runes at its end
// that CleanContent may remove, or 0.
func lastVisibleByte(b []byte) byte {
	for len(b) > 0 {
		if b[len(b)-1] < utf8.RuneSelf {
			return b[len(b)-1]
		}
		r, size := utf8.DecodeLastRune(b)
		if !boundary.MayRemove(r) {
			return b[len(b)-1]
		}
		b = b[:len(b)-size]
	}
	return 0
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// escapeLineStart puts a backslash before what would start a Markdown
// block: "# ", "- ", "+ ", "* ", ">", "1. ", "1) ", fences, rules.
func escapeLineStart(line string) string {
	if k := escapeAt([]byte(line)); k >= 0 {
		return line[:k] + "\\" + line[k:]
	}
	return line
}

// escapeAt returns where a backslash keeps line from starting a Markdown
// block, or -1.
func escapeAt(line []byte) int {
	// an invisible character before the start goes when CleanContent
	// removes it
	if skip := invisibleLead(line); skip > 0 {
		if k := escapeAt(line[skip:]); k >= 0 {
			return skip + k
		}
		return -1
	}
	if len(line) == 0 {
		return -1
	}
	switch c := line[0]; c {
	case '#':
		j := 0
		for j < len(line) && line[j] == '#' {
			j++
		}
		if j <= 6 && (j == len(line) || line[j] == ' ') {
			return 0
		}
	case '-', '+', '*':
		if len(line) == 1 || line[1] == ' ' || isRule(line) {
			return 0
		}
	case '>', '|':
		return 0
	case '=':
		if len(bytes.Trim(line, "= ")) == 0 {
			return 0
		}
	case '_':
		if isRule(line) {
			return 0
		}
	case '`', '~':
		if bytes.HasPrefix(line, []byte("```")) || bytes.HasPrefix(line, []byte("~~~")) {
			return 0
		}
	default:
		if c >= '0' && c <= '9' {
			j := 0
			for j < len(line) && j < 10 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j < 10 && j < len(line) && (line[j] == '.' || line[j] == ')') && (j+1 == len(line) || line[j+1] == ' ') {
				return j
			}
		}
	}
	return -1
}

// isRule reports a thematic break: three or more of one of - * _ with
// only spaces between.
func isRule(line []byte) bool {
	c := line[0]
	n := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case c:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}
