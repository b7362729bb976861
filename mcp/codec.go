package mcp

// The transport-neutral JSON-RPC 2.0 codec: decoding one message, the split
// of an object into its members, and the encoders of answers. A transport
// hands it the bytes of one message and writes what it returns.

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// JSON-RPC and MCP error codes.
const (
	codeParseError         = -32700
	codeInvalidRequest     = -32600
	codeMethodNotFound     = -32601
	codeInvalidParams      = -32602
	codeInternalError      = -32603
	codeUnsupportedVersion = -32022
)

// msgKind classifies a decoded line.
type msgKind int

const (
	kindRequest msgKind = iota
	kindNotification
	kindResponse // a response from the client: accepted and ignored
)

// message is one decoded JSON-RPC message. id is the raw JSON of the id,
// echoed back byte for byte.
type message struct {
	kind   msgKind
	id     []byte
	method string
	params map[string]json.RawMessage // nil when absent
}

// rpcError is a protocol error answered instead of a result.
type rpcError struct {
	code    int
	message string
	data    any // encoded as JSON when not nil
}

// decodeMessage decodes one line. When the line cannot be served it returns
// the error to answer and the id to answer it with (null when unknown);
// a nil error with a nil message means there is nothing to answer.
func decodeMessage(line []byte) (*message, []byte, *rpcError) {
	parseError := &rpcError{code: codeParseError, message: "Parse error: the line is not valid JSON in UTF-8"}
	if !utf8.Valid(line) {
		return nil, nil, parseError
	}
	// One validation of the whole line; the members are then split by a
	// scan that relies on it, at every level, instead of decoding again.
	if !json.Valid(line) {
		return nil, nil, parseError
	}
	// The values below are slices of this copy: the reader's buffer is
	// reused for the next line while a call may still read its arguments.
	line = bytes.Clone(line)
	obj, _ := members(line)
	if obj == nil {
		if firstByte(line) == '[' {
			return nil, nil, &rpcError{code: codeInvalidRequest, message: "Invalid Request: batches are not supported; send one message per line"}
		}
		return nil, nil, &rpcError{code: codeInvalidRequest, message: "Invalid Request: a message is a JSON object"}
	}
	rawID, hasID := obj["id"]
	var id []byte
	if hasID && validID(rawID) {
		id = rawID
	}
	rawMethod, hasMethod := obj["method"]
	if !hasMethod {
		_, hasResult := obj["result"]
		_, hasError := obj["error"]
		if hasID && (hasResult != hasError) {
			return &message{kind: kindResponse, id: id}, nil, nil
		}
		return nil, id, &rpcError{code: codeInvalidRequest, message: "Invalid Request: a request needs a method"}
	}
	if v, ok := obj["jsonrpc"]; !ok || string(v) != `"2.0"` {
		return nil, id, &rpcError{code: codeInvalidRequest, message: `Invalid Request: jsonrpc must be "2.0"`}
	}
	var method string
	if json.Unmarshal(rawMethod, &method) != nil || firstByte(rawMethod) != '"' {
		return nil, id, &rpcError{code: codeInvalidRequest, message: "Invalid Request: method must be a string"}
	}
	m := &message{kind: kindRequest, id: id, method: method}
	if !hasID {
		m.kind = kindNotification
	} else if id == nil {
		return nil, nil, &rpcError{code: codeInvalidRequest, message: "Invalid Request: id must be a string or an integer"}
	}
	if rawParams, ok := obj["params"]; ok && string(rawParams) != "null" {
		if firstByte(rawParams) != '{' {
			if m.kind == kindNotification {
				return nil, nil, nil
			}
			return nil, id, &rpcError{code: codeInvalidParams, message: "Invalid params: params must be an object"}
		}
		m.params, _ = members(rawParams)
	}
	return m, nil, nil
}

// members splits a JSON object that is already known to be valid into its
// members, each value kept as its exact bytes; a later duplicate key wins,
// as encoding/json decides. ok is false (and the map nil) when raw is not
// an object. Keys with escapes are unescaped by encoding/json.
func members(raw []byte) (map[string]json.RawMessage, bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	out := map[string]json.RawMessage{}
	i = skipSpace(raw, i+1)
	for i < len(raw) && raw[i] != '}' {
		kEnd := stringEnd(raw, i)
		key := raw[i+1 : kEnd-1]
		var k string
		if bytes.IndexByte(key, '\\') >= 0 || !utf8.Valid(key) {
			if json.Unmarshal(raw[i:kEnd], &k) != nil {
				return nil, false
			}
		} else {
			k = string(key)
		}
		i = skipSpace(raw, kEnd)
		i = skipSpace(raw, i+1) // the ':'
		vEnd := valueEnd(raw, i)
		out[k] = json.RawMessage(raw[i:vEnd])
		i = skipSpace(raw, vEnd)
		if i < len(raw) && raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
	}
	return out, true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// stringEnd returns the index just past the string that starts at i.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

// valueEnd returns the index just past the value that starts at i.
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				j = stringEnd(b, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(b)
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\r' && b[j] != '\n' {
		j++
	}
	return j
}

func firstByte(b []byte) byte {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}

// validID accepts a JSON string or an integer literal (no fraction, no
// exponent).
func validID(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	if b[0] == '"' {
		return true
	}
	i := 0
	if b[0] == '-' {
		i = 1
	}
	if i == len(b) {
		return false
	}
	for ; i < len(b); i++ {
		if b[i] < '0' || b[i] > '9' {
			return false
		}
	}
	return true
}

// idKey names a request id for the table of calls in flight, so that "7"
// written as "\u0037" and 7 written as 7 each match themselves.
func idKey(raw []byte) (string, bool) {
	if !validID(raw) {
		return "", false
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return "s" + s, true
	}
	return "n" + string(raw), true
}

// encodeJSON writes v as compact JSON without HTML escaping, so that the
// text rendering of a response equals what a reader expects (& stays &).
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}

// appendJSONString appends s as a JSON string literal the way
// encoding/json writes it without HTML escaping: invalid UTF-8 becomes
// U+FFFD, control characters and U+2028, U+2029 are escaped.
func appendJSONString(dst []byte, s []byte) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// idHead is the start of every answer, up to and including its id; a nil
// id is null.
func idHead(id []byte) []byte {
	if id == nil {
		id = []byte("null")
	}
	b := make([]byte, 0, len(id)+24)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	return append(b, id...)
}

// resultTail is the rest of a result answer after its id, newline included.
func resultTail(result []byte) []byte {
	b := make([]byte, 0, len(result)+12)
	b = append(b, `,"result":`...)
	b = append(b, result...)
	return append(b, '}', '\n')
}

// errorTail is the rest of an error answer after its id, newline included.
func errorTail(e *rpcError) []byte {
	b := make([]byte, 0, 128)
	b = append(b, `,"error":{"code":`...)
	b = strconv.AppendInt(b, int64(e.code), 10)
	b = append(b, `,"message":`...)
	b = appendJSONString(b, []byte(e.message))
	if e.data != nil {
		if d, err := encodeJSON(e.data); err == nil {
			b = append(b, `,"data":`...)
			b = append(b, d...)
		}
	}
	return append(b, '}', '}', '\n')
}

// errorLine is the whole line of an error answer, newline included.
func errorLine(id []byte, e *rpcError) []byte {
	return append(idHead(id), errorTail(e)...)
}
