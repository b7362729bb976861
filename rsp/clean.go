package rsp

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxStringBytes bounds every string a plugin sends (name, version,
// reason, type, replacement).
const maxStringBytes = 200

// bound cleans an untrusted string the way external text is cleaned
// (invalid UTF-8, control, format and private-use characters removed;
// runs of white space folded to one space; trimmed) and cuts it to at
// most maxStringBytes on a character boundary.
func bound(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Co, r),
			unicode.Is(unicode.Cs, r), r >= 0xFDD0 && r <= 0xFDEF, r&0xFFFE == 0xFFFE:
			continue
		}
		if space {
			if b.Len()+1 > maxStringBytes {
				break
			}
			b.WriteByte(' ')
			space = false
		}
		if b.Len()+utf8.RuneLen(r) > maxStringBytes {
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}
