package pdf

import (
	"context"
	"testing"
	"time"
)

// FuzzObjectParser: any bytes parse to an object or an error, within the
// nesting bound.
func FuzzObjectParser(f *testing.F) {
	for _, s := range []string{
		"<</Type /Catalog /Pages 2 0 R>>",
		"[1 2.5 -3 (str\\(ing\\)) <48656c6c6f> /Na#6de true false null 4 0 R]",
		"<</Length 10 /Filter [/FlateDecode /ASCII85Decode] /DecodeParms [null <</Predictor 12>>]>>",
		"(unbalanced ( paren \\",
		"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
		"<</A <</B <</C [1 2 R]>>>>>> endobj",
		"> > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > >",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		lx := lexer{b: b, maxDepth: 64}
		for i := 0; i < 1000; i++ {
			before := lx.pos
			if _, err := lx.object(0); err != nil {
				return
			}
			if lx.pos == before {
				t.Fatalf("no progress at %d", before)
			}
		}
	})
}

// FuzzContentStream: the interpreter runs any content stream within the
// operator bound.
func FuzzContentStream(f *testing.F) {
	for _, s := range []string{
		"BT /F1 12 Tf 72 700 Td (Hello) Tj 0 -14 Td [(W) 120 (orld)] TJ T* (x) ' 1 2 (y) \" ET",
		"q 1 0 0 1 10 10 cm BT 3 Tr 2 Tc 1 Tw 90 Tz 14 TL 3 Ts /F1 9 Tf 1 0 0 1 0 0 Tm (a) Tj ET Q Q Q",
		"/Span <</ActualText (fi)>> BDC BT /F1 10 Tf (x) Tj ET EMC EMC BMC",
		"BI /W 1 /H 1 /BPC 8 /CS /G ID \x00\x01 EI BT (after) Tj ET",
		"/X1 Do /Nope Do [[[[ ]]]] TJ",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		lim := DefaultLimits()
		lim.MaxOperators = 10000
		fl := &file{ctx: context.Background(), lim: lim, cache: map[int]object{}, busy: map[int]bool{}, stms: map[int]*objStm{}, xref: map[int]xentry{}}
		d := &docReader{f: fl, lim: lim, fonts: map[int]*font{}, defaultFont: &font{enc: standardEncoding, scale: 0.001, missing: 500}}
		p := &pageReader{f: fl, doc: d, gs: gstate{ctm: identity, th: 1}}
		res := dict{"Font": dict{"F1": dict{"Subtype": name("Type1"), "BaseFont": name("Helvetica")}}}
		p.run(b, res)
		if p.ops > lim.MaxOperators+1 {
			t.Fatalf("%d operators run", p.ops)
		}
		lay := newLayout()
		lay.page(p.glyphs, pageRef{})
		_ = lay.finish()
	})
}

// FuzzCMap: any bytes parse as a CMap, and lookups stay in bounds.
func FuzzCMap(f *testing.F) {
	for _, s := range []string{
		"1 begincodespacerange <00> <FF> endcodespacerange 2 beginbfchar <01> <0041> <02> <D83DDE00> endbfchar",
		"1 begincodespacerange <0000> <FFFF> endcodespacerange 1 beginbfrange <0000> <FFFF> <0000> endbfrange 1 beginbfrange <10> <12> [<41> <42>] endbfrange",
		"begincidrange <0000> <00ff> 1 endcidrange begincidchar <0100> 7 endcidchar /x beginbfchar <01> /eacute endbfchar",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c := parseCMap(b)
		if len(c.chars) > maxCMapEntries || len(c.ranges) > maxCMapRanges {
			t.Fatalf("%d entries, %d ranges", len(c.chars), len(c.ranges))
		}
		for _, code := range []uint32{0, 1, 0x41, 0xff, 0x100, 0xffff, 0xffffffff} {
			c.text(code)
			c.cid(code)
		}
		c.codeLen(b)
	})
}

// FuzzExtract: whole files end in a document or an error, in bounded time.
func FuzzExtract(f *testing.F) {
	b := newBuilder()
	b.simpleDoc("/WinAnsiEncoding", nil, page{content: textLines(72, "Seed one", "two-", "lines"), filter: "Flate"})
	f.Add(b.bytes())
	b = newBuilder()
	b.objStm = true
	b.simpleDoc("/WinAnsiEncoding", nil, page{content: textLines(72, "Seed two")})
	f.Add(b.bytes())
	f.Add([]byte("%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj trailer <</Root 1 0 R>>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		lim := Limits{MaxDecodedBytes: 4 << 20, MaxStreamBytes: 1 << 20, MaxOperators: 20000, MaxObjects: 5000}
		_, _ = Extract(ctx, data, lim)
	})
}
