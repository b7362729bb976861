package pdf

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/zlib"
	"encoding/ascii85"
	"errors"
	"io"
)

// errImage is returned for a stream whose filter is an image codec; such
// streams are not read.
var errImage = errors.New("pdf: image stream not decoded")

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

// readAllCapped reads r to its end into a buffer that starts at size and
// never grows beyond limit bytes of capacity.
func readAllCapped(r io.Reader, size, limit int64) ([]byte, error) {
	buf := make([]byte, 0, max(size, 512))
	for {
		if len(buf) == cap(buf) {
			n := min(int64(cap(buf))*2, limit)
			if n <= int64(cap(buf)) {
				n = int64(cap(buf)) + 512
			}
			nb := make([]byte, len(buf), n)
			copy(nb, buf)
			buf = nb
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

var errStreamCap = errors.New("stream cap")

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

// tolerant ends a damaged deflate stream quietly after what it decoded.
type tolerant struct{ r io.Reader }

func (t tolerant) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if err != nil && err != io.EOF && !errors.Is(err, ErrLimit) {
		err = io.EOF
	}
	return n, err
}

func readCapped(r io.Reader, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(tolerant{r}, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, limitErr("a filter's input is larger than allowed")
	}
	return b, nil
}

func runLength(in []byte, max int64) []byte {
	var out []byte
	for i := 0; i < len(in) && int64(len(out)) < max; {
		n := int(in[i])
		i++
		switch {
		case n < 128:
			end := min(len(in), i+n+1)
			out = append(out, in[i:end]...)
			i = end
		case n > 128:
			if i < len(in) {
				for k := 0; k < 257-n; k++ {
					out = append(out, in[i])
				}
				i++
			}
		default:
			return out
		}
	}
	return out
}

// lzwDecode is PDF's LZW: MSB-first codes of 9 to 12 bits, 256 clears and
// 257 ends; with early change the width grows one code early.
func lzwDecode(in []byte, early bool, max int64) []byte {
	var out []byte
	table := make([][]byte, 258, 4096)
	for i := 0; i < 256; i++ {
		table[i] = []byte{byte(i)}
	}
	width := 9
	var bitbuf uint32
	bits := 0
	var prev []byte
	e := 0
	if early {
		e = 1
	}
	for p := 0; int64(len(out)) < max; {
		for bits < width && p < len(in) {
			bitbuf = bitbuf<<8 | uint32(in[p])
			p++
			bits += 8
		}
		if bits < width {
			break
		}
		code := int(bitbuf>>(bits-width)) & (1<<width - 1)
		bits -= width
		switch {
		case code == 256:
			table = table[:258]
			width = 9
			prev = nil
			continue
		case code == 257:
			return out
		}
		var entry []byte
		switch {
		case code < len(table):
			entry = table[code]
		case code == len(table) && prev != nil:
			entry = append(append([]byte{}, prev...), prev[0])
		default:
			return out
		}
		out = append(out, entry...)
		if prev != nil && len(table) < 4096 {
			ne := make([]byte, len(prev)+1)
			copy(ne, prev)
			ne[len(prev)] = entry[0]
			table = append(table, ne)
		}
		prev = entry
		if len(table)+e >= 1<<width && width < 12 {
			width++
		}
	}
	return out
}

// predictor undoes a TIFF (2) or PNG (10-15) predictor.
func predictor(r io.Reader, p dict) (io.Reader, error) {
	pred, _ := asInt(p["Predictor"])
	if pred < 2 {
		return r, nil
	}
	colors, bpc, cols := 1, 8, 1
	if v, ok := asInt(p["Colors"]); ok && v > 0 && v <= 32 {
		colors = v
	}
	if v, ok := asInt(p["BitsPerComponent"]); ok && v > 0 && v <= 16 {
		bpc = v
	}
	if v, ok := asInt(p["Columns"]); ok && v > 0 && v <= 1<<20 {
		cols = v
	}
	bpp := max(1, colors*bpc/8)
	rowLen := (colors*bpc*cols + 7) / 8
	return &predReader{r: r, png: pred >= 10, bpp: bpp, cur: make([]byte, rowLen), prev: make([]byte, rowLen)}, nil
}

type predReader struct {
	r         io.Reader
	png       bool
	bpp       int
	cur, prev []byte
	pend      []byte
}

func (pr *predReader) Read(p []byte) (int, error) {
	for len(pr.pend) == 0 {
		if pr.png {
			var t [1]byte
			if _, err := io.ReadFull(pr.r, t[:]); err != nil {
				return 0, io.EOF
			}
			n, err := io.ReadFull(pr.r, pr.cur)
			if n == 0 && err != nil {
				return 0, io.EOF
			}
			row := pr.cur[:n]
			for i := range row {
				var a, b, c byte
				if i >= pr.bpp {
					a = row[i-pr.bpp]
					c = pr.prev[i-pr.bpp]
				}
				b = pr.prev[i]
				switch t[0] {
				case 1:
					row[i] += a
				case 2:
					row[i] += b
				case 3:
					row[i] += byte((int(a) + int(b)) / 2)
				case 4:
					row[i] += paeth(a, b, c)
				}
			}
			copy(pr.prev, pr.cur)
			pr.pend = append(pr.pend[:0], row...)
		} else {
			n, err := io.ReadFull(pr.r, pr.cur)
			if n == 0 && err != nil {
				return 0, io.EOF
			}
			row := pr.cur[:n]
			for i := pr.bpp; i < len(row); i++ {
				row[i] += row[i-pr.bpp]
			}
			pr.pend = append(pr.pend[:0], row...)
		}
	}
	n := copy(p, pr.pend)
	pr.pend = pr.pend[n:]
	return n, nil
}

func paeth(a, b, c byte) byte {
	p := int(a) + int(b) - int(c)
	pa, pb, pc := abs(p-int(a)), abs(p-int(b)), abs(p-int(c))
	if pa <= pb && pa <= pc {
		return a
	}
	if pb <= pc {
		return b
	}
	return c
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
