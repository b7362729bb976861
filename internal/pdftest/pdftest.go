// Package pdftest writes small PDF files for the tests and measurements of
// the binary and of web_fetch: text pages in Helvetica, a document that
// needs a password, and a document of images only. It is test support: no
// production code imports it.
package pdftest

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"strings"
)

// Options shape a document.
type Options struct {
	Title    string // the Info dictionary's title, "" for none
	Compress bool   // content streams with FlateDecode
	// Encrypt adds a standard security handler whose user password is not
	// empty, so the document cannot be opened.
	Encrypt bool
	// ImagesOnly draws an image XObject on each page instead of the text.
	ImagesOnly bool
}

// Document writes a PDF with one page per element of pages; each page
// shows its lines from the top, 14 points apart, in 12-point Helvetica.
func Document(opt Options, pages ...[]string) []byte {
	var objs []string
	var streams [][]byte
	add := func(body string, stream []byte) int {
		objs = append(objs, body)
		streams = append(streams, stream)
		return len(objs)
	}
	font := add("<</Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding>>", nil)
	pagesNum := add("", nil)
	image := 0
	if opt.ImagesOnly {
		image = add("<</Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8>>", []byte{0x80})
	}
	var kids []string
	for _, lines := range pages {
		var c strings.Builder
		if opt.ImagesOnly {
			c.WriteString("q 612 0 0 792 0 0 cm /Im1 Do Q\n")
		} else {
			c.WriteString("BT /F1 12 Tf 14 TL 72 740 Td\n")
			for _, l := range lines {
				fmt.Fprintf(&c, "(%s) Tj T*\n", escape(l))
			}
			c.WriteString("ET\n")
		}
		data := []byte(c.String())
		dict := "<<>>"
		if opt.Compress {
			data = deflate(data)
			dict = "<</Filter /FlateDecode>>"
		}
		content := add(dict, data)
		kids = append(kids, fmt.Sprintf("%d 0 R", add(fmt.Sprintf("<</Type /Page /Parent %d 0 R /Contents %d 0 R>>", pagesNum, content), nil)))
	}
	xobj := ""
	if image > 0 {
		xobj = fmt.Sprintf(" /XObject <</Im1 %d 0 R>>", image)
	}
	objs[pagesNum-1] = fmt.Sprintf("<</Type /Pages /Kids [%s] /Count %d /MediaBox [0 0 612 792] /Resources <</Font <</F1 %d 0 R>>%s>>>>",
		strings.Join(kids, " "), len(kids), font, xobj)
	root := add(fmt.Sprintf("<</Type /Catalog /Pages %d 0 R>>", pagesNum), nil)
	trailer := fmt.Sprintf("/Root %d 0 R", root)
	if opt.Title != "" {
		trailer += fmt.Sprintf(" /Info %d 0 R", add(fmt.Sprintf("<</Title (%s)>>", escape(opt.Title)), nil))
	}
	if opt.Encrypt {
		// U does not match the empty password: a user password is needed.
		enc := add(fmt.Sprintf("<</Filter /Standard /V 2 /R 3 /Length 128 /P -4 /O <%s> /U <%s>>>",
			strings.Repeat("4f", 32), strings.Repeat("55", 32)), nil)
		trailer += fmt.Sprintf(" /Encrypt %d 0 R /ID [<00112233445566778899aabbccddeeff> <00112233445566778899aabbccddeeff>]", enc)
	}
	var buf bytes.Buffer
	buf.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objs))
	for i, body := range objs {
		offsets[i] = buf.Len()
		if streams[i] != nil {
			body = strings.TrimSuffix(body, ">>") + fmt.Sprintf(" /Length %d>>", len(streams[i]))
			fmt.Fprintf(&buf, "%d 0 obj\n%s\nstream\n%s\nendstream\nendobj\n", i+1, body, streams[i])
		} else {
			fmt.Fprintf(&buf, "%d 0 obj\n%s\nendobj\n", i+1, body)
		}
	}
	xref := buf.Len()
	fmt.Fprintf(&buf, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offsets {
		fmt.Fprintf(&buf, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&buf, "trailer\n<</Size %d %s>>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, trailer, xref)
	return buf.Bytes()
}

func escape(s string) string {
	return strings.NewReplacer("\\", "\\\\", "(", "\\(", ")", "\\)").Replace(s)
}

func deflate(b []byte) []byte {
	var buf bytes.Buffer
	w := zlib.NewWriter(&buf)
	_, _ = w.Write(b)
	_ = w.Close()
	return buf.Bytes()
}
