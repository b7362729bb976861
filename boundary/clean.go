package boundary

import (
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Cleaned is external text after the content boundary: the text, how many
// invisible or control characters were removed, and whether it was cut.
type Cleaned struct {
	Text      string
	Removed   int
	Truncated bool
}

// CleanMarkupText cleans raw provider text (JSON engines' titles and
// snippets): markup removed (the text inside script and style dropped),
// entities decoded once, invisible and control characters removed, the
// text put in Unicode normalization form C, white space collapsed, then cut
// to maxChars Unicode scalar values (REQ-CTX-004, REQ-SEC-015). Removed
// counts the invisible and control characters removed; collapsing white
// space is not removal. Truncated reports the cut. A negative maxChars
// counts as zero.
func CleanMarkupText(raw string, maxChars int) Cleaned {
	return cleanText(StripMarkup(raw), maxChars)
}

// CleanDecodedText cleans text a parser already decoded (a page title, a
// scraping driver's results): no markup removal, no entity decoding, so
// "std::vec::Vec<T> - Rust" stays as written; the rest as CleanMarkupText.
func CleanDecodedText(text string, maxChars int) Cleaned {
	return cleanText(text, maxChars)
}

// CleanContent removes invisible and control characters from extracted
// Markdown and returns the text and the count removed. It keeps the line
// structure and the white space as written: LF, tab and space are kept;
// CR LF, CR and NEL become LF; vertical tab and form feed are removed as
// controls. The text is put in Unicode normalization form C. Nothing is
// escaped: Markdown and closing markers pass through.
func CleanContent(markdown string) (string, int) {
	if contentIsClean(markdown) && norm.NFC.IsNormalString(markdown) {
		// Most pages need nothing: no copy of a page that can be megabytes.
		return markdown, 0
	}
	out, removed := removeInvisible(make([]byte, 0, len(markdown)), markdown, keepLines)
	out, removed = normalizeNFC(out, removed, keepLines)
	return string(out), removed
}

// contentIsClean reports, without allocating, whether removeInvisible in
// content mode would return s unchanged: every character is one it keeps as
// written (no control, format, joiner, selector, CR or NEL; valid UTF-8).
func contentIsClean(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7F || c == '\n' || c == '\t' {
			i++
			continue
		}
		if c < 0x80 {
			return false
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return false
		}
		switch classOf(r) {
		case charKeep:
		case charSpace:
		default:
			return false
		}
		i += size
	}
	return true
}

// maxNormalizePasses bounds the normalize-and-remove passes of normalizeNFC.
const maxNormalizePasses = 4

func cleanText(s string, maxChars int) Cleaned {
	out, removed := removeInvisible(make([]byte, 0, len(s)), s, collapseSpace)
	out, removed = normalizeNFC(out, removed, collapseSpace)
	text, truncated := boundChars(out, maxChars)
	return Cleaned{Text: text, Removed: removed, Truncated: truncated}
}

// normalizeNFC puts cleaned text in normalization form C. Composition and
// canonical reordering can give a joiner or a selector new neighbours, so
// the removal runs again until the text is stable. One extra pass is the
// most seen; maxNormalizePasses keeps the cost linear whatever the input.
func normalizeNFC(out []byte, removed int, mode spaceMode) ([]byte, int) {
	for pass := 0; pass < maxNormalizePasses && !norm.NFC.IsNormal(out); pass++ {
		nfc := string(norm.NFC.Bytes(out))
		var n int
		out, n = removeInvisible(out[:0], nfc, mode)
		removed += n
	}
	return out, removed
}

// boundChars cuts cleaned text to maxChars Unicode scalar values at a
// character boundary. A space or a joiner left dangling at the cut is
// dropped with the rest.
func boundChars(out []byte, maxChars int) (string, bool) {
	maxChars = max(maxChars, 0)
	if len(out) <= maxChars || utf8.RuneCount(out) <= maxChars {
		return string(out), false
	}
	end, n := 0, 0
	for n < maxChars {
		_, size := utf8.DecodeRune(out[end:])
		end += size
		n++
	}
	cut := out[:end]
	for len(cut) > 0 {
		r, size := utf8.DecodeLastRune(cut)
		if r != ' ' && r != zwj && r != zwnj {
			break
		}
		cut = cut[:len(cut)-size]
	}
	return string(cut), true
}
