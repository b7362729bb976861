package pdf

import (
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// cmap is a parsed CMap: the code space (how many bytes a code takes) and
// the text (bfchar, bfrange) or CID (cidchar, cidrange) of codes.
type cmap struct {
	spaces []codespace
	chars  map[uint32]string
	ranges []bfrange
	cids   map[uint32]int
	cidRng []cidRange
}

type codespace struct {
	n      int
	lo, hi uint32
}

type bfrange struct {
	lo, hi uint32
	dst    []byte   // the first code's text as UTF-16BE, incremented
	arr    []string // or one text per code
}

type cidRange struct {
	lo, hi uint32
	cid    int
}

// CMap bounds: entries and ranges per CMap.
const (
	maxCMapEntries = 1 << 16
	maxCMapRanges  = 1 << 14
)

func codeOf(b []byte) uint32 {
	var v uint32
	for _, c := range b[:min(len(b), 4)] {
		v = v<<8 | uint32(c)
	}
	return v
}

// utf16Text is the text of a UTF-16BE string (or a single byte).
func utf16Text(b []byte) string {
	if len(b) == 1 {
		return string(rune(b[0]))
	}
	u := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
	}
	var out []byte
	for _, r := range utf16.Decode(u) {
		out = utf8.AppendRune(out, r)
	}
	return string(out)
}

// parseCMap reads a CMap stream's operators it knows and ignores the rest;
// its work is bounded by the entry and range limits and by the data length.
func parseCMap(data []byte) *cmap {
	c := &cmap{chars: map[uint32]string{}}
	lx := lexer{b: data, maxDepth: 4}
	var operands []object
	entries := 0
	for {
		t := lx.next()
		if t.kind == tokEOF {
			break
		}
		if t.kind != tokKeyword {
			o, err := lx.objectFrom(t, 1)
			if err != nil {
				break
			}
			if len(operands) < 3*100 {
				operands = append(operands, o)
			}
			continue
		}
		switch string(t.s) {
		case "endcodespacerange":
			for i := 0; i+1 < len(operands); i += 2 {
				lo, ok1 := operands[i].(pstring)
				hi, ok2 := operands[i+1].(pstring)
				if ok1 && ok2 && len(lo) >= 1 && len(lo) <= 4 && len(c.spaces) < 64 {
					c.spaces = append(c.spaces, codespace{len(lo), codeOf([]byte(lo)), codeOf([]byte(hi))})
				}
			}
		case "endbfchar":
			for i := 0; i+1 < len(operands) && entries < maxCMapEntries; i += 2 {
				src, ok1 := operands[i].(pstring)
				switch dst := operands[i+1].(type) {
				case pstring:
					if ok1 {
						c.chars[codeOf([]byte(src))] = utf16Text([]byte(dst))
						entries++
					}
				case name:
					if ok1 {
						c.chars[codeOf([]byte(src))] = glyphText(string(dst))
						entries++
					}
				}
			}
		case "endbfrange":
			for i := 0; i+2 < len(operands) && len(c.ranges) < maxCMapRanges; i += 3 {
				lo, ok1 := operands[i].(pstring)
				hi, ok2 := operands[i+1].(pstring)
				if !ok1 || !ok2 {
					continue
				}
				r := bfrange{lo: codeOf([]byte(lo)), hi: codeOf([]byte(hi))}
				if r.hi < r.lo || r.hi-r.lo > 0xffff {
					continue
				}
				switch dst := operands[i+2].(type) {
				case pstring:
					r.dst = []byte(dst)
				case array:
					for _, x := range dst {
						s, _ := x.(pstring)
						r.arr = append(r.arr, utf16Text([]byte(s)))
					}
				default:
					continue
				}
				c.ranges = append(c.ranges, r)
			}
		case "endcidchar":
			for i := 0; i+1 < len(operands) && entries < maxCMapEntries; i += 2 {
				src, ok1 := operands[i].(pstring)
				cid, ok2 := asInt(operands[i+1])
				if ok1 && ok2 {
					if c.cids == nil {
						c.cids = map[uint32]int{}
					}
					c.cids[codeOf([]byte(src))] = cid
					entries++
				}
			}
		case "endcidrange":
			for i := 0; i+2 < len(operands) && len(c.cidRng) < maxCMapRanges; i += 3 {
				lo, ok1 := operands[i].(pstring)
				hi, ok2 := operands[i+1].(pstring)
				cid, ok3 := asInt(operands[i+2])
				if ok1 && ok2 && ok3 {
					c.cidRng = append(c.cidRng, cidRange{codeOf([]byte(lo)), codeOf([]byte(hi)), cid})
				}
			}
		}
		operands = operands[:0]
	}
	sort.Slice(c.ranges, func(i, j int) bool { return c.ranges[i].lo < c.ranges[j].lo })
	return c
}

// text is the text of a code, and whether the CMap maps it.
func (c *cmap) text(code uint32) (string, bool) {
	if s, ok := c.chars[code]; ok {
		return s, true
	}
	i := sort.Search(len(c.ranges), func(i int) bool { return c.ranges[i].lo > code })
	for k := i - 1; k >= 0 && k >= i-4; k-- {
		r := c.ranges[k]
		if code < r.lo || code > r.hi {
			continue
		}
		off := int(code - r.lo)
		if r.arr != nil {
			if off < len(r.arr) {
				return r.arr[off], true
			}
			return "", false
		}
		d := append([]byte{}, r.dst...)
		if len(d) == 0 {
			return "", false
		}
		// Add off to the last two bytes (the last UTF-16 unit).
		if len(d) == 1 {
			return string(rune(int(d[0]) + off)), true
		}
		v := int(d[len(d)-2])<<8 | int(d[len(d)-1]) + off
		d[len(d)-2], d[len(d)-1] = byte(v>>8), byte(v)
		return utf16Text(d), true
	}
	return "", false
}

// cid is the CID of a code under an embedded encoding CMap.
func (c *cmap) cid(code uint32) int {
	if v, ok := c.cids[code]; ok {
		return v
	}
	for _, r := range c.cidRng {
		if code >= r.lo && code <= r.hi {
			return r.cid + int(code-r.lo)
		}
	}
	return int(code)
}

// codeLen is how many bytes the code at the start of b takes.
func (c *cmap) codeLen(b []byte) int {
	for n := 1; n <= 4 && n <= len(b); n++ {
		v := codeOf(b[:n])
		for _, s := range c.spaces {
			if s.n == n && v >= s.lo && v <= s.hi {
				return n
			}
		}
	}
	return 0
}

// textString decodes a PDF text string: UTF-16 with a byte order mark,
// UTF-8 with one, else PDFDocEncoding.
func textString(b []byte) string {
	switch {
	case len(b) >= 2 && b[0] == 0xfe && b[1] == 0xff:
		return utf16Text(b[2:])
	case len(b) >= 2 && b[0] == 0xff && b[1] == 0xfe:
		sw := make([]byte, len(b)-2)
		for i := 0; i+1 < len(sw); i += 2 {
			sw[i], sw[i+1] = b[i+3], b[i+2]
		}
		return utf16Text(sw)
	case len(b) >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf:
		return strings.ToValidUTF8(string(b[3:]), "")
	}
	var sb strings.Builder
	for _, c := range b {
		sb.WriteString(pdfDocEncoding[c])
	}
	return sb.String()
}
