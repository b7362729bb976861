package pdf

import (
	"bytes"
	"strings"
)

// uniText is the ToUnicode text of a code, looked up once per font.
func (ft *font) uniText(code uint32) (string, bool) {
	if t, ok := ft.memo[code]; ok {
		return t, true
	}
	t, ok := ft.toUni.text(code)
	if ok && len(ft.memo) < 1<<14 {
		if ft.memo == nil {
			ft.memo = map[uint32]string{}
		}
		ft.memo[code] = t
	}
	return t, ok
}

// standardWidths are the ASCII widths of a standard font named base.
func standardWidths(base string) *[95]uint16 {
	if i := strings.IndexByte(base, '+'); i == 6 {
		base = base[7:]
	}
	b := strings.ToLower(base)
	bold := strings.Contains(b, "bold")
	slant := strings.Contains(b, "italic") || strings.Contains(b, "oblique")
	switch {
	case strings.HasPrefix(b, "helvetica") || strings.HasPrefix(b, "arial"):
		switch {
		case bold && slant:
			return &helveticaBoldObliqueWidths
		case bold:
			return &helveticaBoldWidths
		case slant:
			return &helveticaObliqueWidths
		}
		return &helveticaWidths
	case strings.HasPrefix(b, "times"):
		switch {
		case bold && slant:
			return &timesBoldItalicWidths
		case bold:
			return &timesBoldWidths
		case slant:
			return &timesItalicWidths
		}
		return &timesRomanWidths
	}
	return nil
}

// loadFont builds the font of a font dictionary; it is cached per object.
func (p *pageReader) loadFont(fo object) *font {
	r, isRef := fo.(ref)
	if isRef {
		if ft, ok := p.doc.fonts[r.num]; ok {
			return ft
		}
	}
	ft := p.buildFont(p.f.resolve(fo))
	if isRef && len(p.doc.fonts) < 4096 {
		p.doc.fonts[r.num] = ft
	}
	return ft
}

func (p *pageReader) buildFont(o object) *font {
	f := p.f
	fd, _ := o.(dict)
	ft := &font{scale: 0.001, missing: 0}
	if fd == nil {
		ft.enc = standardEncoding
		return ft
	}
	if tu, ok := f.resolve(fd["ToUnicode"]).(*stream); ok {
		if data, err := f.decode(tu, 1<<20); err == nil {
			ft.toUni = parseCMap(data)
		}
	}
	sub := f.resolve(fd["Subtype"])
	if sub == name("Type0") {
		ft.composite = true
		ft.dw = 1000
		if es, ok := f.resolve(fd["Encoding"]).(*stream); ok {
			if data, err := f.decode(es, 1<<20); err == nil {
				ft.codes = parseCMap(data)
			}
		}
		if ft.codes == nil && ft.toUni != nil && len(ft.toUni.spaces) > 0 {
			// Use ToUnicode's code space for the code lengths, CID = code.
			ft.codes = &cmap{spaces: ft.toUni.spaces}
		}
		if ds, ok := f.resolve(fd["DescendantFonts"]).(array); ok && len(ds) > 0 {
			if cf, ok := f.resolve(ds[0]).(dict); ok {
				if v, ok := asFloat(f.resolve(cf["DW"])); ok {
					ft.dw = v
				}
				ft.cidW = cidWidths(f, f.resolve(cf["W"]))
			}
		}
		return ft
	}
	desc, _ := f.resolve(fd["FontDescriptor"]).(dict)
	if sub == name("Type3") {
		if m, ok := f.resolve(fd["FontMatrix"]).(array); ok && len(m) == 6 {
			if v, ok := asFloat(f.resolve(m[0])); ok && v != 0 {
				ft.scale = v
			}
		}
	}
	if ws, ok := f.resolve(fd["Widths"]).(array); ok {
		ft.firstChar, _ = asInt(f.resolve(fd["FirstChar"]))
		n := min(len(ws), 256)
		ft.widths = make([]float64, n)
		for i := 0; i < n; i++ {
			ft.widths[i], _ = asFloat(f.resolve(ws[i]))
		}
	} else {
		ft.missing = 500
		ft.std = standardWidths(string(fd.name("BaseFont")))
		if ft.std == nil && strings.Contains(string(fd.name("BaseFont")), "Courier") {
			ft.missing = 600
		}
	}
	if desc != nil {
		if v, ok := asFloat(f.resolve(desc["MissingWidth"])); ok && v > 0 {
			ft.missing = v
		}
	}
	// The base encoding: named, else the font program's own (Type 1), else
	// Standard (Type 1) or WinAnsi (TrueType).
	base := &standardEncoding
	if sub == name("TrueType") {
		base = &winAnsiEncoding
	}
	var diffs array
	builtinTried := false
	switch e := f.resolve(fd["Encoding"]).(type) {
	case name:
		base = namedEncoding(e, base)
	case dict:
		if bn, ok := f.resolve(e["BaseEncoding"]).(name); ok {
			base = namedEncoding(bn, base)
		} else if b := p.builtinEncoding(desc); b != nil {
			base, builtinTried = b, true
		}
		diffs, _ = f.resolve(e["Differences"]).(array)
	default:
		if b := p.builtinEncoding(desc); b != nil {
			base, builtinTried = b, true
		}
	}
	_ = builtinTried
	ft.enc = *base
	code := 0
	for _, d := range diffs {
		switch v := f.resolve(d).(type) {
		case int64:
			code = int(v)
		case float64:
			code = int(v)
		case name:
			if code >= 0 && code < 256 {
				ft.enc[code] = glyphText(string(v))
			}
			code++
		}
	}
	return ft
}

func namedEncoding(n name, def *[256]string) *[256]string {
	switch n {
	case "WinAnsiEncoding":
		return &winAnsiEncoding
	case "MacRomanEncoding":
		return &macRomanEncoding
	case "StandardEncoding":
		return &standardEncoding
	case "PDFDocEncoding":
		return &pdfDocEncoding
	}
	return def
}

// builtinEncoding reads the encoding a Type 1 font program carries in its
// clear-text part ("dup 65 /A put"), reading at most its first 64 KiB.
func (p *pageReader) builtinEncoding(desc dict) *[256]string {
	if desc == nil {
		return nil
	}
	s, ok := p.f.resolve(desc["FontFile"]).(*stream)
	if !ok {
		return nil
	}
	data, err := p.f.decodeHead(s, 64<<10)
	if err != nil {
		return nil
	}
	if i := bytes.Index(data, []byte("eexec")); i >= 0 {
		data = data[:i]
	}
	i := bytes.Index(data, []byte("/Encoding"))
	if i < 0 {
		return nil
	}
	data = data[i+9:]
	if bytes.HasPrefix(bytes.TrimSpace(data), []byte("StandardEncoding")) {
		return &standardEncoding
	}
	var enc [256]string
	lx := lexer{b: data, maxDepth: 2}
	var last []token
	found := false
	for n := 0; n < 4096; n++ {
		t := lx.next()
		if t.kind == tokEOF || (t.kind == tokKeyword && (string(t.s) == "readonly" || string(t.s) == "def")) && found {
			break
		}
		last = append(last, t)
		if len(last) > 4 {
			last = last[1:]
		}
		if t.kind == tokKeyword && string(t.s) == "put" && len(last) == 4 && string(last[0].s) == "dup" {
			if c, ok := last[1].num.(int64); ok && c >= 0 && c < 256 && last[2].kind == tokName {
				enc[c] = glyphText(string(last[2].s))
				found = true
			}
		}
	}
	if !found {
		return nil
	}
	return &enc
}

func cidWidths(f *file, o object) map[int]float64 {
	w, _ := o.(array)
	if len(w) == 0 {
		return nil
	}
	m := map[int]float64{}
	for i := 0; i < len(w) && len(m) < 1<<16; {
		first, ok := asInt(f.resolve(w[i]))
		if !ok || i+1 >= len(w) {
			break
		}
		if arr, ok := f.resolve(w[i+1]).(array); ok {
			for k, x := range arr {
				v, _ := asFloat(f.resolve(x))
				m[first+k] = v
			}
			i += 2
			continue
		}
		if i+2 >= len(w) {
			break
		}
		last, _ := asInt(f.resolve(w[i+1]))
		v, _ := asFloat(f.resolve(w[i+2]))
		for c := first; c <= last && c-first < 1<<16; c++ {
			m[c] = v
		}
		i += 3
	}
	return m
}

// next splits the first code off s: its value, its byte length, its text
// and its width in text space per unit of font size.
func (ft *font) next(s []byte) (code uint32, n int, text string, w float64) {
	if !ft.composite {
		c := s[0]
		code, n = uint32(c), 1
		if ft.toUni != nil {
			if t, ok := ft.uniText(code); ok {
				text = t
			} else {
				text = ft.enc[c]
			}
		} else {
			text = ft.enc[c]
		}
		i := int(c) - ft.firstChar
		if i >= 0 && i < len(ft.widths) {
			w = ft.widths[i]
		} else if ft.std != nil && len(text) == 1 && text[0] >= 32 && text[0] < 127 && ft.std[text[0]-32] > 0 {
			w = float64(ft.std[text[0]-32])
		} else {
			w = ft.missing
		}
		return code, n, text, w * ft.scale
	}
	n = 2
	if ft.codes != nil && len(ft.codes.spaces) > 0 {
		if k := ft.codes.codeLen(s); k > 0 {
			n = k
		}
	}
	n = min(n, len(s))
	code = codeOf(s[:n])
	if ft.toUni != nil {
		text, _ = ft.uniText(code)
	}
	cid := int(code)
	if ft.codes != nil {
		cid = ft.codes.cid(code)
	}
	w = ft.dw
	if v, ok := ft.cidW[cid]; ok {
		w = v
	}
	return code, n, text, w * ft.scale
}
