package pdf

import (
	"errors"
	"io"
)

// errImage is returned for a stream whose filter is an image codec; such
// streams are not read.
var errImage = errors.New("pdf: image stream not decoded")

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
