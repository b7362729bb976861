package boundary

import (
	"unicode"
	"unicode/utf8"
)

// The invisible-character rules of REQ-SEC-015, decided per rune:
//
//   - removed: every format character (Unicode general category Cf, read
//     from unicode.Cf, so a newer Unicode in the Go toolchain is followed
//     without a change here: soft hyphen, Arabic number signs and the other
//     prepended concatenation marks, U+061C, Mongolian vowel separator,
//     zero-width space, bidi marks, embeddings, overrides and isolates, word
//     joiner and invisible operators, BOM, interlinear annotation, Egyptian
//     hieroglyph, shorthand and musical format controls, tag characters);
//     every control character (category Cc, unicode.Cc) except the white
//     space a mode keeps; and the invisible characters of other categories:
//     U+2065, the unassigned default-ignorable code points (U+FFF0–U+FFF8,
//     U+E0000–U+E0FFF outside the variation selectors), the combining
//     grapheme joiner U+034F, the Khmer inherent vowels U+17B4/U+17B5, the
//     Hangul fillers U+3164 and U+FFA0, and the noncharacters (U+FDD0–
//     U+FDEF, U+xFFFE, U+xFFFF);
//   - kept although Cf, where they carry orthography: the joiners ZWNJ and
//     ZWJ (see keepZWNJ and keepZWJ), the one exception the book makes;
//   - kept: private-use characters (they are drawn by whatever font the
//     reader has), unassigned code points outside the default-ignorable
//     ranges (newer Unicode than Go's tables must survive), and U+FFFD, the
//     visible replacement for invalid UTF-8;
//   - variation selectors (unicode.Variation_Selector: U+FE00–U+FE0F,
//     U+E0100–U+E01EF, Mongolian U+180B–U+180D, U+180F) are kept only where
//     they select a glyph: one, directly after a base character (an
//     ideographic one for U+E0100–U+E01EF, a Mongolian one for the Mongolian
//     selectors). A run of selectors carries hidden data, never a glyph, and
//     is removed.
//
// The rules are compiled at start-up into classes, a two-level table over
// every code point, so classOf costs two loads whatever the script.

const (
	zwnj = '\u200C'
	zwj  = '\u200D'
)

// charClass is what the cleaner does with one rune.
type charClass uint8

const (
	charKeep      charClass = iota
	charRemove              // invisible or control: removed and counted
	charSpace               // white space: collapsed or kept by the mode
	charJoiner              // ZWNJ or ZWJ: decided by its neighbours
	charSelector            // variation selector: decided by its base
	charLineBreak           // CR, NEL: a line end (content mode)
)

// classOf returns the class of r. White space and line ends are reported
// as such; the mode decides what they become. A value that is not a code
// point is removed.
func classOf(r rune) charClass { return classes.of(r) }

// MayRemove reports whether the content cleaner can leave r out: an
// invisible character or a control, a joiner or a variation selector
// (which its neighbours decide). A writer that escapes text for a later
// reader treats such a rune as already gone.
func MayRemove(r rune) bool {
	switch classOf(r) {
	case charRemove, charJoiner, charSelector:
		return true
	}
	return false
}

// classes is the table classOf reads, built from the toolchain's Unicode
// tables.
var classes = newClassTable(unicode.Cf)

const (
	classBlockBits = 8
	classBlockSize = 1 << classBlockBits
	classBlocks    = (unicode.MaxRune + 1) / classBlockSize
)

// classTable holds the class of every code point in blocks of 256: index
// gives the block of a code point's upper bits, and equal blocks are
// stored once (most of the code space is one all-keep block).
type classTable struct {
	index  [classBlocks]uint16
	blocks []charClass // len(blocks) is a multiple of classBlockSize
}

func (t *classTable) of(r rune) charClass {
	if uint32(r) > unicode.MaxRune {
		return charRemove
	}
	return t.blocks[int(t.index[r>>classBlockBits])<<classBlockBits|int(r&(classBlockSize-1))]
}

// newClassTable compiles the rules with format as the format characters
// (unicode.Cf; a test passes another table to show nothing else decides).
// Later rules override earlier ones: white space, selectors, joiners and
// line ends are told apart from the removed controls and formats.
func newClassTable(format *unicode.RangeTable) classTable {
	var b classBuilder
	b.paintTable(format, charRemove)
	b.paintTable(unicode.Cc, charRemove)
	b.paint(0x034F, 0x034F, charRemove) // combining grapheme joiner
	b.paint(0x17B4, 0x17B5, charRemove) // Khmer inherent vowels
	b.paint(0x2065, 0x2065, charRemove) // reserved default-ignorable
	b.paint(0x3164, 0x3164, charRemove) // Hangul filler
	b.paint(0xFFA0, 0xFFA0, charRemove) // halfwidth Hangul filler
	b.paint(0xFFF0, 0xFFF8, charRemove) // reserved default-ignorables
	b.paint(0xE0000, 0xE0FFF, charRemove)
	b.paint(0xFDD0, 0xFDEF, charRemove) // noncharacters
	for plane := rune(0); plane <= unicode.MaxRune>>16; plane++ {
		b.paint(plane<<16|0xFFFE, plane<<16|0xFFFF, charRemove)
	}
	b.paintTable(unicode.White_Space, charSpace)
	b.paintTable(unicode.Variation_Selector, charSelector)
	b.paint(zwnj, zwnj, charJoiner)
	b.paint(zwj, zwj, charJoiner)
	b.paint('\r', '\r', charLineBreak)
	b.paint(0x85, 0x85, charLineBreak)
	return b.table()
}

// classBuilder paints classes over code points block by block; a block is
// allocated when first painted.
type classBuilder struct {
	blocks [classBlocks]*[classBlockSize]charClass
}

func (b *classBuilder) paint(lo, hi rune, c charClass) {
	for r := lo; r <= hi; r++ {
		blk := b.blocks[r>>classBlockBits]
		if blk == nil {
			blk = new([classBlockSize]charClass) // zero is charKeep
			b.blocks[r>>classBlockBits] = blk
		}
		blk[r&(classBlockSize-1)] = c
	}
}

func (b *classBuilder) paintTable(t *unicode.RangeTable, c charClass) {
	for _, rg := range t.R16 {
		for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
			b.paint(r, r, c)
		}
	}
	for _, rg := range t.R32 {
		for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
			b.paint(r, r, c)
		}
	}
}

// table stores each distinct block once; block 0 is all charKeep.
func (b *classBuilder) table() classTable {
	var t classTable
	var keep [classBlockSize]charClass
	seen := map[[classBlockSize]charClass]uint16{keep: 0}
	t.blocks = append(t.blocks, keep[:]...)
	for i, blk := range b.blocks {
		if blk == nil {
			continue
		}
		n, ok := seen[*blk]
		if !ok {
			n = uint16(len(t.blocks) / classBlockSize)
			seen[*blk] = n
			t.blocks = append(t.blocks, blk[:]...)
		}
		t.index[i] = n
	}
	return t
}

// isInvisible reports whether r is of a class the cleaners remove wherever
// it stands (joiners and variation selectors depend on their neighbours).
func isInvisible(r rune) bool { return classOf(r) == charRemove }

// Scripts in which ZWNJ and ZWJ carry orthography. Indic scripts are told
// apart by their Unicode block, one per script from Devanagari to Sinhala.
const (
	scriptNone   = 0
	scriptArabic = 1
	// Devanagari U+0900 is scriptIndicBase, Bengali U+0980 the next, … Sinhala U+0D80.
	scriptIndicBase = 2
)

// joinerScript returns the script of r for the joiner rules, or scriptNone.
func joinerScript(r rune) int {
	switch {
	case r >= 0x0900 && r <= 0x0DFF:
		return scriptIndicBase + int(r-0x0900)/0x80
	case r >= 0xA8E0 && r <= 0xA8FF: // Devanagari Extended
		return scriptIndicBase
	case r >= 0x11B00 && r <= 0x11B5F: // Devanagari Extended-A
		return scriptIndicBase
	case r >= 0x0600 && unicode.Is(unicode.Arabic, r):
		return scriptArabic
	}
	return scriptNone
}

// isVirama reports the viramas (halants) of the Indic scripts of
// joinerScript, next to which ZWJ and ZWNJ select conjunct forms.
func isVirama(r rune) bool {
	switch r {
	case 0x094D, 0x09CD, 0x0A4D, 0x0ACD, 0x0B4D, 0x0BCD, 0x0C4D, 0x0CCD,
		0x0D3B, 0x0D3C, 0x0D4D, 0x0DCA:
		return true
	}
	return false
}

func isMark(r rune) bool {
	if r < 0x0300 || isCommonCJK(r) {
		return false
	}
	return unicode.In(r, unicode.Mn, unicode.Mc, unicode.Me)
}

// isCommonCJK reports hiragana, katakana and the CJK unified ideographs
// (with extension A): letters without case, marks or invisible members.
func isCommonCJK(r rune) bool {
	return r >= 0x3041 && r <= 0x3096 || r >= 0x30A1 && r <= 0x30FA ||
		r >= 0x3400 && r <= 0x4DBF || r >= 0x4E00 && r <= 0x9FFF
}

// isEmojiExtender reports what may stand between a pictograph and a ZWJ in
// an emoji sequence: presentation selectors, skin-tone modifiers, the
// keycap mark.
func isEmojiExtender(r rune) bool {
	return r == 0xFE0E || r == 0xFE0F || (r >= 0x1F3FB && r <= 0x1F3FF) || r == 0x20E3
}

// isExtendedPictographic reports Unicode's Extended_Pictographic property
// (emoji-data.txt, stable since Unicode 13: whole reserved blocks count).
func isExtendedPictographic(r rune) bool {
	if r < 0xA9 {
		return false
	}
	if r >= 0x1F000 {
		switch {
		case r <= 0x1F0FF, r >= 0x1F10D && r <= 0x1F10F, r == 0x1F12F,
			r >= 0x1F16C && r <= 0x1F171, r == 0x1F17E, r == 0x1F17F, r == 0x1F18E,
			r >= 0x1F191 && r <= 0x1F19A, r >= 0x1F1AD && r <= 0x1F1E5,
			r >= 0x1F201 && r <= 0x1F20F, r == 0x1F21A, r == 0x1F22F,
			r >= 0x1F232 && r <= 0x1F23A, r >= 0x1F23C && r <= 0x1F23F,
			r >= 0x1F249 && r <= 0x1F3FA, r >= 0x1F400 && r <= 0x1F53D,
			r >= 0x1F546 && r <= 0x1F64F, r >= 0x1F680 && r <= 0x1F6FF,
			r >= 0x1F774 && r <= 0x1F77F, r >= 0x1F7D5 && r <= 0x1F7FF,
			r >= 0x1F80C && r <= 0x1F80F, r >= 0x1F848 && r <= 0x1F84F,
			r >= 0x1F85A && r <= 0x1F85F, r >= 0x1F888 && r <= 0x1F88F,
			r >= 0x1F8AE && r <= 0x1F8FF, r >= 0x1F90C && r <= 0x1F93A,
			r >= 0x1F93C && r <= 0x1F945, r >= 0x1F947 && r <= 0x1FAFF,
			r >= 0x1FC00 && r <= 0x1FFFD:
			return true
		}
		return false
	}
	switch {
	case r == 0xA9, r == 0xAE, r == 0x203C, r == 0x2049, r == 0x2122, r == 0x2139,
		r >= 0x2194 && r <= 0x2199, r == 0x21A9, r == 0x21AA, r == 0x231A, r == 0x231B,
		r == 0x2328, r == 0x2388, r == 0x23CF, r >= 0x23E9 && r <= 0x23F3,
		r >= 0x23F8 && r <= 0x23FA, r == 0x24C2, r == 0x25AA, r == 0x25AB,
		r == 0x25B6, r == 0x25C0, r >= 0x25FB && r <= 0x25FE,
		r >= 0x2600 && r <= 0x2605, r >= 0x2607 && r <= 0x2612,
		r >= 0x2614 && r <= 0x2685, r >= 0x2690 && r <= 0x2705,
		r >= 0x2708 && r <= 0x2712, r == 0x2714, r == 0x2716, r == 0x271D,
		r == 0x2721, r == 0x2728, r == 0x2733, r == 0x2734, r == 0x2744,
		r == 0x2747, r == 0x274C, r == 0x274E, r >= 0x2753 && r <= 0x2755,
		r == 0x2757, r >= 0x2763 && r <= 0x2767, r >= 0x2795 && r <= 0x2797,
		r == 0x27A1, r == 0x27B0, r == 0x27BF, r == 0x2934, r == 0x2935,
		r >= 0x2B05 && r <= 0x2B07, r == 0x2B1B, r == 0x2B1C, r == 0x2B50,
		r == 0x2B55, r == 0x3030, r == 0x303D, r == 0x3297, r == 0x3299:
		return true
	}
	return false
}

// lastRune returns the last rune of out, or -1.
func lastRune(out []byte) rune {
	if len(out) == 0 {
		return -1
	}
	r, _ := utf8.DecodeLastRune(out)
	return r
}

// baseBefore returns the last rune of out after skipping up to a few runes
// for which skip holds, or -1.
func baseBefore(out []byte, skip func(rune) bool) rune {
	for n := 0; n < 8 && len(out) > 0; n++ {
		r, size := utf8.DecodeLastRune(out)
		if !skip(r) {
			return r
		}
		out = out[:len(out)-size]
	}
	return -1
}

// keepZWNJ: between two letters of Arabic script or of one Indic script.
// Combining marks (harakat, a virama) may stand between the left letter
// and the joiner.
func keepZWNJ(out []byte, next rune) bool {
	prev := baseBefore(out, isMark)
	if prev < 0 || next < 0 || !unicode.IsLetter(prev) || !unicode.IsLetter(next) {
		return false
	}
	s := joinerScript(prev)
	return s != scriptNone && s == joinerScript(next)
}

// keepZWJ: in an Indic conjunct (after a virama before a letter of its
// script, or after a letter before a virama of its script, as in the
// eyelash ra), or between two emoji.
func keepZWJ(out []byte, next rune) bool {
	prev := lastRune(out)
	if prev < 0 || next < 0 {
		return false
	}
	if isVirama(prev) && unicode.IsLetter(next) {
		return joinerScript(prev) == joinerScript(next)
	}
	if isVirama(next) && unicode.IsLetter(prev) {
		return joinerScript(prev) == joinerScript(next)
	}
	return isExtendedPictographic(baseBefore(out, isEmojiExtender)) && isExtendedPictographic(next)
}

// keepSelector: one selector directly after a base it can select for.
func keepSelector(out []byte, r rune) bool {
	prev := lastRune(out)
	if prev < 0 {
		return false
	}
	switch {
	case r >= 0xE0100:
		return unicode.Is(unicode.Han, prev)
	case r >= 0x180B && r <= 0x180F:
		return unicode.Is(unicode.Mongolian, prev) && unicode.IsLetter(prev)
	}
	return classOf(prev) == charKeep && !isMark(prev)
}

// removal modes: how white space is treated while invisible characters are
// removed.
type spaceMode uint8

const (
	// collapseSpace turns every run of white space into one space and
	// trims both ends (titles and snippets).
	collapseSpace spaceMode = iota
	// keepLines keeps spaces, tabs and line ends, converting CR LF, CR and
	// NEL to LF; vertical tab and form feed are controls and removed
	// (extracted Markdown).
	keepLines
)

// removeInvisible appends s to out with the invisible and control
// characters removed and white space treated by mode, and returns the
// extended buffer and the count of runes removed. Invalid UTF-8 becomes
// U+FFFD, which is kept.
func removeInvisible(out []byte, s string, mode spaceMode) ([]byte, int) {
	removed := 0
	start := len(out)
	pendingSpace := false
	for i := 0; i < len(s); {
		// The common case, printable ASCII, a byte at a time: words are
		// short, so a call per run would cost more than it saves.
		if c := s[i]; c >= 0x21 && c < 0x7F {
			if pendingSpace {
				out = append(out, ' ')
				pendingSpace = false
			}
			out = append(out, c)
			i++
			continue
		} else if c >= utf8.RuneSelf {
			// Other scripts: a run kept as written (characters of class
			// charKeep, and the ASCII among them) is copied at once.
			if n := keptRun(s[i:]); n > 0 {
				if pendingSpace {
					out = append(out, ' ')
					pendingSpace = false
				}
				out = append(out, s[i:i+n]...)
				i += n
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch classOf(r) {
		case charKeep:
			if pendingSpace {
				out = append(out, ' ')
				pendingSpace = false
			}
			out = utf8.AppendRune(out, r) // invalid UTF-8, as U+FFFD; keptRun took the rest
		case charRemove:
			removed++
		case charSpace:
			if mode == collapseSpace {
				pendingSpace = len(out) > start
				continue
			}
			if r == '\v' || r == '\f' {
				removed++
				continue
			}
			out = utf8.AppendRune(out, r)
		case charLineBreak:
			if mode == collapseSpace {
				pendingSpace = len(out) > start
				continue
			}
			if r == '\r' && i < len(s) && s[i] == '\n' {
				i++
			}
			out = append(out, '\n')
		case charSelector:
			if !pendingSpace && keepSelector(out[start:], r) {
				out = utf8.AppendRune(out, r)
			} else {
				removed++
			}
		case charJoiner:
			next := nextVisible(s[i:])
			keep := false
			if !pendingSpace {
				if r == zwnj {
					keep = keepZWNJ(out[start:], next)
				} else {
					keep = keepZWJ(out[start:], next)
				}
			}
			if keep {
				out = utf8.AppendRune(out, r)
			} else {
				removed++
			}
		}
	}
	return out, removed
}

// keptRun returns the length of the longest prefix of s that
// removeInvisible copies unchanged whatever the mode: printable ASCII and
// valid UTF-8 of class charKeep.
func keptRun(s string) int {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 0x21 && c < 0x7F {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			break
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if size == 1 || classOf(r) != charKeep { // invalid UTF-8 becomes U+FFFD
			break
		}
		i += size
	}
	return i
}

// nextVisible returns the first rune of s that the cleaner does not remove
// unconditionally, or -1. A joiner is returned as itself, so two joiners
// never both see a letter on their right.
func nextVisible(s string) rune {
	for _, r := range s {
		if !isInvisible(r) {
			return r
		}
	}
	return -1
}
