package mcp

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzMembersMatchesEncodingJSON holds the member splitter of
// decodeMessage to encoding/json: for every valid JSON text, the same
// object-or-not answer, the same keys (a later duplicate winning), and each
// value's exact bytes.
func FuzzMembersMatchesEncodingJSON(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"a":1}}}`,
		`{ "a" : [1, {"b": "c\"}"}] , "a": "second", "\u0041": true }`,
		`{"k\\"ey":{"x":[[[]]]},"n":-1.5e3,"s":"\\\\","t":null}`,
		`{}`, ` { } `, `[1,2]`, `"str"`, `12`, `{"a":{"b":{"c":"}"}}}`,
		"{\"t\":\"tab\\there\",\n\"u\":\"\\u00e9\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		got, ok := members(raw)
		var want map[string]json.RawMessage
		err := json.Unmarshal(raw, &want)
		isObject := err == nil && want != nil
		if ok != isObject {
			t.Fatalf("%q: members ok=%v, encoding/json object=%v", raw, ok, isObject)
		}
		if !ok {
			return
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %d members, encoding/json %d", raw, len(got), len(want))
		}
		for k, v := range want {
			if !bytes.Equal(bytes.TrimSpace(got[k]), bytes.TrimSpace(v)) {
				t.Fatalf("%q: member %q is %q, encoding/json %q", raw, k, got[k], v)
			}
		}
	})
}
