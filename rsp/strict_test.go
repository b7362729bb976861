package rsp

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestStrictJSON_RefusesWhatReadersDisagreeOn(t *testing.T) {
	deep := strings.Repeat(`{"a":`, maxDepth) + `1` + strings.Repeat(`}`, maxDepth)
	for in, ok := range map[string]bool{
		`{}`: true,
		" \t\r\n{\"a\":[1,-0,0.5,1e9,true,null]}\n":         true,
		`{"a":{"k":1},"b":{"k":2}}`:                         true, // sibling objects may repeat a key
		`{"lo":-9007199254740991,"hi":9007199254740991}`:    true,
		`{"s":"\ud83d\ude00 é \u00e9 \" \\ \/ \b\f\n\r\t"}`: true,
		`{"f":1.5e300,"g":12345678901234567890.5}`:          true,
		deep:            true,
		`{"a":1,"a":2}`: false,
		`{"verdict":"BLOCK","\u0076erdict":"ALLOW"}`: false, // the same key after unescaping
		`{"m":{"k":1,"k":1}}`:                        false,
		`{"l":[{"k":1,"k":2}]}`:                      false,
		`{"s":"\ud800"}`:                             false,
		`{"s":"\udc00\ud800"}`:                       false,
		`{"s":"\ud800\u0041"}`:                       false,
		"{\"s\":\"\xed\xa0\x80\"}":                   false, // a raw surrogate
		"{\"s\":\"\xff\"}":                           false,
		`{"\ud800":1}`:                               false,
		`{"n":9007199254740992}`:                     false,
		`{"n":-9007199254740992}`:                    false,
		`{"n":123456789012345678}`:                   false,
		`{"n":NaN}`:                                  false,
		`{"n":Infinity}`:                             false,
		`{"n":-Infinity}`:                            false,
		`{"n":01}`:                                   false,
		`{"n":-01}`:                                  false,
		`{"n":1.}`:                                   false,
		`{"n":.5}`:                                   false,
		`{"n":1e}`:                                   false,
		`{"n":+1}`:                                   false,
		"\ufeff{}":                                   false,
		"{\"s\":\"a\tb\"}":                           false, // a raw control character
		`{"s":"\x41"}`:                               false,
		`{"a":1,}`:                                   false,
		`{"a":1}{}`:                                  false,
		`[]`:                                         false,
		`{"a" 1}`:                                    false,
		`{"a":tru}`:                                  false,
		"{\"a\":1}\v":                                false,
		`{"a":"`:                                     false,
		strings.Repeat(`{"a":`, maxDepth+1) + `1` + strings.Repeat(`}`, maxDepth+1):   false,
		`{"a":` + strings.Repeat(`[`, maxDepth) + strings.Repeat(`]`, maxDepth) + `}`: false,
	} {
		err := StrictJSON([]byte(in))
		if (err == nil) != ok {
			t.Errorf("%.60q: %v, want ok=%v", in, err, ok)
		}
		var je *JSONError
		if err != nil && (!errors.As(err, &je) || je.Why == "" || je.Offset < 0 || je.Offset > len(in)) {
			t.Errorf("%.60q: the error %v names no place", in, err)
		}
	}
}

func TestStrictJSON_ARepeatedVerdictIsRefusedInEveryPosition(t *testing.T) {
	fields := []string{`"verdict":"BLOCK"`, `"reason":"r"`, `"severity":"high"`, `"extra":{"a":[1]}`}
	for i := 0; i <= len(fields); i++ {
		for _, second := range []string{`"verdict":"ALLOW"`, `"\u0076erdict":"ALLOW"`, `"verdic\u0074":"ALLOW"`} {
			all := append(append(append([]string{}, fields[:i]...), second), fields[i:]...)
			in := "{" + strings.Join(all, ",") + "}"
			if _, class := parseAnswer([]byte(in), ""); class != FailMalformed {
				t.Errorf("%s: class %q, want malformed", in, class)
			}
		}
	}
}

func TestStrictJSON_ARequestAPluginReadsIsRefusedLikeAnAnswer(t *testing.T) {
	for _, in := range []string{
		`{"rsp_version":"0.1","hook":"on_chunk","content":"harmless","content":"AKIA"}`,
		`{"rsp_version":"0.1","hook":"on_chunk","content":"x","a":1,"a":2}`,
		`{"rsp_version":"0.1","hook":"on_chunk","content":"x","unread":01}`,
		`{"rsp_version":"0.1","hook":"on_chunk","content":"\ud800"}`,
		`{"rsp_version":"0.1","hook":"on_chunk","content":"x","n":NaN}`,
		"\ufeff{\"rsp_version\":\"0.1\",\"hook\":\"on_chunk\",\"content\":\"x\"}",
	} {
		if _, _, err := ReadRequest([]byte(in)); err == nil || !strings.Contains(err.Error(), "not strict JSON") {
			t.Errorf("%s: %v", in, err)
		}
	}
}

// dupFree reports, independently of the walker, whether no object in the
// valid JSON b repeats a key, and whether b is one object.
func dupFree(b []byte) (oneObject, noRepeats bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	type frame struct {
		keys   map[string]bool
		object bool
		key    bool // the next token of an object is a key
	}
	var stack []*frame
	first := true
	for {
		tok, err := dec.Token()
		if err != nil {
			return true, true
		}
		if first {
			if d, ok := tok.(json.Delim); !ok || d != '{' {
				return false, true
			}
			first = false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.key {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				continue
			}
			k := tok.(string)
			if top.keys[k] {
				return true, false
			}
			top.keys[k] = true
			top.key = false
			continue
		}
		if top != nil && top.object {
			top.key = true
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{keys: map[string]bool{}, object: true, key: true})
		case json.Delim('['):
			stack = append(stack, &frame{})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
	}
}

// FuzzStrictJSON feeds arbitrary bytes to the walker: it never panics,
// and what it accepts is one JSON object that encoding/json also reads,
// with no key repeated in any object and valid UTF-8 throughout.
func FuzzStrictJSON(f *testing.F) {
	for _, seed := range []string{
		`{"verdict":"ALLOW"}`,
		`{"a":{"k":1},"b":[{"k":2},{"k":3}],"s":"\ud83d\ude00"}`,
		`{"a":1,"a":2}`,
		`{"n":9007199254740991,"m":-0.5e-3}`,
		`{"s":"\ud800"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if StrictJSON(b) != nil {
			return
		}
		if !json.Valid(b) {
			t.Fatalf("accepted what is not JSON: %q", b)
		}
		if one, noRepeats := dupFree(b); !one || !noRepeats {
			t.Fatalf("accepted %q: one object %v, no repeated key %v", b, one, noRepeats)
		}
		var v map[string]any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("accepted %q, which encoding/json refuses: %v", b, err)
		}
	})
}
