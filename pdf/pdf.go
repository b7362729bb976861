// Package pdf reads the text of a PDF document as Markdown, in reading
// order. It is a leaf: it imports only the standard library.
//
// Every input is untrusted. Reading is bounded by Limits (decoded bytes,
// objects, nesting, operators, pages, characters) and by the caller's
// context; a hostile file ends with an error, never a crash, and the whole
// document is never held decoded at once: streams are decoded one at a time
// and dropped after use. Images are not decoded and nothing is rendered.
package pdf

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"unicode/utf8"
)

// Document is the text read from a PDF.
type Document struct {
	Title    string // from the Info dictionary or XMP, else the first heading
	Markdown string
	Pages    int  // pages in the document
	Read     int  // pages read
	Complete bool // every page was read
	// Glyphs counts the characters shown on the pages read; zero means the
	// pages hold no text layer (images of text only, or nothing).
	Glyphs int
}

// ErrNoText is returned when the pages read show no text at all: the
// document holds images of text only.
var ErrNoText = errors.New("pdf: the document has no text layer; it holds images of text only")

// Extract reads data, a whole PDF file, and returns its text. Errors wrap
// ErrMalformed, ErrNeedsPassword, ErrUnsupportedEncryption, ErrLimit or
// ErrNoText; when a limit ends the reading after some pages were read, the
// text of those pages is returned with the error.
func Extract(ctx context.Context, data []byte, lim Limits) (Document, error) {
	lim = lim.withDefaults()
	f, err := open(ctx, data, lim)
	if err != nil {
		return Document{}, err
	}
	d := &docReader{f: f, lim: lim, fonts: map[int]*font{}, defaultFont: &font{enc: standardEncoding, scale: 0.001, missing: 500}}
	root := f.catalog()
	if err := d.walk(root["Pages"], nil, nil, [4]float64{}, false, 0, 0, map[int]bool{}); err != nil {
		return Document{}, err
	}
	doc := Document{Pages: len(d.pages), Title: d.title(root)}
	lay := newLayout()
	var readErr error
	for i, pg := range d.pages {
		if i >= lim.MaxPages {
			readErr = limitErr("too many pages")
			break
		}
		if err := f.checkTime(); err != nil {
			readErr = err
			break
		}
		gl, err := d.readPage(pg)
		doc.Glyphs += len(gl)
		doc.Read++
		lay.page(gl, pg)
		if err != nil {
			readErr = err
			break
		}
		if lim.MaxChars > 0 && lay.chars > lim.MaxChars {
			break
		}
	}
	if readErr == nil && f.resolved > lim.MaxObjects {
		readErr = limitErr("too many objects resolved")
	}
	doc.Complete = doc.Read == doc.Pages && readErr == nil
	doc.Markdown = lay.finish()
	if doc.Title == "" {
		doc.Title = lay.firstHeading
	}
	if readErr != nil {
		return doc, readErr
	}
	if doc.Glyphs == 0 || strings.TrimSpace(doc.Markdown) == "" {
		return doc, ErrNoText
	}
	return doc, nil
}

// walk collects the pages of the page tree, with inherited attributes; a
// cycle or a tree deeper than MaxDepth is an error.
func (d *docReader) walk(o object, res dict, _ dict, box [4]float64, hasBox bool, rotate, depth int, seen map[int]bool) error {
	if depth > d.lim.MaxDepth {
		return malformed("page tree nested too deeply")
	}
	if r, ok := o.(ref); ok {
		if seen[r.num] {
			return malformed("page tree has a cycle")
		}
		seen[r.num] = true
	}
	n, _ := d.f.resolve(o).(dict)
	if n == nil {
		return nil
	}
	if r, ok := d.f.resolve(n["Resources"]).(dict); ok {
		res = r
	}
	for _, k := range []name{"MediaBox"} {
		if a, ok := d.f.resolve(n[k]).(array); ok && len(a) == 4 {
			if v, ok := nums([]object{d.f.resolve(a[0]), d.f.resolve(a[1]), d.f.resolve(a[2]), d.f.resolve(a[3])}, 4); ok {
				box, hasBox = [4]float64{min(v[0], v[2]), min(v[1], v[3]), max(v[0], v[2]), max(v[1], v[3])}, true
				break
			}
		}
	}
	if v, ok := asInt(d.f.resolve(n["Rotate"])); ok {
		rotate = ((v % 360) + 360) % 360
	}
	kids, isNode := d.f.resolve(n["Kids"]).(array)
	if !isNode || n.name("Type") == "Page" {
		if len(d.pages) >= d.lim.MaxPages*4 {
			return nil
		}
		d.pages = append(d.pages, pageRef{d: n, res: res, box: box, hasBox: hasBox, rotate: rotate})
		return nil
	}
	for _, k := range kids {
		if err := d.walk(k, res, nil, box, hasBox, rotate, depth+1, seen); err != nil {
			return err
		}
		if err := d.f.checkTime(); err != nil {
			return err
		}
	}
	return nil
}

// readPage interprets one page's content and returns its glyphs in user
// space turned upright by the page's rotation, without those outside the
// crop box.
func (d *docReader) readPage(pg pageRef) ([]glyph, error) {
	p := &pageReader{f: d.f, doc: d, res: pg.res, glyphs: d.glyphBuf[:0]}
	p.gs = gstate{ctm: identity, th: 1}
	defer func() { d.glyphBuf = p.glyphs[:0] }()
	var streams []*stream
	switch c := d.f.resolve(pg.d["Contents"]).(type) {
	case *stream:
		streams = append(streams, c)
	case array:
		for _, x := range c {
			if s, ok := d.f.resolve(x).(*stream); ok && len(streams) < 1024 {
				streams = append(streams, s)
			}
		}
	}
	for _, s := range streams {
		data, err := d.f.decode(s, d.lim.MaxStreamBytes)
		if err != nil {
			if err == errImage {
				continue
			}
			if errors.Is(err, ErrLimit) {
				return nil, err
			}
			continue
		}
		p.run(data, pg.res)
		if p.err != nil {
			break
		}
	}
	gl := p.glyphs
	if pg.hasBox {
		keep := gl[:0]
		const slack = 2
		for _, g := range gl {
			if g.x >= pg.box[0]-slack && g.x <= pg.box[2]+slack && g.y >= pg.box[1]-slack && g.y <= pg.box[3]+slack {
				keep = append(keep, g)
			}
		}
		gl = keep
	}
	if pg.rotate != 0 {
		for i := range gl {
			g := &gl[i]
			switch pg.rotate {
			case 90:
				g.x, g.y, g.dx, g.dy = g.y, -g.x, g.dy, -g.dx
			case 180:
				g.x, g.y, g.dx, g.dy = -g.x, -g.y, -g.dx, -g.dy
			case 270:
				g.x, g.y, g.dx, g.dy = -g.y, g.x, -g.dy, g.dx
			}
		}
	}
	if p.err != nil {
		return gl, p.err
	}
	return gl, nil
}

// title is the document's title from the Info dictionary, else from the
// XMP metadata's dc:title.
func (d *docReader) title(root dict) string {
	if info, ok := d.f.resolve(d.f.trailer["Info"]).(dict); ok {
		if s, ok := d.f.resolve(info["Title"]).(pstring); ok {
			if t := strings.Join(strings.Fields(textString([]byte(s))), " "); t != "" {
				return t
			}
		}
	}
	if ms, ok := d.f.resolve(root["Metadata"]).(*stream); ok {
		if data, err := d.f.decodeHead(ms, 256<<10); err == nil {
			return xmpTitle(data)
		}
	}
	return ""
}

// xmpTitle finds the first rdf:li of dc:title in an XMP packet.
func xmpTitle(data []byte) string {
	i := bytes.Index(data, []byte("<dc:title"))
	if i < 0 {
		return ""
	}
	data = data[i:]
	j := bytes.Index(data, []byte("</dc:title>"))
	if j < 0 {
		return ""
	}
	data = data[:j]
	k := bytes.Index(data, []byte("<rdf:li"))
	if k < 0 {
		return ""
	}
	data = data[k:]
	if g := bytes.IndexByte(data, '>'); g >= 0 {
		data = data[g+1:]
	}
	if e := bytes.Index(data, []byte("</rdf:li>")); e >= 0 {
		data = data[:e]
	}
	s := string(data)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "")
	}
	r := strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", "\"", "&apos;", "'", "&amp;", "&")
	return strings.Join(strings.Fields(r.Replace(s)), " ")
}
