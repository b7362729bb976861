package pdf

import (
	"bytes"
	"math"
)

var identity = matrix{1, 0, 0, 1, 0, 0}

// mul is m × n (m applied first).
func (m matrix) mul(n matrix) matrix {
	return matrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

// maxOperands bounds the operand stack of the content-stream interpreter.
const maxOperands = 64

// maxGlyphsPerPage bounds the characters kept from one page (LIM-F21): a
// dense page of text holds a few thousand.
const maxGlyphsPerPage = 100000

// run interprets one content stream with its resources.
func (p *pageReader) run(data []byte, res dict) {
	lx := lexer{b: data, maxDepth: 32}
	var args []object
	for p.err == nil {
		t := lx.next()
		if t.kind == tokEOF {
			return
		}
		if t.kind == tokArrClose || t.kind == tokDictClose {
			continue // a stray closing bracket is skipped, as readers do
		}
		if t.kind != tokKeyword {
			o, err := lx.objectFrom(t, 0)
			if err != nil {
				if err == errDepth {
					p.err = err
				}
				return
			}
			if len(args) < maxOperands {
				args = append(args, o)
			}
			continue
		}
		p.ops++
		if p.ops > p.doc.lim.MaxOperators {
			p.err = limitErr("too many operators on one page")
			return
		}
		if p.ops&4095 == 0 {
			if err := p.f.checkTime(); err != nil {
				p.err = err
				return
			}
		}
		op := string(t.s)
		if op == "BI" {
			skipInlineImage(&lx)
			args = args[:0]
			continue
		}
		p.do(op, args, res)
		args = args[:0]
	}
}

// skipInlineImage moves past "ID ... EI".
func skipInlineImage(lx *lexer) {
	i := bytes.Index(lx.b[lx.pos:], []byte("ID"))
	if i < 0 {
		lx.pos = len(lx.b)
		return
	}
	p := lx.pos + i + 3
	for p < len(lx.b) {
		j := bytes.Index(lx.b[p:], []byte("EI"))
		if j < 0 {
			lx.pos = len(lx.b)
			return
		}
		at := p + j
		if at > 0 && isWhite(lx.b[at-1]) && (at+2 == len(lx.b) || isWhite(lx.b[at+2]) || isDelim(lx.b[at+2])) {
			lx.pos = at + 2
			return
		}
		p = at + 2
	}
	lx.pos = len(lx.b)
}

func nums(args []object, n int) ([]float64, bool) {
	if len(args) < n {
		return nil, false
	}
	out := make([]float64, n)
	for i := range out {
		v, ok := asFloat(args[len(args)-n+i])
		if !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

func (p *pageReader) do(op string, args []object, res dict) {
	switch op {
	case "q":
		if len(p.stack) < 256 {
			p.stack = append(p.stack, p.gs)
		}
	case "Q":
		if n := len(p.stack); n > 0 {
			p.gs = p.stack[n-1]
			p.stack = p.stack[:n-1]
		}
	case "cm":
		if v, ok := nums(args, 6); ok {
			p.gs.ctm = matrix{v[0], v[1], v[2], v[3], v[4], v[5]}.mul(p.gs.ctm)
		}
	case "BT":
		p.tm, p.tlm = identity, identity
	case "Tf":
		if len(args) >= 2 {
			if n, ok := args[len(args)-2].(name); ok {
				fonts, _ := p.f.resolve(res["Font"]).(dict)
				p.gs.font = p.loadFont(fonts[n])
			}
			p.gs.size, _ = asFloat(args[len(args)-1])
		}
	case "Tc":
		if v, ok := nums(args, 1); ok {
			p.gs.tc = v[0]
		}
	case "Tw":
		if v, ok := nums(args, 1); ok {
			p.gs.tw = v[0]
		}
	case "Tz":
		if v, ok := nums(args, 1); ok {
			p.gs.th = v[0] / 100
		}
	case "TL":
		if v, ok := nums(args, 1); ok {
			p.gs.tl = v[0]
		}
	case "Ts":
		if v, ok := nums(args, 1); ok {
			p.gs.rise = v[0]
		}
	case "Td":
		if v, ok := nums(args, 2); ok {
			p.tlm = matrix{1, 0, 0, 1, v[0], v[1]}.mul(p.tlm)
			p.tm = p.tlm
		}
	case "TD":
		if v, ok := nums(args, 2); ok {
			p.gs.tl = -v[1]
			p.tlm = matrix{1, 0, 0, 1, v[0], v[1]}.mul(p.tlm)
			p.tm = p.tlm
		}
	case "Tm":
		if v, ok := nums(args, 6); ok {
			p.tlm = matrix{v[0], v[1], v[2], v[3], v[4], v[5]}
			p.tm = p.tlm
		}
	case "T*":
		p.nextLine()
	case "Tj":
		if len(args) >= 1 {
			s, _ := args[len(args)-1].(pstring)
			p.show([]byte(s))
		}
	case "'":
		p.nextLine()
		if len(args) >= 1 {
			s, _ := args[len(args)-1].(pstring)
			p.show([]byte(s))
		}
	case "\"":
		if v, ok := nums(args[:max(0, len(args)-1)], 2); ok {
			p.gs.tw, p.gs.tc = v[0], v[1]
		}
		p.nextLine()
		if len(args) >= 1 {
			s, _ := args[len(args)-1].(pstring)
			p.show([]byte(s))
		}
	case "TJ":
		if len(args) >= 1 {
			a, _ := args[len(args)-1].(array)
			for _, x := range a {
				switch v := x.(type) {
				case pstring:
					p.show([]byte(v))
				default:
					if n, ok := asFloat(v); ok {
						p.advance(-n / 1000 * p.gs.size * p.gs.th)
					}
				}
			}
		}
	case "Do":
		if len(args) >= 1 {
			n, _ := args[len(args)-1].(name)
			xo, _ := p.f.resolve(res["XObject"]).(dict)
			p.form(xo[n])
		}
	case "BMC":
		p.marks = append(p.marks, mark{})
	case "BDC":
		m := mark{}
		if len(args) >= 2 {
			props := args[len(args)-1]
			if n, ok := props.(name); ok {
				pr, _ := p.f.resolve(res["Properties"]).(dict)
				props = p.f.resolve(pr[n])
			}
			if d, ok := props.(dict); ok {
				if s, ok := p.f.resolve(d["ActualText"]).(pstring); ok {
					m = mark{actual: textString([]byte(s)), has: true, firstGly: len(p.glyphs)}
				}
			}
		}
		if len(p.marks) < 256 {
			p.marks = append(p.marks, m)
		}
	case "EMC":
		if n := len(p.marks); n > 0 {
			m := p.marks[n-1]
			p.marks = p.marks[:n-1]
			if m.has && m.firstGly <= len(p.glyphs) {
				p.actualText(m)
			}
		}
	}
}

// actualText replaces the glyphs shown since m began by its text.
func (p *pageReader) actualText(m mark) {
	gl := p.glyphs[m.firstGly:]
	if len(gl) == 0 {
		return
	}
	g := gl[0]
	last := gl[len(gl)-1]
	g.text = m.actual
	g.adv = (last.x-g.x)*g.dx + (last.y-g.y)*g.dy + last.adv
	g.space = false
	p.glyphs = append(p.glyphs[:m.firstGly], g)
}

func (p *pageReader) nextLine() {
	p.tlm = matrix{1, 0, 0, 1, 0, -p.gs.tl}.mul(p.tlm)
	p.tm = p.tlm
}

func (p *pageReader) advance(tx float64) {
	p.tm = matrix{1, 0, 0, 1, tx, 0}.mul(p.tm)
}

// show emits the glyphs of one string and advances the text matrix.
func (p *pageReader) show(s []byte) {
	ft := p.gs.font
	if ft == nil {
		ft = p.doc.defaultFont
	}
	gs := &p.gs
	for len(s) > 0 {
		code, n, text, w := ft.next(s)
		s = s[n:]
		tx := w*gs.size + gs.tc
		if n == 1 && code == 32 {
			tx += gs.tw
		}
		space := isBlank(text)
		tx *= gs.th
		trm := matrix{gs.size * gs.th, 0, 0, gs.size, 0, gs.rise}.mul(p.tm).mul(gs.ctm)
		// The glyph's box ends at its width; character and word spacing
		// move the pen, not the glyph, so they show as gaps.
		end := matrix{1, 0, 0, 1, w * gs.size * gs.th, 0}.mul(p.tm).mul(gs.ctm)
		x0, y0 := trm[4], trm[5]
		x1, y1 := end[4]+gs.rise*end[2], end[5]+gs.rise*end[3]
		size := math.Hypot(trm[2], trm[3])
		dx, dy := x1-x0, y1-y0
		adv := math.Hypot(dx, dy)
		if adv > 1e-9 {
			dx, dy = dx/adv, dy/adv
		} else {
			h := math.Hypot(trm[0], trm[1])
			if h > 0 {
				dx, dy = trm[0]/h, trm[1]/h
			} else {
				dx, dy = 1, 0
			}
		}
		if text == "" {
			p.advance(tx)
			continue
		}
		if len(p.glyphs) >= maxGlyphsPerPage {
			p.err = limitErr("too many characters on one page")
			return
		}
		{
			p.glyphs = append(p.glyphs, glyph{text: text, x: x0, y: y0, adv: adv, size: size, dx: dx, dy: dy, space: space})
		}
		p.advance(tx)
	}
}

// form runs a Form XObject.
func (p *pageReader) form(o object) {
	s, ok := p.f.resolve(o).(*stream)
	if !ok || s.hdr.name("Subtype") != "Form" {
		return
	}
	if p.depth >= p.doc.lim.MaxDepth || p.depth >= 16 {
		return
	}
	data, err := p.f.decode(s, p.doc.lim.MaxStreamBytes)
	if err != nil {
		if err != errImage {
			p.err = err
		}
		return
	}
	saved, savedStack := p.gs, len(p.stack)
	savedTm, savedTlm := p.tm, p.tlm
	if m, ok := p.f.resolve(s.hdr["Matrix"]).(array); ok && len(m) == 6 {
		if v, ok := nums([]object(m), 6); ok {
			p.gs.ctm = matrix{v[0], v[1], v[2], v[3], v[4], v[5]}.mul(p.gs.ctm)
		}
	}
	res, _ := p.f.resolve(s.hdr["Resources"]).(dict)
	if res == nil {
		res = p.res
	}
	p.depth++
	outer := p.res
	p.res = res
	p.run(data, res)
	p.res = outer
	p.depth--
	p.gs, p.tm, p.tlm = saved, savedTm, savedTlm
	if len(p.stack) > savedStack {
		p.stack = p.stack[:savedStack]
	}
}

// isBlank says whether a glyph's text is only white space: it is a word
// space, whatever its code.
func isBlank(s string) bool {
	for _, r := range s {
		if r != ' ' && r != '\t' && r != '\n' && r != '\r' && r != 0xa0 && r != 0x3000 && !(r >= 0x2000 && r <= 0x200a) {
			return false
		}
	}
	return true
}
