package secrets

import (
	"cmp"
	"encoding/hex"
	"slices"
	"strings"
	"unicode/utf8"
)

// The check reads a normalised copy of the text: invisible characters are
// removed, so that a zero-width space inside a key does not hide it, and
// percent escapes of printable ASCII are decoded, so that Bearer%20…,
// password%3D… and a key with %2F inside are read as written. Every byte of
// the copy remembers which bytes of the original it came from, so findings
// are reported at their place in the original text.

// textMap maps the bytes of a normalised copy back to the original. The
// copy is cut into segments; inside a segment, copy byte q came from
// original byte q+delta. A decoded escape is a segment of one byte that
// came from three.
type textMap struct {
	segs []segment
}

type segment struct {
	start  int // first byte of the segment in the copy
	delta  int // original offset minus copy offset
	escape bool
}

// at returns the segment that holds copy byte q.
func (m *textMap) at(q int) segment {
	k, _ := slices.BinarySearchFunc(m.segs, q, func(sg segment, q int) int { return cmp.Compare(sg.start, q+1) })
	return m.segs[k-1]
}

// origStart returns the original byte offset where the copy's byte q came
// from; m == nil means the copy is the original.
func (m *textMap) origStart(q int) int {
	if m == nil {
		return q
	}
	return q + m.at(q).delta
}

// origEnd returns the original byte offset just after the source of the
// copy's bytes [.., e), e > 0.
func (m *textMap) origEnd(e int) int {
	if m == nil {
		return e
	}
	sg := m.at(e - 1)
	if sg.escape {
		return e - 1 + sg.delta + 3
	}
	return e + sg.delta
}

// cut starts a segment at copy offset q whose bytes come from original
// offset o onwards.
func (m *textMap) cut(q, o int, escape bool) {
	if n := len(m.segs); n > 0 && m.segs[n-1].start == q {
		m.segs[n-1] = segment{start: q, delta: o - q, escape: escape}
		return
	}
	m.segs = append(m.segs, segment{start: q, delta: o - q, escape: escape})
}

// isInvisible reports whether r is a character that renders as nothing and
// carries nothing a credential could use: format controls and default
// ignorable code points (zero-width space and joiners, soft hyphen, word
// joiner and invisible operators, byte order mark, bidirectional marks,
// embeddings, overrides and isolates, variation selectors, Hangul fillers,
// tag characters).
func isInvisible(r rune) bool {
	switch {
	case r < 0xAD:
		return false
	case r == 0x00AD, r == 0x034F, r == 0x061C,
		r == 0x115F, r == 0x1160, r == 0x17B4, r == 0x17B5,
		r >= 0x180B && r <= 0x180F,
		r >= 0x200B && r <= 0x200F,
		r >= 0x202A && r <= 0x202E,
		r >= 0x2060 && r <= 0x206F,
		r == 0x3164,
		r >= 0xFE00 && r <= 0xFE0F,
		r == 0xFEFF, r == 0xFFA0,
		r >= 0x1BCA0 && r <= 0x1BCA3,
		r >= 0x1D173 && r <= 0x1D17A,
		r >= 0xE0000 && r <= 0xE0FFF:
		return true
	}
	return false
}

// percentAt returns the printable ASCII byte that the escape %XX at text[i]
// encodes, if there is one.
func percentAt(text string, i int) (byte, bool) {
	if i+2 >= len(text) || text[i] != '%' {
		return 0, false
	}
	var v [1]byte
	if _, err := hex.Decode(v[:], []byte(text[i+1:i+3])); err != nil {
		return 0, false
	}
	b := v[0]
	return b, b >= 0x20 && b <= 0x7E
}

// nextChange returns the first offset at or after i where the copy differs
// from text (a decodable escape or an invisible character), or len(text).
func nextChange(text string, i int) int {
	for i < len(text) {
		c := text[i]
		switch {
		case c == '%':
			if _, ok := percentAt(text, i); ok {
				return i
			}
			i++
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRuneInString(text[i:])
			if isInvisible(r) {
				return i
			}
			i += size
		}
	}
	return i
}

// plainASCII reports whether text is ASCII without '%', which normalises to
// itself. It reads eight bytes at a time.
func plainASCII(text string) bool {
	if strings.IndexByte(text, '%') >= 0 {
		return false
	}
	i := 0
	for ; i+8 <= len(text); i += 8 {
		w := uint64(text[i]) | uint64(text[i+1])<<8 | uint64(text[i+2])<<16 | uint64(text[i+3])<<24 |
			uint64(text[i+4])<<32 | uint64(text[i+5])<<40 | uint64(text[i+6])<<48 | uint64(text[i+7])<<56
		if w&0x8080808080808080 != 0 {
			return false
		}
	}
	for ; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// normalize returns the copy the check reads and its map to text; the map
// is nil when the copy is text itself (the usual case), so that ordinary
// text costs one pass and no allocation.
func normalize(text string) (string, *textMap) {
	if plainASCII(text) {
		return text, nil
	}
	i := nextChange(text, 0)
	if i == len(text) {
		return text, nil
	}
	var out strings.Builder
	out.Grow(len(text))
	m := &textMap{segs: []segment{{start: 0}}}
	at := 0 // text[at:i] is copied unchanged before the change at i
	for {
		out.WriteString(text[at:i])
		if i == len(text) {
			break
		}
		if b, ok := percentAt(text, i); ok {
			m.cut(out.Len(), i, true)
			out.WriteByte(b)
			i += 3
		} else {
			_, size := utf8.DecodeRuneInString(text[i:])
			i += size
		}
		m.cut(out.Len(), i, false)
		at = i
		i = nextChange(text, i)
	}
	return out.String(), m
}
