package pdf

import (
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// bounded runs Extract on a hostile file and checks that it ends with one
// of the package's errors, within the time given, without a panic.
func bounded(t *testing.T, data []byte, lim Limits, want ...error) Document {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	doc, err := Extract(ctx, data, lim)
	if err == nil {
		t.Fatalf("no error; text %q", doc.Markdown)
	}
	for _, w := range want {
		if errors.Is(err, w) {
			return doc
		}
	}
	t.Fatalf("err = %v, want one of %v", err, want)
	return doc
}

func TestREQ_PAGE_006_HostileReferenceLoops(t *testing.T) {
	t.Run("catalog", func(t *testing.T) {
		b := newBuilder()
		b.simpleDoc("/WinAnsiEncoding", nil, page{content: textLines(72, "x")})
		loopA := b.add("")
		loopB := b.add(fmt.Sprintf("%d 0 R", loopA))
		b.set(loopA, fmt.Sprintf("%d 0 R", loopB))
		b.set(b.root, "null")
		b.root = loopA
		bounded(t, b.bytes(), Limits{}, ErrMalformed)
	})
	t.Run("length and contents", func(t *testing.T) {
		b := newBuilder()
		b.simpleDoc("/WinAnsiEncoding", nil, page{content: textLines(72, "Still read")})
		self := b.add("")
		b.set(self, fmt.Sprintf("%d 0 R", self))
		// The page's contents and a font refer to the loop.
		b.set(4, strings.Replace(b.objs[3].body, "/Contents 3 0 R", fmt.Sprintf("/Contents [%d 0 R 3 0 R] /Foo %d 0 R", self, self), 1))
		doc := extract(t, b.bytes())
		checkText(t, doc.Markdown, []string{"Still read"}, nil)
	})
}

// bombStream is a zlib stream of size zero bytes, built from one repeated
// compressed chunk so that it is small in memory: after a sync flush every
// further MiB of zeros compresses to the same bytes.
func bombStream(t *testing.T, size int64) []byte {
	var buf bytes.Buffer
	w, _ := zlib.NewWriterLevel(&buf, zlib.BestCompression)
	zero := make([]byte, 1<<20)
	chunk := func() []byte {
		start := buf.Len()
		w.Write(zero)
		w.Flush()
		return append([]byte{}, buf.Bytes()[start:]...)
	}
	chunk()
	chunk()
	a, b := chunk(), chunk()
	if !bytes.Equal(a, b) {
		t.Fatal("compressed chunks differ; the bomb cannot be built this way")
	}
	out := append([]byte{}, buf.Bytes()...)
	for n := int64(4) << 20; n < size; n += 1 << 20 {
		out = append(out, a...)
	}
	return out
}

func TestREQ_PAGE_006_HostileFlateBomb(t *testing.T) {
	bomb := bombStream(t, 1<<30)
	if len(bomb) > 8<<20 {
		t.Fatalf("the bomb is %d bytes", len(bomb))
	}
	b := newBuilder()
	b.simpleDoc("/WinAnsiEncoding", nil, page{content: textLines(72, "x")})
	b.objs[2] = bobj{body: "<</Filter /FlateDecode>>", stream: bomb}
	lim := DefaultLimits()
	bounded(t, b.bytes(), lim, ErrLimit)
	// And with a larger stream bound, the document bound ends it.
	lim.MaxStreamBytes = 1 << 40
	lim.MaxDecodedBytes = 12 << 20
	f, err := open(context.Background(), b.bytes(), lim)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.decode(f.resolve(ref{3, 0}).(*stream), lim.MaxStreamBytes); !errors.Is(err, ErrLimit) {
		t.Fatalf("decode: %v", err)
	}
	if f.decoded > lim.MaxDecodedBytes+64<<10 {
		t.Errorf("decoded %d bytes, bound %d", f.decoded, lim.MaxDecodedBytes)
	}
	// A deadline that has passed ends the inflating within a MiB.
	ctx, cancel := context.WithCancel(context.Background())
	f, err = open(ctx, b.bytes(), lim)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := f.decode(f.resolve(ref{3, 0}).(*stream), lim.MaxStreamBytes); !errors.Is(err, context.Canceled) || f.decoded > 2<<20 {
		t.Errorf("after the deadline: %v, %d bytes decoded", err, f.decoded)
	}
}

func TestREQ_PAGE_006_HostileNestedArrays(t *testing.T) {
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	t.Run("in the catalog", func(t *testing.T) {
		b := newBuilder()
		b.simpleDoc("/WinAnsiEncoding", nil, page{content: textLines(72, "x")})
		b.set(b.root, "<</Type /Catalog /Pages 2 0 R /Deep "+deep+">>")
		bounded(t, b.bytes(), Limits{}, ErrMalformed)
	})
	t.Run("in a content stream", func(t *testing.T) {
		b := newBuilder()
		b.simpleDoc("/WinAnsiEncoding", nil, page{content: textLines(72, "Before the arrays") + deep + " TJ"})
		doc := bounded(t, b.bytes(), Limits{}, ErrMalformed)
		_ = doc
	})
}

// A million lone '>' characters are skipped in a loop, not by recursion.
func TestREQ_PAGE_006_HostileLoneGreaterThanSigns(t *testing.T) {
	lx := lexer{b: []byte(strings.Repeat("> ", 1000000) + "/Name"), maxDepth: 4}
	if tok := lx.next(); tok.kind != tokName || string(tok.s) != "Name" {
		t.Fatalf("token %+v", tok)
	}
}

func TestREQ_PAGE_006_HostileObjectStreamContainingItself(t *testing.T) {
	// Object 5 is an object stream whose /N is object 6, which lives in
	// object stream 5; the catalog is in it too.
	var buf bytes.Buffer
	buf.WriteString("%PDF-1.7\n")
	inner := "1 0 6 10 <</Type /Catalog /Pages 2 0 R>> 3"
	off5 := buf.Len()
	fmt.Fprintf(&buf, "5 0 obj\n<</Type /ObjStm /N 6 0 R /First 10 /Length %d>>\nstream\n%s\nendstream\nendobj\n", len(inner), inner)
	xref := buf.Len()
	rows := []byte{0, 0, 0, 0, 0, 0}
	rows = append(rows, 2, 0, 0, 0, 5, 0)                                                // 1: in 5
	rows = append(rows, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)            // 2-4 free
	rows = append(rows, 1, byte(off5>>24), byte(off5>>16), byte(off5>>8), byte(off5), 0) // 5
	rows = append(rows, 2, 0, 0, 0, 5, 1)                                                // 6: in 5
	rows = append(rows, 1, byte(xref>>24), byte(xref>>16), byte(xref>>8), byte(xref), 0) // 7
	fmt.Fprintf(&buf, "7 0 obj\n<</Type /XRef /W [1 4 1] /Size 8 /Root 1 0 R /Length %d>>\nstream\n%s\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", len(rows), rows, xref)
	bounded(t, buf.Bytes(), Limits{}, ErrMalformed)
}

func TestREQ_PAGE_006_HostilePageTreeCycle(t *testing.T) {
	b := newBuilder()
	b.simpleDoc("/WinAnsiEncoding", nil, page{content: textLines(72, "x")})
	inner := b.add("<</Type /Pages /Kids [2 0 R] /Count 1>>")
	b.set(2, fmt.Sprintf("<</Type /Pages /Kids [%d 0 R 4 0 R] /Count 2>>", inner))
	bounded(t, b.bytes(), Limits{}, ErrMalformed)
}

func TestREQ_PAGE_006_HostileDeepPageTree(t *testing.T) {
	b := newBuilder()
	b.simpleDoc("/WinAnsiEncoding", nil, page{content: textLines(72, "x")})
	prev := 4 // the page
	for i := 0; i < 200; i++ {
		prev = b.add(fmt.Sprintf("<</Type /Pages /Kids [%d 0 R] /Count 1>>", prev))
	}
	b.set(b.root, fmt.Sprintf("<</Type /Catalog /Pages %d 0 R>>", prev))
	bounded(t, b.bytes(), Limits{}, ErrMalformed)
}

func TestREQ_PAGE_006_HostileNegativeLength(t *testing.T) {
	t.Run("endstream found", func(t *testing.T) {
		b := newBuilder()
		b.simpleDoc("/WinAnsiEncoding", nil, page{content: textLines(72, "Length repaired")})
		data := b.bytes()
		i := bytes.Index(data, []byte("/Length "))
		j := i + bytes.IndexByte(data[i:], '>')
		data = append(append(append([]byte{}, data[:i]...), "/Length -99999"...), data[j:]...)
		checkText(t, extract(t, data).Markdown, []string{"Length repaired"}, nil)
	})
	t.Run("no endstream", func(t *testing.T) {
		data := []byte("%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R]>> endobj\n3 0 obj <</Type /Page /Parent 2 0 R /Contents 4 0 R>> endobj\n4 0 obj <</Length -5>> stream\n\x00\x01\x02 garbage")
		bounded(t, data, Limits{}, ErrNoText, ErrMalformed)
	})
}

func TestREQ_PAGE_006_HostileTruncatedFile(t *testing.T) {
	b := newBuilder()
	b.simpleDoc("/WinAnsiEncoding", nil, page{content: textLines(72, "Truncated")})
	data := b.bytes()
	for _, cut := range []int{5, 20, len(data) / 3, len(data) / 2, len(data) - 40} {
		t.Run(fmt.Sprint(cut), func(t *testing.T) {
			doc, err := Extract(context.Background(), data[:cut], Limits{})
			if err == nil {
				// A cut after the objects still reads by repair.
				checkText(t, doc.Markdown, []string{"Truncated"}, nil)
				return
			}
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrNoText) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func TestREQ_PAGE_006_HostileBoundsAreEnforced(t *testing.T) {
	many := strings.Repeat("q Q ", 5000)
	b := newBuilder()
	b.simpleDoc("/WinAnsiEncoding", nil, page{content: textLines(72, "ops") + many})
	bounded(t, b.bytes(), Limits{MaxOperators: 1000}, ErrLimit)

	b = newBuilder()
	b.simpleDoc("/WinAnsiEncoding", nil, page{content: "BT /F1 1 Tf 72 700 Td " + strings.Repeat("(xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx) Tj 0 0 Td ", maxGlyphsPerPage/50+1) + "ET", filter: "Flate"})
	doc := bounded(t, b.bytes(), Limits{}, ErrLimit)
	if doc.Glyphs != maxGlyphsPerPage {
		t.Errorf("%d characters kept from the page", doc.Glyphs)
	}

	b = newBuilder()
	var pages []page
	for i := 0; i < 30; i++ {
		pages = append(pages, page{content: textLines(72, "page")})
	}
	b.simpleDoc("/WinAnsiEncoding", nil, pages...)
	bounded(t, b.bytes(), Limits{MaxPages: 5}, ErrLimit)
	bounded(t, b.bytes(), Limits{MaxObjects: 10}, ErrLimit, ErrMalformed)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Extract(ctx, b.bytes(), Limits{}); !errors.Is(err, ErrLimit) {
		t.Errorf("a passed deadline: %v", err)
	}
}

// 20,000 lines that share a gutter but are no columns (the left side is
// one short word) cost a bounded amount of layout work, not a pass over
// the remaining lines for each line.
func TestREQ_PAGE_006_HostileLayoutIsBounded(t *testing.T) {
	var gl []glyph
	for i := 0; i < 20000; i++ {
		y := float64(100000 - 2*i)
		adv := 1.0
		if i%10 == 0 {
			adv = 20 // a few wide lines: the left side is not a column
		}
		gl = append(gl, glyph{text: "x", x: 0, y: y, adv: adv, size: 1, dx: 1},
			glyph{text: "long text on the right side of the gutter", x: 50, y: y, adv: 40, size: 1, dx: 1})
	}
	start := time.Now()
	lay := newLayout()
	lay.page(gl, pageRef{})
	if lay.work > maxLayoutWork {
		t.Errorf("%d lines looked at", lay.work)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("layout took %v", took)
	}
	if n := strings.Count(lay.finish(), "long text"); n != 20000 {
		t.Errorf("%d lines written", n)
	}
}
