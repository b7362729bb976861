package pdf

import (
	"bytes"
	"compress/zlib"
	"crypto/aes"
	"crypto/cipher"
	"crypto/md5"
	"crypto/rc4"
	"crypto/sha256"
	"encoding/ascii85"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// builder writes PDF files object by object, for the test corpus. Text
// strings written with str() and every stream are encrypted when an
// encryption is chosen.
type builder struct {
	objs    []bobj
	root    int
	info    int
	xrefStm bool // a cross-reference stream instead of a table
	objStm  bool // non-stream objects inside one object stream
	crypt   *bcrypt
	header  string
	noXref  bool // write no cross-reference at all (broken file)
	badXref bool // write a table whose offsets are wrong
}

type bobj struct {
	body   string // the object, without "n 0 obj" and without a stream
	stream []byte // raw stream bytes (already filtered), nil for none
}

func newBuilder() *builder { return &builder{header: "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"} }

// add appends an object and returns its number.
func (b *builder) add(body string) int {
	b.objs = append(b.objs, bobj{body: body})
	return len(b.objs)
}

// set replaces object n.
func (b *builder) set(n int, body string) { b.objs[n-1] = bobj{body: body} }

// addStream appends a stream object; dict is the dictionary's inside
// without /Length.
func (b *builder) addStream(dict string, data []byte) int {
	b.objs = append(b.objs, bobj{body: "<<" + dict + ">>", stream: data})
	return len(b.objs)
}

var strMarker = regexp.MustCompile("\x01([0-9a-f]*)\x02")

// str is a string object whose bytes are encrypted with its object.
func str(s string) string { return "\x01" + hex.EncodeToString([]byte(s)) + "\x02" }

func deflate(data []byte) []byte {
	var buf bytes.Buffer
	w, _ := zlib.NewWriterLevel(&buf, zlib.BestCompression)
	w.Write(data)
	w.Close()
	return buf.Bytes()
}

func a85(data []byte) []byte {
	out := make([]byte, ascii85.MaxEncodedLen(len(data)))
	n := ascii85.Encode(out, data)
	return append(out[:n], "~>"...)
}

func ahx(data []byte) []byte { return []byte(hex.EncodeToString(data) + ">") }

// runLengthEncode writes literal runs of at most 128 bytes, and runs of one
// repeated byte as repeats.
func runLengthEncode(data []byte) []byte {
	var out []byte
	for i := 0; i < len(data); {
		j := i
		for j < len(data) && data[j] == data[i] && j-i < 128 {
			j++
		}
		if j-i >= 3 {
			out = append(out, byte(257-(j-i)), data[i])
			i = j
			continue
		}
		n := min(128, len(data)-i)
		out = append(out, byte(n-1))
		out = append(out, data[i:i+n]...)
		i += n
	}
	return append(out, 128)
}

// lzwEncode writes every byte as a literal code, with a clear code often
// enough that the code width stays 9 bits (early change, as PDF's default).
func lzwEncode(data []byte) []byte {
	var out []byte
	var acc uint64
	bits := 0
	emit := func(code int) {
		acc = acc<<9 | uint64(code)
		bits += 9
		for bits >= 8 {
			out = append(out, byte(acc>>(bits-8)))
			bits -= 8
		}
	}
	for i, c := range data {
		if i%200 == 0 {
			emit(256)
		}
		emit(int(c))
	}
	emit(257)
	if bits > 0 {
		out = append(out, byte(acc<<(8-bits)))
	}
	return out
}

// pngUp applies the PNG Up predictor to rows of width columns.
func pngUp(data []byte, width int) []byte {
	var out []byte
	prev := make([]byte, width)
	for i := 0; i < len(data); i += width {
		row := data[i:min(len(data), i+width)]
		out = append(out, 2)
		for k, c := range row {
			out = append(out, c-prev[k])
		}
		copy(prev, row)
	}
	return out
}

// bcrypt is the encryption side of the standard security handler with an
// empty user password and the owner password "owner".
type bcrypt struct {
	v, r, length int
	aes          bool
	key          []byte
	dict         string
	id           []byte
}

func newCrypt(t testing.TB, v, r, lengthBits int, useAES bool, userPassword string) *bcrypt {
	c := &bcrypt{v: v, r: r, length: lengthBits, aes: useAES, id: []byte("0123456789abcdef")}
	p := int32(-4)
	pad := func(pw string) []byte {
		return append([]byte(pw), passwordPad[:32-min(32, len(pw))]...)[:32]
	}
	if r <= 4 {
		n := lengthBits / 8
		// O (algorithm 3).
		ok := md5.Sum(pad("owner"))
		okey := ok[:]
		if r >= 3 {
			for i := 0; i < 50; i++ {
				s := md5.Sum(okey)
				okey = s[:]
			}
		}
		okey = okey[:n]
		o := pad(userPassword)
		rc, _ := rc4.NewCipher(okey)
		rc.XORKeyStream(o, o)
		if r >= 3 {
			k := make([]byte, n)
			for i := 1; i <= 19; i++ {
				for j := range k {
					k[j] = okey[j] ^ byte(i)
				}
				rc, _ := rc4.NewCipher(k)
				rc.XORKeyStream(o, o)
			}
		}
		// The file key (algorithm 2).
		h := md5.New()
		h.Write(pad(userPassword))
		h.Write(o)
		var pb [4]byte
		binary.LittleEndian.PutUint32(pb[:], uint32(p))
		h.Write(pb[:])
		h.Write(c.id)
		key := h.Sum(nil)
		if r >= 3 {
			for i := 0; i < 50; i++ {
				s := md5.Sum(key[:n])
				key = s[:]
			}
		}
		c.key = key[:n]
		// U (algorithms 4 and 5).
		var u []byte
		if r == 2 {
			u = make([]byte, 32)
			rc, _ := rc4.NewCipher(c.key)
			rc.XORKeyStream(u, passwordPad[:])
		} else {
			h := md5.New()
			h.Write(passwordPad[:])
			h.Write(c.id)
			x := h.Sum(nil)
			k := make([]byte, n)
			for i := 0; i < 20; i++ {
				for j := range k {
					k[j] = c.key[j] ^ byte(i)
				}
				rc, _ := rc4.NewCipher(k)
				rc.XORKeyStream(x, x)
			}
			u = append(x, make([]byte, 16)...)
		}
		cf := ""
		if v == 4 {
			cfm := "V2"
			if useAES {
				cfm = "AESV2"
			}
			cf = fmt.Sprintf("/CF <</StdCF <</CFM /%s /Length 16 /AuthEvent /DocOpen>>>> /StmF /StdCF /StrF /StdCF", cfm)
		}
		c.dict = fmt.Sprintf("<</Filter /Standard /V %d /R %d /Length %d /P %d /O <%x> /U <%x> %s>>", v, r, lengthBits, p, o, u, cf)
		return c
	}
	// Revisions 5 and 6: a random file key wrapped by the user key.
	c.key = []byte("0123456789abcdef0123456789abcdef")
	vsalt, ksalt := []byte("vsaltvsa"), []byte("ksaltksa")
	hash := func(salt []byte) []byte {
		if r == 5 {
			s := sha256.Sum256(append([]byte(userPassword), salt...))
			return s[:]
		}
		return hash2B([]byte(userPassword), salt, nil)
	}
	u := append(append(hash(vsalt), vsalt...), ksalt...)
	blk, err := aes.NewCipher(hash(ksalt))
	if err != nil {
		t.Fatal(err)
	}
	ue := make([]byte, 32)
	cipher.NewCBCEncrypter(blk, make([]byte, 16)).CryptBlocks(ue, c.key)
	o := bytes.Repeat([]byte{'o'}, 48)
	c.dict = fmt.Sprintf("<</Filter /Standard /V 5 /R %d /Length 256 /P %d /O <%x> /U <%x> /OE <%x> /UE <%x> /Perms <%x> /CF <</StdCF <</CFM /AESV3 /Length 32 /AuthEvent /DocOpen>>>> /StmF /StdCF /StrF /StdCF>>",
		r, p, o, u, bytes.Repeat([]byte{'e'}, 32), ue, bytes.Repeat([]byte{'p'}, 16))
	return c
}

func (c *bcrypt) encrypt(data []byte, num int) []byte {
	key := c.key
	if c.r <= 4 {
		h := md5.New()
		h.Write(c.key)
		h.Write([]byte{byte(num), byte(num >> 8), byte(num >> 16), 0, 0})
		if c.aes {
			h.Write([]byte("sAlT"))
		}
		key = h.Sum(nil)[:min(len(c.key)+5, 16)]
	}
	if !c.aes && c.r <= 4 {
		rc, _ := rc4.NewCipher(key)
		out := make([]byte, len(data))
		rc.XORKeyStream(out, data)
		return out
	}
	n := 16 - len(data)%16
	padded := append(append([]byte{}, data...), bytes.Repeat([]byte{byte(n)}, n)...)
	iv := []byte("IVIVIVIVIVIVIVIV")
	blk, _ := aes.NewCipher(key)
	out := make([]byte, len(padded))
	cipher.NewCBCEncrypter(blk, iv).CryptBlocks(out, padded)
	return append(iv, out...)
}

// bytes writes the file.
func (b *builder) bytes() []byte {
	var buf bytes.Buffer
	buf.WriteString(b.header)
	objs := append([]bobj{}, b.objs...)
	encNum := 0
	if b.crypt != nil {
		objs = append(objs, bobj{body: b.crypt.dict})
		encNum = len(objs)
	}
	render := func(num int, o bobj) (string, []byte) {
		body := strMarker.ReplaceAllStringFunc(o.body, func(m string) string {
			raw, _ := hex.DecodeString(m[1 : len(m)-1])
			if b.crypt != nil && num != encNum {
				raw = b.crypt.encrypt(raw, num)
			}
			return "<" + hex.EncodeToString(raw) + ">"
		})
		data := o.stream
		if data != nil && b.crypt != nil {
			data = b.crypt.encrypt(data, num)
		}
		return body, data
	}
	offsets := make([]int, len(objs)+1)
	inStm := map[int]int{} // object -> index in the object stream
	var stmNum int
	if b.objStm {
		var head, body strings.Builder
		var nums []int
		for i, o := range objs {
			num := i + 1
			if o.stream != nil || num == encNum {
				continue
			}
			text := strMarker.ReplaceAllStringFunc(o.body, func(m string) string { return "<" + m[1:len(m)-1] + ">" })
			fmt.Fprintf(&head, "%d %d ", num, body.Len())
			inStm[num] = len(nums)
			nums = append(nums, num)
			body.WriteString(text + "\n")
		}
		stmNum = len(objs) + 1
		data := deflate([]byte(head.String() + body.String()))
		if b.crypt != nil {
			data = b.crypt.encrypt(data, stmNum)
		}
		objs = append(objs, bobj{body: fmt.Sprintf("<</Type /ObjStm /N %d /First %d /Filter /FlateDecode>>", len(nums), head.Len()), stream: data})
		offsets = append(offsets, 0)
	}
	for i, o := range objs {
		num := i + 1
		if _, ok := inStm[num]; ok {
			continue
		}
		offsets[num] = buf.Len()
		body, data := o.body, o.stream
		if num != stmNum {
			body, data = render(num, o)
		}
		if data != nil {
			body = strings.TrimSuffix(body, ">>") + fmt.Sprintf(" /Length %d>>", len(data))
			fmt.Fprintf(&buf, "%d 0 obj\n%s\nstream\n%s\nendstream\nendobj\n", num, body, data)
		} else {
			fmt.Fprintf(&buf, "%d 0 obj\n%s\nendobj\n", num, body)
		}
	}
	trailer := fmt.Sprintf("/Size %d /Root %d 0 R", len(objs)+2, b.root)
	if b.info > 0 {
		trailer += fmt.Sprintf(" /Info %d 0 R", b.info)
	}
	if b.crypt != nil {
		trailer += fmt.Sprintf(" /Encrypt %d 0 R /ID [<%x> <%x>]", encNum, b.crypt.id, b.crypt.id)
	}
	if b.noXref {
		return buf.Bytes()
	}
	xrefAt := buf.Len()
	if b.xrefStm || b.objStm {
		num := len(objs) + 1
		var rows []byte
		for n := 0; n <= num; n++ {
			switch {
			case n == 0:
				rows = append(rows, 0, 0, 0, 0, 0xff, 0xff)
			case n == num:
				rows = append(rows, 1, byte(xrefAt>>24), byte(xrefAt>>16), byte(xrefAt>>8), byte(xrefAt), 0)
			case inStm[n] > 0 || (b.objStm && n != stmNum && objs[n-1].stream == nil && n != encNum):
				rows = append(rows, 2, byte(stmNum>>24), byte(stmNum>>16), byte(stmNum>>8), byte(stmNum), byte(inStm[n]))
			default:
				o := offsets[n]
				rows = append(rows, 1, byte(o>>24), byte(o>>16), byte(o>>8), byte(o), 0)
			}
		}
		data := deflate(pngUp(rows, 6))
		fmt.Fprintf(&buf, "%d 0 obj\n<</Type /XRef /W [1 4 1] %s /Size %d /Filter /FlateDecode /DecodeParms <</Predictor 12 /Columns 6>> /Length %d>>\nstream\n%s\nendstream\nendobj\n",
			num, strings.Replace(trailer, fmt.Sprintf("/Size %d ", len(objs)+2), "", 1), num+1, len(data), data)
		fmt.Fprintf(&buf, "startxref\n%d\n%%%%EOF\n", xrefAt)
		return buf.Bytes()
	}
	fmt.Fprintf(&buf, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for n := 1; n <= len(objs); n++ {
		o := offsets[n]
		if b.badXref {
			o += 7
		}
		fmt.Fprintf(&buf, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&buf, "trailer\n<<%s>>\nstartxref\n%d\n%%%%EOF\n", trailer, xrefAt)
	return buf.Bytes()
}

// page describes one page for simpleDoc.
type page struct {
	content string
	filter  string // "", "Flate", "LZW", "A85", "AHx", "RL", or "A85 Flate"
}

// simpleDoc builds a document whose pages use /F1 (Helvetica, the given
// encoding) and optionally other fonts in fonts ("/F2 5 0 R ...").
func (b *builder) simpleDoc(encoding string, fonts func(b *builder) string, pages ...page) {
	f1 := b.add("<</Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding " + encoding + ">>")
	extra := ""
	if fonts != nil {
		extra = fonts(b)
	}
	pagesNum := b.add("")
	var kids []string
	for _, p := range pages {
		data := []byte(p.content)
		filter := ""
		switch p.filter {
		case "Flate":
			data, filter = deflate(data), "/Filter /FlateDecode"
		case "LZW":
			data, filter = lzwEncode(data), "/Filter /LZWDecode"
		case "A85":
			data, filter = a85(data), "/Filter /ASCII85Decode"
		case "AHx":
			data, filter = ahx(data), "/Filter /ASCIIHexDecode"
		case "RL":
			data, filter = runLengthEncode(data), "/Filter /RunLengthDecode"
		case "A85 Flate":
			data, filter = a85(deflate(data)), "/Filter [/ASCII85Decode /FlateDecode]"
		}
		c := b.addStream(filter, data)
		kids = append(kids, fmt.Sprintf("%d 0 R", b.add(fmt.Sprintf("<</Type /Page /Parent %d 0 R /Contents %d 0 R>>", pagesNum, c))))
	}
	b.set(pagesNum, fmt.Sprintf("<</Type /Pages /Kids [%s] /Count %d /MediaBox [0 0 612 792] /Resources <</Font <</F1 %d 0 R %s>>>>>>", strings.Join(kids, " "), len(kids), f1, extra))
	b.root = b.add(fmt.Sprintf("<</Type /Catalog /Pages %d 0 R>>", pagesNum))
}

// textLines is a content stream that writes each line at 12 points, 14
// points apart, from the top of a letter page, with font /F1.
func textLines(x float64, lines ...string) string {
	var sb strings.Builder
	sb.WriteString("BT /F1 12 Tf 14 TL ")
	fmt.Fprintf(&sb, "%.1f 720 Td ", x)
	for _, l := range lines {
		fmt.Fprintf(&sb, "(%s) Tj T* ", escapePDF(l))
	}
	sb.WriteString("ET\n")
	return sb.String()
}

func escapePDF(s string) string {
	return strings.NewReplacer("\\", "\\\\", "(", "\\(", ")", "\\)").Replace(s)
}
