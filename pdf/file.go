package pdf

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/zlib"
	"context"
	"encoding/ascii85"
	"errors"
	"fmt"
	"io"
)

// xentry is where one object is: at an offset in the file (kind 1), or at
// index idx of the object stream stm (kind 2).
type xentry struct {
	kind     uint8
	off, gen int
	stm, idx int
}

// objStm is a decoded object stream: its bytes and where each object starts.
type objStm struct {
	data []byte
	nums []int
	offs []int
}

// file is one PDF being read: the bytes, the cross-reference, the objects
// resolved so far and the budgets spent.
type file struct {
	ctx     context.Context
	b       []byte
	base    int // where %PDF- starts; offsets count from there
	lim     Limits
	xref    map[int]xentry
	trailer dict
	cache   map[int]object
	busy    map[int]bool // objects being resolved: a reference loop ends here
	stms    map[int]*objStm
	crypt   *decrypter

	resolved    int   // objects parsed
	decoded     int64 // bytes out of filters, the whole document
	timeChecked int64 // decoded when the deadline was last looked at
	repaired    bool
}

// open reads the cross-reference and the trailer, repairing them by a scan
// of the file when they cannot be followed.
func open(ctx context.Context, b []byte, lim Limits) (*file, error) {
	i := bytes.Index(b[:min(len(b), 1024)], []byte("%PDF-"))
	if i < 0 {
		return nil, malformed("no %%PDF- header in the first 1024 bytes")
	}
	f := &file{ctx: ctx, b: b, base: i, lim: lim, cache: map[int]object{}, busy: map[int]bool{}, stms: map[int]*objStm{}}
	if err := f.readXref(); err != nil || f.catalog() == nil {
		if err := f.repair(); err != nil {
			return nil, err
		}
	}
	if enc, ok := f.trailer["Encrypt"]; ok && enc != nil {
		ed, _ := f.resolve(enc).(dict)
		if ed == nil {
			return nil, malformed("the /Encrypt entry is not a dictionary")
		}
		var id []byte
		if ids, ok := f.resolve(f.trailer["ID"]).(array); ok && len(ids) > 0 {
			s, _ := f.resolve(ids[0]).(pstring)
			id = []byte(s)
		}
		c, err := newDecrypter(ed, id)
		if err != nil {
			return nil, err
		}
		f.crypt = c
		if r, ok := enc.(ref); ok {
			c.encObj = r.num
		}
		// Objects read before the handler was known are read again.
		for k := range f.cache {
			if r, ok := enc.(ref); !ok || k != r.num {
				delete(f.cache, k)
			}
		}
	}
	if f.resolved > lim.MaxObjects {
		return nil, limitErr("too many objects resolved")
	}
	if f.catalog() == nil {
		return nil, malformed("no document catalog")
	}
	return f, nil
}

func (f *file) catalog() dict {
	d, _ := f.resolve(f.trailer["Root"]).(dict)
	return d
}

// readXref follows startxref and every /Prev and /XRefStm, newest first.
func (f *file) readXref() error {
	tail := f.b[max(0, len(f.b)-4096):]
	i := bytes.LastIndex(tail, []byte("startxref"))
	if i < 0 {
		return malformed("no startxref")
	}
	lx := lexer{b: tail, pos: i + len("startxref"), maxDepth: 4}
	t := lx.next()
	off, ok := t.num.(int64)
	if t.kind != tokNum || !ok {
		return malformed("startxref is not followed by an offset")
	}
	f.xref = map[int]xentry{}
	seen := map[int]bool{}
	queue := []int{int(min(off, 1<<40))}
	for len(queue) > 0 {
		o := queue[0]
		queue = queue[1:]
		if seen[o] || len(seen) > 1000 {
			continue
		}
		seen[o] = true
		tr, err := f.readSection(o + f.base)
		if err != nil && f.base != 0 {
			tr, err = f.readSection(o)
		}
		if err != nil {
			return err
		}
		if f.trailer == nil {
			f.trailer = dict{}
		}
		for k, v := range tr {
			if _, ok := f.trailer[k]; !ok && k != "Prev" && k != "XRefStm" {
				f.trailer[k] = v
			}
		}
		if x, ok := asInt(tr["XRefStm"]); ok && x >= 0 {
			queue = append([]int{x}, queue...)
		}
		if p, ok := asInt(tr["Prev"]); ok && p >= 0 {
			queue = append(queue, p)
		}
	}
	return nil
}

// readSection reads one classic table with its trailer, or one
// cross-reference stream, adding the entries not already known.
func (f *file) readSection(off int) (dict, error) {
	if off < 0 || off >= len(f.b) {
		return nil, malformed("cross-reference offset outside the file")
	}
	lx := lexer{b: f.b, pos: off, maxDepth: f.lim.MaxDepth}
	lx.skipSpace()
	if bytes.HasPrefix(f.b[lx.pos:], []byte("xref")) {
		lx.pos += 4
		for {
			save := lx.pos
			t := lx.next()
			if t.kind == tokKeyword && string(t.s) == "trailer" {
				tr, err := lx.object(0)
				d, _ := tr.(dict)
				if err != nil || d == nil {
					return nil, malformed("trailer is not a dictionary")
				}
				return d, nil
			}
			start, ok1 := t.num.(int64)
			t2 := lx.next()
			count, ok2 := t2.num.(int64)
			if t.kind != tokNum || t2.kind != tokNum || !ok1 || !ok2 || start < 0 || count < 0 || count > int64(len(f.b)/10+1) {
				_ = save
				return nil, malformed("cross-reference table is broken")
			}
			for k := int64(0); k < count; k++ {
				a, b, c := lx.next(), lx.next(), lx.next()
				o, _ := a.num.(int64)
				g, _ := b.num.(int64)
				if a.kind != tokNum || b.kind != tokNum || c.kind != tokKeyword {
					return nil, malformed("cross-reference entry is broken")
				}
				num := int(start + k)
				if _, ok := f.xref[num]; ok {
					continue
				}
				if string(c.s) == "n" && o > 0 {
					f.xref[num] = xentry{kind: 1, off: int(min(o, 1<<40)), gen: int(min(g, 1<<20))}
				} else {
					f.xref[num] = xentry{}
				}
			}
		}
	}
	// A cross-reference stream.
	_, o, err := f.parseAt(off, -1)
	if err != nil {
		return nil, err
	}
	s, ok := o.(*stream)
	if !ok || s.hdr.name("Type") != "XRef" {
		return nil, malformed("no cross-reference at the offset")
	}
	data, err := f.decode(s, 64<<20)
	if err != nil {
		return nil, err
	}
	w, _ := s.hdr["W"].(array)
	if len(w) < 3 {
		return nil, malformed("cross-reference stream without /W")
	}
	var ws [3]int
	for i := range ws {
		ws[i], _ = asInt(w[i])
		if ws[i] < 0 || ws[i] > 8 {
			return nil, malformed("cross-reference stream /W out of range")
		}
	}
	size, _ := asInt(s.hdr["Size"])
	idx, _ := s.hdr["Index"].(array)
	if len(idx) == 0 {
		idx = array{int64(0), int64(size)}
	}
	row := ws[0] + ws[1] + ws[2]
	if row == 0 {
		return nil, malformed("cross-reference stream /W is empty")
	}
	p := 0
	for i := 0; i+1 < len(idx); i += 2 {
		start, _ := asInt(idx[i])
		count, _ := asInt(idx[i+1])
		for k := 0; k < count && p+row <= len(data); k++ {
			field := func(n int) int {
				v := 0
				for j := 0; j < ws[n]; j++ {
					v = v<<8 | int(data[p])
					p++
				}
				return v
			}
			typ := 1
			if ws[0] > 0 {
				typ = field(0)
			}
			a, b := field(1), field(2)
			num := start + k
			if _, ok := f.xref[num]; ok || num < 0 {
				continue
			}
			switch typ {
			case 1:
				f.xref[num] = xentry{kind: 1, off: a, gen: b}
			case 2:
				f.xref[num] = xentry{kind: 2, stm: a, idx: b}
			default:
				f.xref[num] = xentry{}
			}
		}
	}
	return s.hdr, nil
}

// repair rebuilds the cross-reference by scanning the file for "n g obj"
// headers; the last definition of a number wins, as in an incremental
// update.
func (f *file) repair() error {
	f.repaired = true
	f.xref = map[int]xentry{}
	f.cache = map[int]object{}
	f.stms = map[int]*objStm{}
	var trailer dict
	var objStms []int
	b := f.b
	for i := 0; ; {
		j := bytes.Index(b[i:], []byte("obj"))
		if j < 0 {
			break
		}
		at := i + j
		i = at + 3
		if err := f.ctx.Err(); err != nil {
			return err
		}
		if at+3 < len(b) && isRegular(b[at+3]) {
			continue
		}
		// Walk back over " gen num".
		k := at - 1
		for k >= 0 && isWhite(b[k]) {
			k--
		}
		ge := k
		for k >= 0 && b[k] >= '0' && b[k] <= '9' {
			k--
		}
		if k == ge || k < 0 || !isWhite(b[k]) {
			continue
		}
		gs := k + 1
		for k >= 0 && isWhite(b[k]) {
			k--
		}
		ne := k
		for k >= 0 && b[k] >= '0' && b[k] <= '9' {
			k--
		}
		if k == ne || (k >= 0 && isRegular(b[k])) || ne-k > 10 || ge-gs > 5 {
			continue
		}
		num := atoiBytes(b[k+1 : ne+1])
		gen := atoiBytes(b[gs : ge+1])
		f.xref[num] = xentry{kind: 1, off: k + 1, gen: gen}
		head := b[at+3 : min(len(b), at+400)]
		if bytes.Contains(head, []byte("/ObjStm")) {
			objStms = append(objStms, num)
		}
		if bytes.Contains(head, []byte("/XRef")) || bytes.Contains(head, []byte("/Root")) {
			if _, o, err := f.parseAt(k+1, num); err == nil {
				if s, ok := o.(*stream); ok && s.hdr["Root"] != nil {
					trailer = s.hdr
				}
			}
		}
	}
	for i := 0; ; {
		j := bytes.Index(b[i:], []byte("trailer"))
		if j < 0 {
			break
		}
		i += j + 7
		lx := lexer{b: b, pos: i, maxDepth: f.lim.MaxDepth}
		if o, err := lx.object(0); err == nil {
			if d, ok := o.(dict); ok && d["Root"] != nil {
				trailer = d
			}
		}
	}
	for _, n := range objStms {
		st, err := f.objStream(n)
		if err != nil {
			continue
		}
		for i, num := range st.nums {
			if _, ok := f.xref[num]; !ok {
				f.xref[num] = xentry{kind: 2, stm: n, idx: i}
			}
		}
	}
	if trailer == nil {
		trailer = dict{}
	}
	f.trailer = trailer
	if f.catalog() == nil {
		// Look for the catalog itself.
		for num, e := range f.xref {
			if e.kind != 1 {
				continue
			}
			head := b[e.off:min(len(b), e.off+200)]
			if bytes.Contains(head, []byte("/Catalog")) {
				if d, ok := f.resolve(ref{num, e.gen}).(dict); ok && d.name("Type") == "Catalog" {
					trailer["Root"] = ref{num, e.gen}
					break
				}
			}
		}
	}
	if f.catalog() == nil {
		return malformed("no document catalog found, even by scanning the file")
	}
	return nil
}

func atoiBytes(b []byte) int {
	n := 0
	for _, c := range b {
		n = n*10 + int(c-'0')
	}
	return n
}

// parseAt parses the indirect object "n g obj ... endobj" at off. want is
// the expected number, or -1.
func (f *file) parseAt(off, want int) (ref, object, error) {
	if off < 0 || off >= len(f.b) {
		return ref{}, nil, malformed("object offset outside the file")
	}
	lx := lexer{b: f.b, pos: off, maxDepth: f.lim.MaxDepth}
	a, b, c := lx.next(), lx.next(), lx.next()
	n, ok1 := a.num.(int64)
	g, ok2 := b.num.(int64)
	if a.kind != tokNum || b.kind != tokNum || !ok1 || !ok2 || c.kind != tokKeyword || string(c.s) != "obj" {
		return ref{}, nil, malformed("no object header at the offset")
	}
	r := ref{int(min(n, 1<<31)), int(min(g, 1<<31))}
	if want >= 0 && r.num != want {
		return r, nil, malformed("object header names another object")
	}
	f.resolved++
	if f.resolved > f.lim.MaxObjects {
		return r, nil, limitErr("too many objects resolved")
	}
	o, err := lx.object(0)
	if err != nil {
		return r, nil, err
	}
	d, ok := o.(dict)
	if !ok {
		return r, o, nil
	}
	save := lx.pos
	t := lx.next()
	if t.kind != tokKeyword || string(t.s) != "stream" {
		lx.pos = save
		return r, d, nil
	}
	p := lx.pos
	if p < len(f.b) && f.b[p] == '\r' {
		p++
	}
	if p < len(f.b) && f.b[p] == '\n' {
		p++
	}
	s := &stream{hdr: d, from: p, own: r}
	length := -1
	if lo := d["Length"]; lo != nil {
		var lv object = lo
		if lr, ok := lo.(ref); ok && lr.num != r.num && !f.busy[lr.num] {
			lv = f.resolve(lr)
		}
		if l, ok := asInt(lv); ok {
			length = l
		}
	}
	end := p + length
	if length < 0 || end > len(f.b) || !endsStream(f.b, end) {
		k := bytes.Index(f.b[p:], []byte("endstream"))
		if k < 0 {
			end = len(f.b)
		} else {
			end = p + k
			for end > p && (f.b[end-1] == '\n' || f.b[end-1] == '\r') {
				end--
			}
		}
	}
	s.to = end
	return r, s, nil
}

func endsStream(b []byte, end int) bool {
	for end < len(b) && isWhite(b[end]) {
		end++
	}
	return bytes.HasPrefix(b[end:], []byte("endstream"))
}

// resolve follows references to their objects; a missing, looping or
// broken object is null, as readers treat it.
func (f *file) resolve(o object) object {
	for depth := 0; ; depth++ {
		r, ok := o.(ref)
		if !ok {
			return o
		}
		if depth >= f.lim.MaxDepth {
			return nil
		}
		o = f.object(r)
	}
}

// object is the object r names, read once.
func (f *file) object(r ref) object {
	if o, ok := f.cache[r.num]; ok {
		return o
	}
	if f.busy[r.num] || f.resolved > f.lim.MaxObjects {
		return nil
	}
	e, ok := f.xref[r.num]
	if !ok || e.kind == 0 {
		return nil
	}
	f.busy[r.num] = true
	defer delete(f.busy, r.num)
	var o object
	switch e.kind {
	case 1:
		_, v, err := f.parseAt(e.off+f.base, r.num)
		if err != nil && f.base != 0 {
			_, v, err = f.parseAt(e.off, r.num)
		}
		if err != nil {
			return nil
		}
		o = v
		if f.crypt != nil && r.num != f.crypt.encObj {
			o = f.crypt.decryptStrings(o, r, 0)
		}
	case 2:
		st, err := f.objStream(e.stm)
		if err != nil || e.idx >= len(st.nums) {
			return nil
		}
		f.resolved++
		lx := lexer{b: st.data, pos: st.offs[e.idx], maxDepth: f.lim.MaxDepth}
		v, err := lx.object(0)
		if err != nil {
			return nil
		}
		if _, isStream := v.(*stream); isStream {
			return nil
		}
		o = v
	}
	f.cache[r.num] = o
	return o
}

// objStream decodes object stream n once.
func (f *file) objStream(n int) (*objStm, error) {
	if st, ok := f.stms[n]; ok {
		if st == nil {
			return nil, malformed("object stream refers to itself")
		}
		return st, nil
	}
	f.stms[n] = nil // an object stream that contains itself finds nil
	e, ok := f.xref[n]
	if !ok || e.kind != 1 {
		return nil, malformed("object stream not found")
	}
	_, o, err := f.parseAt(e.off+f.base, n)
	if err != nil {
		return nil, err
	}
	s, ok := o.(*stream)
	if !ok {
		return nil, malformed("object stream is not a stream")
	}
	s.own = ref{n, e.gen}
	data, err := f.decode(s, 16<<20)
	if err != nil {
		return nil, err
	}
	count, _ := asInt(s.hdr["N"])
	first, _ := asInt(s.hdr["First"])
	if count < 0 || first < 0 || first > len(data) || count > len(data) {
		return nil, malformed("object stream header out of range")
	}
	st := &objStm{data: data}
	lx := lexer{b: data[:first], maxDepth: 2}
	for i := 0; i < count; i++ {
		a, b := lx.next(), lx.next()
		num, ok1 := a.num.(int64)
		off, ok2 := b.num.(int64)
		if !ok1 || !ok2 || off < 0 || int(off)+first > len(data) {
			break
		}
		st.nums = append(st.nums, int(num))
		st.offs = append(st.offs, first+int(off))
	}
	f.stms[n] = st
	return st, nil
}

// checkTime ends the reading when the caller's deadline has passed.
func (f *file) checkTime() error {
	if err := f.ctx.Err(); err != nil {
		return fmt.Errorf("%w: %w", ErrLimit, err)
	}
	return nil
}

// decode returns the bytes of s after decryption and its filters, at most
// max bytes; more is an ErrLimit error. Every byte out of a filter counts
// against the document's MaxDecodedBytes.
func (f *file) decode(s *stream, max int64) ([]byte, error) {
	return f.decodeOpt(s, max, false)
}

// decodeHead returns at most max bytes of s, cutting without error.
func (f *file) decodeHead(s *stream, max int64) ([]byte, error) {
	return f.decodeOpt(s, max, true)
}

func (f *file) decodeOpt(s *stream, max int64, cut bool) ([]byte, error) {
	raw := s.raw
	if raw == nil {
		if s.from < 0 || s.to > len(f.b) || s.from > s.to {
			return nil, malformed("stream outside the file")
		}
		raw = f.b[s.from:s.to]
		if f.crypt != nil && s.hdr.name("Type") != "XRef" {
			var err error
			raw, err = f.crypt.decryptStream(raw, s.own, s.hdr)
			if err != nil {
				return nil, err
			}
		}
	}
	filters, params := filterList(f, s.hdr)
	if len(filters) == 0 {
		// Unfiltered bytes are used where they are, never copied.
		n := int64(len(raw))
		if n > max && !cut {
			return nil, limitErr("a stream decodes to more than the per-stream bound")
		}
		raw = raw[:min(n, max)]
		f.decoded += int64(len(raw))
		if f.decoded > f.lim.MaxDecodedBytes {
			return nil, limitErr("the document decodes to more bytes than allowed")
		}
		return raw, nil
	}
	var r io.Reader = bytes.NewReader(raw)
	for i, fl := range filters {
		var p dict
		if i < len(params) {
			p, _ = f.resolve(params[i]).(dict)
		}
		var err error
		r, err = f.filter(r, fl, p, max)
		if err != nil {
			return nil, err
		}
	}
	cr := &countReader{r: r, f: f, left: max}
	out, err := readAllCapped(cr, min(int64(len(raw))*4+512, max+1), max+1)
	if err == errStreamCap && cut {
		err = nil
	}
	if err != nil && !errors.Is(err, ErrLimit) && err != errStreamCap {
		// A damaged compressed stream keeps what was decoded, as readers do.
		err = nil
	}
	if err == errStreamCap {
		err = limitErr("a stream decodes to more than the per-stream bound")
	}
	return out, err
}

func filterList(f *file, h dict) ([]name, array) {
	var names []name
	switch v := f.resolve(h["Filter"]).(type) {
	case name:
		names = []name{v}
	case array:
		for _, x := range v {
			if n, ok := f.resolve(x).(name); ok {
				names = append(names, n)
			}
		}
	}
	var params array
	switch v := f.resolve(h["DecodeParms"]).(type) {
	case dict:
		params = array{v}
	case array:
		params = v
	}
	if len(names) > 8 {
		names = names[:8]
	}
	return names, params
}

// filter wraps r in one decoding filter.
func (f *file) filter(r io.Reader, fl name, p dict, max int64) (io.Reader, error) {
	switch fl {
	case "FlateDecode", "Fl":
		br := bufio.NewReader(r)
		var fr io.Reader
		if head, err := br.Peek(2); err == nil && (uint16(head[0])<<8|uint16(head[1]))%31 == 0 && head[0]&0x0f == 8 {
			zr, err := zlib.NewReader(br)
			if err != nil {
				return nil, malformed("bad zlib header")
			}
			fr = zr
		} else {
			fr = flate.NewReader(br)
		}
		return predictor(tolerant{fr}, p)
	case "LZWDecode", "LZW":
		early := 1
		if v, ok := asInt(p["EarlyChange"]); ok {
			early = v
		}
		in, err := readCapped(r, max*2+1024)
		if err != nil {
			return nil, err
		}
		return predictor(bytes.NewReader(lzwDecode(in, early != 0, max+1)), p)
	case "ASCII85Decode", "A85":
		in, err := readCapped(r, max*5/4+1024)
		if err != nil {
			return nil, err
		}
		in = bytes.TrimSpace(in)
		in = bytes.TrimPrefix(in, []byte("<~"))
		if i := bytes.Index(in, []byte("~>")); i >= 0 {
			in = in[:i]
		}
		out := make([]byte, len(in)+len(in)/4*4+4)
		n, _, _ := ascii85.Decode(out, in, true)
		return bytes.NewReader(out[:n]), nil
	case "ASCIIHexDecode", "AHx":
		in, err := readCapped(r, max*2+1024)
		if err != nil {
			return nil, err
		}
		lx := lexer{b: append([]byte{'<'}, in...)}
		return bytes.NewReader(lx.hexString()), nil
	case "RunLengthDecode", "RL":
		in, err := readCapped(r, max+1024)
		if err != nil {
			return nil, err
		}
		return bytes.NewReader(runLength(in, max+1)), nil
	case "Crypt":
		return r, nil
	case "DCTDecode", "DCT", "JPXDecode", "CCITTFaxDecode", "CCF", "JBIG2Decode":
		return nil, errImage
	}
	return nil, malformed("unknown filter")
}

// countReader counts decoded bytes against the stream's and the document's
// bounds.
type countReader struct {
	r    io.Reader
	f    *file
	left int64
}

func (c *countReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		var one [1]byte
		if n, _ := c.r.Read(one[:]); n > 0 {
			return 0, errStreamCap
		}
		return 0, io.EOF
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	c.f.decoded += int64(n)
	if c.f.decoded > c.f.lim.MaxDecodedBytes {
		return n, limitErr("the document decodes to more bytes than allowed")
	}
	if c.f.decoded-c.f.timeChecked >= 1<<20 {
		c.f.timeChecked = c.f.decoded
		if e := c.f.checkTime(); e != nil {
			return n, e
		}
	}
	return n, err
}
