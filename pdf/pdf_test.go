package pdf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func extract(t *testing.T, data []byte) Document {
	t.Helper()
	doc, err := Extract(context.Background(), data, Limits{})
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	return doc
}

// checkText says which expected lines are missing from, and which
// unwanted ones are present in, the Markdown.
func checkText(t *testing.T, md string, present, absent []string) {
	t.Helper()
	for _, p := range present {
		if !strings.Contains(md, p) {
			t.Errorf("missing %q in:\n%s", p, md)
		}
	}
	for _, a := range absent {
		if strings.Contains(md, a) {
			t.Errorf("unexpected %q in:\n%s", a, md)
		}
	}
}

func TestEveryFilterIsDecoded(t *testing.T) {
	for _, f := range []string{"", "Flate", "LZW", "A85", "AHx", "RL", "A85 Flate"} {
		t.Run(f, func(t *testing.T) {
			b := newBuilder()
			b.simpleDoc("/WinAnsiEncoding", nil, page{content: textLines(72, "Filtered text survives", "aaaaaaaaaaaaaaaaaaaaaaaa"), filter: f})
			doc := extract(t, b.bytes())
			checkText(t, doc.Markdown, []string{"Filtered text survives", "aaaaaaaaaaaaaaaaaaaaaaaa"}, nil)
		})
	}
}

func TestImageStreamsAreSkipped(t *testing.T) {
	b := newBuilder()
	b.simpleDoc("/WinAnsiEncoding", nil, page{content: textLines(72, "Text beside an image")})
	// A second content stream with an image filter is not decoded.
	img := b.addStream("/Filter /DCTDecode", []byte("\xff\xd8 not really a jpeg"))
	doc := extract(t, b.bytes())
	checkText(t, doc.Markdown, []string{"Text beside an image"}, []string{"jpeg"})
	f, err := open(context.Background(), b.bytes(), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.decode(f.resolve(ref{img, 0}).(*stream), 1<<20); err != errImage {
		t.Errorf("decoding a DCT stream: %v, want errImage", err)
	}
}

func TestSimpleFontEncodings(t *testing.T) {
	for _, tc := range []struct {
		enc, shown, want string
	}{
		{"/WinAnsiEncoding", `caf\351 \223quoted\224 \200`, "café “quoted” €"},
		{"/MacRomanEncoding", `caf\216 \322quoted\323`, "café “quoted”"},
		{"/StandardEncoding", `it\047s \252quoted\272 \256le`, "it’s “quoted” ﬁle"},
		{"/PDFDocEncoding", `\240 sign \223`, "€ sign ﬁ"},
		{"<</BaseEncoding /WinAnsiEncoding /Differences [65 /eacute /uni00FC /f_f 70 /germandbls.sc]>>", `ABCDF`, "éüffDß"},
	} {
		t.Run(tc.enc, func(t *testing.T) {
			b := newBuilder()
			b.simpleDoc(tc.enc, nil, page{content: "BT /F1 12 Tf 72 700 Td (" + tc.shown + ") Tj ET"})
			checkText(t, extract(t, b.bytes()).Markdown, []string{tc.want}, nil)
		})
	}
}

func TestBuiltinEncodingOfAnEmbeddedType1Font(t *testing.T) {
	b := newBuilder()
	fontFile := b.addStream("/Length1 100 /Length2 0 /Length3 0", []byte("%!PS-AdobeFont-1.0: Test\n/Encoding 256 array\n0 1 255 {1 index exch /.notdef put} for\ndup 65 /Lslash put\ndup 66 /oe put\nreadonly def\ncurrentfile eexec\n\x00\x01binary"))
	desc := b.add(fmt.Sprintf("<</Type /FontDescriptor /FontName /Test /Flags 4 /FontFile %d 0 R>>", fontFile))
	b.simpleDoc("/WinAnsiEncoding", func(b *builder) string {
		f := b.add(fmt.Sprintf("<</Type /Font /Subtype /Type1 /BaseFont /Test /FirstChar 65 /LastChar 66 /Widths [600 600] /FontDescriptor %d 0 R>>", desc))
		return fmt.Sprintf("/F2 %d 0 R", f)
	}, page{content: "BT /F2 12 Tf 72 700 Td (ABAB) Tj ET"})
	checkText(t, extract(t, b.bytes()).Markdown, []string{"ŁœŁœ"}, []string{"ABAB"})
}

// A Type0 font with Identity-H codes and a ToUnicode CMap using bfchar,
// bfrange with a start text and bfrange with an array.
func TestCIDFontWithToUnicode(t *testing.T) {
	cm := `/CIDInit /ProcSet findresource begin 12 dict begin begincmap
1 begincodespacerange <0000> <FFFF> endcodespacerange
2 beginbfchar <0001> <0048> <0002> <00660069> endbfchar
2 beginbfrange <0010> <0019> <0061> <0020> <0022> [<03B1> <03B2> <D835DC9C>] endbfrange
endcmap CMapName currentdict /CMap defineresource pop end end`
	b := newBuilder()
	b.simpleDoc("/WinAnsiEncoding", func(b *builder) string {
		tu := b.addStream("", []byte(cm))
		cid := b.add("<</Type /Font /Subtype /CIDFontType2 /BaseFont /Test /CIDSystemInfo <</Registry (Adobe) /Ordering (Identity) /Supplement 0>> /DW 500 /W [1 [700 500] 16 25 450]>>")
		t0 := b.add(fmt.Sprintf("<</Type /Font /Subtype /Type0 /BaseFont /Test /Encoding /Identity-H /DescendantFonts [%d 0 R] /ToUnicode %d 0 R>>", cid, tu))
		return fmt.Sprintf("/F2 %d 0 R", t0)
	}, page{content: "BT /F2 12 Tf 72 700 Td <0001001000110002> Tj ( ) Tj 0 -20 Td <002000210022> Tj ET"})
	checkText(t, extract(t, b.bytes()).Markdown, []string{"Habfi", "αβ𝒜"}, nil)
}

func TestType3FontMapsThroughDifferences(t *testing.T) {
	b := newBuilder()
	b.simpleDoc("/WinAnsiEncoding", func(b *builder) string {
		proc := b.addStream("", []byte("1000 0 d0"))
		f := b.add(fmt.Sprintf("<</Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs <</a %d 0 R /b %d 0 R>> /Encoding <</Differences [1 /T /y /p /e /three]>> /FirstChar 1 /LastChar 5 /Widths [600 600 600 600 600] /Resources <<>>>>", proc, proc))
		return fmt.Sprintf("/F3 %d 0 R", f)
	}, page{content: "BT /F3 12 Tf 72 700 Td <0102030405> Tj ET"})
	checkText(t, extract(t, b.bytes()).Markdown, []string{"Type3"}, nil)
}

func TestEveryEncryptionRevisionWithAnEmptyUserPassword(t *testing.T) {
	for _, tc := range []struct {
		name       string
		v, r, bits int
		aes        bool
	}{
		{"RC4-40", 1, 2, 40, false},
		{"RC4-128", 2, 3, 128, false},
		{"RC4-128-crypt-filter", 4, 4, 128, false},
		{"AES-128", 4, 4, 128, true},
		{"AES-256-R5", 5, 5, 256, true},
		{"AES-256-R6", 5, 6, 256, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBuilder()
			b.crypt = newCrypt(t, tc.v, tc.r, tc.bits, tc.aes, "")
			b.simpleDoc("/WinAnsiEncoding", nil, page{content: textLines(72, "Secret permissions only"), filter: "Flate"})
			b.info = b.add("<</Title " + str("An encrypted title") + ">>")
			doc := extract(t, b.bytes())
			checkText(t, doc.Markdown, []string{"Secret permissions only"}, nil)
			if doc.Title != "An encrypted title" {
				t.Errorf("title %q", doc.Title)
			}
		})
	}
}

func TestAUserPasswordIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name       string
		v, r, bits int
		aes        bool
	}{{"RC4-128", 2, 3, 128, false}, {"AES-256-R6", 5, 6, 256, true}} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBuilder()
			b.crypt = newCrypt(t, tc.v, tc.r, tc.bits, tc.aes, "secret")
			b.simpleDoc("/WinAnsiEncoding", nil, page{content: textLines(72, "Never shown")})
			_, err := Extract(context.Background(), b.bytes(), Limits{})
			if !errors.Is(err, ErrNeedsPassword) {
				t.Fatalf("err = %v, want ErrNeedsPassword", err)
			}
		})
	}
}

func TestCrossReferenceStreamAndObjectStream(t *testing.T) {
	b := newBuilder()
	b.objStm = true
	b.simpleDoc("/WinAnsiEncoding", nil, page{content: textLines(72, "Objects in a stream"), filter: "Flate"})
	b.info = b.add("<</Title (Packed)>>")
	data := b.bytes()
	if !bytes.Contains(data, []byte("/ObjStm")) || !bytes.Contains(data, []byte("/XRef")) {
		t.Fatal("the builder wrote no object or cross-reference stream")
	}
	doc := extract(t, data)
	checkText(t, doc.Markdown, []string{"Objects in a stream"}, nil)
	if doc.Title != "Packed" {
		t.Errorf("title %q", doc.Title)
	}
}

func TestBrokenCrossReferenceIsRepaired(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(b *builder)
	}{
		{"wrong offsets", func(b *builder) { b.badXref = true }},
		{"no table", func(b *builder) { b.noXref = true }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBuilder()
			tc.edit(b)
			b.simpleDoc("/WinAnsiEncoding", nil, page{content: textLines(72, "Found by scanning")})
			data := b.bytes()
			if tc.name == "no table" {
				// Without a trailer the catalog is found by its /Type.
				data = append(data, "trailer\n<</Root 999 0 R>>\n"...)
			}
			checkText(t, extract(t, data).Markdown, []string{"Found by scanning"}, nil)
		})
	}
}

func TestIncrementalUpdateReplacesObjects(t *testing.T) {
	b := newBuilder()
	b.simpleDoc("/WinAnsiEncoding", nil, page{content: textLines(72, "The first version")})
	data := b.bytes()
	prev := bytes.LastIndex(data, []byte("startxref"))
	var prevOff int
	fmt.Sscan(string(data[prev+len("startxref"):]), &prevOff)
	// Object 3 is the page's content stream (font 1, pages 2).
	content := "BT /F1 12 Tf 72 700 Td (The second version) Tj ET"
	at := len(data)
	data = fmt.Appendf(data, "3 0 obj\n<</Length %d>>\nstream\n%s\nendstream\nendobj\n", len(content), content)
	xref := len(data)
	data = fmt.Appendf(data, "xref\n3 1\n%010d 00000 n \ntrailer\n<</Size %d /Root %d 0 R /Prev %d>>\nstartxref\n%d\n%%%%EOF\n", at, len(b.objs)+1, b.root, prevOff, xref)
	checkText(t, extract(t, data).Markdown, []string{"The second version"}, []string{"first version"})
}

func TestTwoColumnPageReadsColumnByColumn(t *testing.T) {
	var left, right []string
	for i := 0; i < 12; i++ {
		left = append(left, fmt.Sprintf("left column line %02d with enough words", i))
		right = append(right, fmt.Sprintf("right column line %02d with enough words", i))
	}
	content := "BT /F1 10 Tf 72 740 Td (A Title Across Both Columns) Tj ET\n" +
		strings.ReplaceAll(textLines(72, left...), "/F1 12 Tf", "/F1 10 Tf") +
		strings.ReplaceAll(textLines(320, right...), "/F1 12 Tf", "/F1 10 Tf")
	b := newBuilder()
	b.simpleDoc("/WinAnsiEncoding", nil, page{content: content})
	md := extract(t, b.bytes()).Markdown
	last := strings.Index(md, "left column line 11")
	first := strings.Index(md, "right column line 00")
	if last < 0 || first < 0 || last > first {
		t.Fatalf("columns interleaved:\n%s", md)
	}
	if strings.Index(md, "A Title Across") > strings.Index(md, "left column line 00") {
		t.Errorf("the title is not first:\n%s", md)
	}
}

func TestHyphenatedLineEndIsJoined(t *testing.T) {
	b := newBuilder()
	b.simpleDoc("/WinAnsiEncoding", nil, page{content: textLines(72, "a word broken at the exam-", "ple of a line end")})
	checkText(t, extract(t, b.bytes()).Markdown, []string{"exam\u00adple"[:0] + "example of"}, []string{"exam-"})
}

func TestHeadingsParagraphsAndTitle(t *testing.T) {
	content := "BT /F1 24 Tf 72 775 Td (Big Heading) Tj ET\n" +
		"BT /F1 15 Tf 72 745 Td (Smaller Heading) Tj ET\n" +
		textLines(72, "Body text line one", "body text line two") +
		"BT /F1 12 Tf 72 600 Td (A new paragraph after a gap) Tj ET"
	b := newBuilder()
	b.simpleDoc("/WinAnsiEncoding", nil, page{content: content})
	doc := extract(t, b.bytes())
	checkText(t, doc.Markdown, []string{"# Big Heading\n", "## Smaller Heading\n", "Body text line one\nbody text line two\n\nA new paragraph"}, nil)
	if doc.Title != "Big Heading" {
		t.Errorf("title from the first heading: %q", doc.Title)
	}
}

func TestXMPTitle(t *testing.T) {
	b := newBuilder()
	b.simpleDoc("/WinAnsiEncoding", nil, page{content: textLines(72, "Body")})
	xmp := b.addStream("/Type /Metadata /Subtype /XML", []byte(`<x:xmpmeta><rdf:RDF><rdf:Description><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Title &amp; Metadata</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta>`))
	b.set(b.root, fmt.Sprintf("<</Type /Catalog /Pages 2 0 R /Metadata %d 0 R>>", xmp))
	if got := extract(t, b.bytes()).Title; got != "Title & Metadata" {
		t.Errorf("title %q", got)
	}
}

func TestRunningHeadersAreWrittenOnce(t *testing.T) {
	var pages []page
	for i := 1; i <= 3; i++ {
		pages = append(pages, page{content: "BT /F1 9 Tf 72 770 Td (The Running Header) Tj ET\n" +
			textLines(72, fmt.Sprintf("Body of page %d", i)) +
			fmt.Sprintf("BT /F1 9 Tf 300 40 Td (Page %d) Tj ET", i)})
	}
	b := newBuilder()
	b.simpleDoc("/WinAnsiEncoding", nil, pages...)
	md := extract(t, b.bytes()).Markdown
	if n := strings.Count(md, "The Running Header"); n != 1 {
		t.Errorf("header written %d times:\n%s", n, md)
	}
	checkText(t, md, []string{"Body of page 1", "Body of page 3", "Page 1"}, []string{"Page 2", "Page 3"})
}

func TestActualTextReplacesGlyphs(t *testing.T) {
	b := newBuilder()
	b.simpleDoc("/WinAnsiEncoding", nil, page{content: "BT /F1 12 Tf 72 700 Td (before ) Tj /Span <</ActualText " + "(replaced)" + ">> BDC (xyz) Tj EMC ( after) Tj ET"})
	checkText(t, extract(t, b.bytes()).Markdown, []string{"before replaced after"}, []string{"xyz"})
}

func TestFormXObjectsAndRotation(t *testing.T) {
	b := newBuilder()
	b.simpleDoc("/WinAnsiEncoding", nil, page{content: "q 1 0 0 1 0 0 cm /X1 Do Q"})
	form := b.addStream(fmt.Sprintf("/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources <</Font <</F1 1 0 R>>>>"), []byte(textLines(72, "Inside a form")+" /X1 Do"))
	b.set(2, strings.Replace(b.objs[1].body, "/Resources <<", fmt.Sprintf("/Rotate 90 /Resources <</XObject <</X1 %d 0 R>> ", form), 1))
	checkText(t, extract(t, b.bytes()).Markdown, []string{"Inside a form"}, nil)
}

func TestScannedPagesAreNoText(t *testing.T) {
	b := newBuilder()
	b.simpleDoc("/WinAnsiEncoding", nil, page{content: "q 612 0 0 792 0 0 cm /Im1 Do Q"})
	_, err := Extract(context.Background(), b.bytes(), Limits{})
	if !errors.Is(err, ErrNoText) {
		t.Fatalf("err = %v, want ErrNoText", err)
	}
}

func TestMaxCharsStopsReadingPages(t *testing.T) {
	var pages []page
	for i := 0; i < 40; i++ {
		pages = append(pages, page{content: textLines(72, fmt.Sprintf("Page %d has this sentence on it", i))})
	}
	b := newBuilder()
	b.simpleDoc("/WinAnsiEncoding", nil, pages...)
	doc, err := Extract(context.Background(), b.bytes(), Limits{MaxChars: 100})
	if err != nil {
		t.Fatal(err)
	}
	if doc.Complete || doc.Read >= 10 || doc.Pages != 40 {
		t.Errorf("read %d of %d pages, complete %v", doc.Read, doc.Pages, doc.Complete)
	}
	if len([]rune(doc.Markdown)) <= 100 {
		t.Errorf("stopped before the window was filled: %q", doc.Markdown)
	}
	full := extract(t, b.bytes())
	if !full.Complete || full.Read != 40 {
		t.Errorf("without MaxChars: read %d, complete %v", full.Read, full.Complete)
	}
}

func TestStrayTokensInAContentStreamAreSkipped(t *testing.T) {
	b := newBuilder()
	b.simpleDoc("/WinAnsiEncoding", nil, page{content: "BT /F1 12 Tf 72 700 Td (before) Tj ] >> } (after) Tj ET"})
	checkText(t, extract(t, b.bytes()).Markdown, []string{"beforeafter"}, nil)
}

func TestCodeAtPageEdgesIsNotARunningHeader(t *testing.T) {
	var pages []page
	for i := 1; i <= 3; i++ {
		pages = append(pages, page{content: textLines(72, "}", fmt.Sprintf("code line %d", i), "end")})
	}
	b := newBuilder()
	b.simpleDoc("/WinAnsiEncoding", nil, pages...)
	md := extract(t, b.bytes()).Markdown
	if strings.Count(md, "}") != 3 || strings.Count(md, "end") != 3 {
		t.Errorf("edge lines dropped:\n%s", md)
	}
}

func TestALargeSymbolDoesNotMakeAHeading(t *testing.T) {
	content := textLines(72, "Body text before the line", "more body text here") +
		"BT /F1 12 Tf 72 600 Td (Press the key ) Tj /F1 20 Tf (^) Tj /F1 12 Tf ( and then the other key) Tj ET\n" +
		"BT /F1 12 Tf 72 586 Td (and body text after it) Tj ET"
	b := newBuilder()
	b.simpleDoc("/WinAnsiEncoding", nil, page{content: content})
	md := extract(t, b.bytes()).Markdown
	checkText(t, md, []string{"Press the key"}, []string{"# Press", "#Press"})
}
