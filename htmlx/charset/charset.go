package charset

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"
)

// prescanBytes is how much of a body the <meta> prescan reads (WHATWG).
const prescanBytes = 1024

// maxLabelBytes bounds a charset label taken from a header or a <meta>; no
// registered label is longer.
const maxLabelBytes = 64

// Decode converts a body to UTF-8 (REQ-PAGE-007). The encoding is chosen in
// this order, each step used only when it yields a supported encoding:
//
//  1. a byte order mark (UTF-8, UTF-16LE, UTF-16BE), which is removed;
//  2. the charset parameter of contentType;
//  3. unless contentType names a media type that is neither HTML nor XML
//     (text/plain, text/markdown), a <meta charset> or <meta
//     http-equiv="content-type"> declaration in the first 1024 bytes,
//     outside comments and scripts (a declared UTF-16 means UTF-8,
//     x-user-defined means windows-1252, as the WHATWG prescan says), then
//     the encoding of an XML declaration that opens the body;
//  4. nothing declared: valid UTF-8 is UTF-8, 7-bit text with ISO-2022-JP
//     escapes is ISO-2022-JP, otherwise the best-scoring legacy encoding
//     (see detectEncoding), and windows-1252 when nothing scores.
//
// Labels are resolved with the WHATWG table (golang.org/x/text/encoding/
// htmlindex). Unknown labels (utf-7, garbage) and labels of the WHATWG
// "replacement" encoding (iso-2022-kr, hz-gb-2312, iso-2022-cn, …) count as
// undeclared: a browser would show one U+FFFD for the whole document, which
// helps no reader, so Decode moves on to the next step instead. Invalid byte
// sequences become U+FFFD; the result is always valid UTF-8 and the cost is
// linear in the body.
func Decode(body []byte, contentType string) string {
	if enc, n := bomEncoding(body); enc != nil {
		return decodeCharset(enc, body[n:])
	}
	if enc := lookupCharsetLabel(contentTypeCharset(contentType)); enc != nil {
		return decodeCharset(enc, body)
	}
	if markupType(contentType) {
		if enc := prescanMeta(body); enc != nil {
			return decodeCharset(enc, body)
		}
		if enc := xmlDeclEncoding(body); enc != nil {
			return decodeCharset(enc, body)
		}
	}
	enc := detectEncoding(body)
	if enc == nil {
		return string(body)
	}
	return decodeCharset(enc, body)
}

// bomEncoding returns the encoding a byte order mark announces and the
// length of the mark, or nil.
func bomEncoding(body []byte) (encoding.Encoding, int) {
	switch {
	case bytes.HasPrefix(body, []byte{0xEF, 0xBB, 0xBF}):
		return unicode.UTF8, 3
	case bytes.HasPrefix(body, []byte{0xFE, 0xFF}):
		return unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), 2
	case bytes.HasPrefix(body, []byte{0xFF, 0xFE}):
		return unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), 2
	}
	return nil, 0
}

// decodeCharset decodes body with enc, replacing invalid sequences.
func decodeCharset(enc encoding.Encoding, body []byte) string {
	if enc == unicode.UTF8 && utf8.Valid(body) {
		return string(body)
	}
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		// The x/text decoders replace rather than fail; should one fail
		// anyway, windows-1252 maps every byte and cannot.
		out, _ = charmap.Windows1252.NewDecoder().Bytes(body)
	}
	if !utf8.Valid(out) {
		return strings.ToValidUTF8(string(out), "\uFFFD")
	}
	return string(out)
}

// lookupCharsetLabel resolves a WHATWG encoding label. It returns nil for an
// empty or unknown label and for the replacement encoding.
func lookupCharsetLabel(label string) encoding.Encoding {
	label = strings.TrimSpace(label)
	if label == "" || len(label) > maxLabelBytes {
		return nil
	}
	enc, err := htmlindex.Get(label)
	if err != nil || enc == encoding.Replacement {
		return nil
	}
	return enc
}

// markupType reports whether contentType leaves room for an in-document
// declaration: an HTML or XML media type, or none at all.
func markupType(contentType string) bool {
	mediaType, _, _ := strings.Cut(contentType, ";")
	mediaType = strings.ToLower(strings.TrimSpace(mediaType))
	return mediaType == "" || strings.Contains(mediaType, "html") || strings.Contains(mediaType, "xml")
}

// xmlDeclEncoding returns the encoding named by an XML declaration
// (<?xml version="1.0" encoding="..."?>) at the start of body, or nil. UTF-16
// is ignored for the same reason as in a <meta>: the declaration itself was
// readable as ASCII.
func xmlDeclEncoding(body []byte) encoding.Encoding {
	if len(body) > prescanBytes {
		body = body[:prescanBytes]
	}
	if !bytes.HasPrefix(body, []byte("<?xml")) {
		return nil
	}
	decl, _, found := bytes.Cut(body, []byte("?>"))
	if !found {
		return nil
	}
	_, rest, found := bytes.Cut(decl, []byte("encoding"))
	if !found {
		return nil
	}
	rest = bytes.TrimLeft(rest, " \t\r\n")
	if len(rest) < 2 || rest[0] != '=' {
		return nil
	}
	rest = bytes.TrimLeft(rest[1:], " \t\r\n")
	if len(rest) < 2 || (rest[0] != '"' && rest[0] != '\'') {
		return nil
	}
	label, _, found := bytes.Cut(rest[1:], rest[:1])
	if !found {
		return nil
	}
	enc := lookupCharsetLabel(string(label))
	if enc == nil {
		return nil
	}
	if name, _ := htmlindex.Name(enc); strings.HasPrefix(name, "utf-16") {
		return nil
	}
	return enc
}

// contentTypeCharset returns the first charset parameter of a Content-Type
// value. It is lenient where mime.ParseMediaType is strict: a duplicate
// parameter, an unbalanced quote or a broken neighbouring parameter does not
// hide the charset.
func contentTypeCharset(contentType string) string {
	_, params, found := strings.Cut(contentType, ";")
	for found {
		var param string
		param, params, found = strings.Cut(params, ";")
		name, value, ok := strings.Cut(param, "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(name), "charset") {
			continue
		}
		value = strings.TrimSpace(value)
		if len(value) > 0 && (value[0] == '"' || value[0] == '\'') {
			quote := value[0]
			value = value[1:]
			if end := strings.IndexByte(value, quote); end >= 0 {
				value = value[:end]
			}
		}
		return value
	}
	return ""
}

// prescanMeta looks for an encoding declaration in the first prescanBytes of
// body the way the WHATWG prescan does, using the x/net tokenizer, so that a
// declaration inside a comment, a script or a title is not one. It returns
// nil when no <meta> declares a supported encoding.
//
// golang.org/x/net/html/charset.DetermineEncoding implements the same steps
// but cannot be used as is: it reads the Content-Type strictly, accepts the
// replacement encoding, and its answer for "no declaration" (windows-1252,
// not certain) is indistinguishable from a declared windows-1252.
func prescanMeta(body []byte) encoding.Encoding {
	if len(body) > prescanBytes {
		body = body[:prescanBytes]
	}
	if !bytes.Contains(body, []byte("<")) {
		return nil
	}
	z := html.NewTokenizer(bytes.NewReader(body))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return nil
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			if string(name) != "meta" || !hasAttr {
				continue
			}
			if enc := metaEncoding(z); enc != nil {
				return enc
			}
		}
	}
}

// metaEncoding reads the attributes of one <meta> start tag and returns the
// encoding it declares, or nil. As in the WHATWG prescan, the first of a
// charset attribute and a usable content attribute decides, a repeated
// attribute is ignored, and content counts only beside
// http-equiv="content-type".
func metaEncoding(z *html.Tokenizer) encoding.Encoding {
	var (
		seenCharset, seenContent, seenHTTPEquiv bool
		decided, needPragma, gotPragma          bool
		enc                                     encoding.Encoding
	)
	for more := true; more; {
		var key, val []byte
		key, val, more = z.TagAttr()
		switch string(key) {
		case "http-equiv":
			if !seenHTTPEquiv {
				seenHTTPEquiv = true
				gotPragma = strings.EqualFold(strings.TrimSpace(string(val)), "content-type")
			}
		case "content":
			if !seenContent {
				seenContent = true
				if !decided {
					if e := lookupCharsetLabel(charsetFromMetaContent(string(val))); e != nil {
						enc, decided, needPragma = e, true, true
					}
				}
			}
		case "charset":
			if !seenCharset {
				seenCharset = true
				if !decided {
					enc, decided, needPragma = lookupCharsetLabel(string(val)), true, false
				}
			}
		}
	}
	if enc == nil || needPragma && !gotPragma {
		return nil
	}
	switch name, _ := htmlindex.Name(enc); name {
	case "utf-16le", "utf-16be":
		// A document that could state its encoding in ASCII is not UTF-16.
		return unicode.UTF8
	case "x-user-defined":
		return charmap.Windows1252
	}
	return enc
}

// charsetFromMetaContent extracts the charset from the content attribute of
// a <meta http-equiv="content-type">, following the WHATWG algorithm
// "extracting a character encoding from a meta element".
func charsetFromMetaContent(s string) string {
	for {
		i := asciiIndexFold(s, "charset")
		if i < 0 {
			return ""
		}
		s = strings.TrimLeft(s[i+len("charset"):], " \t\n\f\r")
		if !strings.HasPrefix(s, "=") {
			continue
		}
		s = strings.TrimLeft(s[1:], " \t\n\f\r")
		if s == "" {
			return ""
		}
		if q := s[0]; q == '"' || q == '\'' {
			end := strings.IndexByte(s[1:], q)
			if end < 0 {
				return ""
			}
			return s[1 : 1+end]
		}
		if end := strings.IndexAny(s, "; \t\n\f\r"); end >= 0 {
			return s[:end]
		}
		return s
	}
}

// asciiIndexFold is strings.Index for an ASCII-lower-case needle, ignoring ASCII
// case in s.
func asciiIndexFold(s, lowerNeedle string) int {
	for i := 0; i+len(lowerNeedle) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(lowerNeedle)], lowerNeedle) {
			return i
		}
	}
	return -1
}
