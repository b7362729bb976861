package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"unicode/utf8"

	"rypsok/tool"
)

// Argument validation (REQ-MCP-004): every argument is checked against the
// tool's input schema before any work starts, and every refusal is a tool
// error that says what to change. The checks run in a fixed order: the
// shape of arguments, unknown properties (in the order written), required
// properties, then each property in schema order.

// decodeArguments decodes the arguments member of tools/call: absent or null is
// {}, anything but an object is refused.
func decodeArguments(raw json.RawMessage) (map[string]json.RawMessage, []string, *tool.Error) {
	if raw == nil || string(raw) == "null" {
		return map[string]json.RawMessage{}, nil, nil
	}
	if firstByte(raw) != '{' {
		return nil, nil, tool.InvalidArguments()
	}
	args, order, err := decodeObject(raw)
	if err != nil {
		return nil, nil, tool.InvalidArguments()
	}
	return args, order, nil
}

// decodeObject decodes a JSON object and the order of its member names;
// of a name written twice the last value counts.
func decodeObject(raw []byte) (map[string]json.RawMessage, []string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, errNotObject
	}
	m := make(map[string]json.RawMessage)
	var order []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, nil, errNotObject
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		if _, dup := m[key]; !dup {
			order = append(order, key)
		}
		m[key] = json.RawMessage(v)
	}
	return m, order, nil
}

var errNotObject = errors.New("mcp: not a JSON object")

// firstUnknown returns the first member of order that spec does not list.
func firstUnknown(order []string, params []string) (string, bool) {
	for _, k := range order {
		known := false
		for _, p := range params {
			if k == p {
				known = true
				break
			}
		}
		if !known {
			return k, true
		}
	}
	return "", false
}

// jsonInteger reads an integer argument. A number whose value is whole is an
// integer (5.0 and 5e0 are 5); a fraction, a string or any other type is
// not. Values beyond ±2^62 are reported as out of range.
func jsonInteger(raw json.RawMessage) (v int64, isInt, inRange bool) {
	s := string(raw)
	if s == "" || !(s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
		return 0, false, false
	}
	neg := false
	if s[0] == '-' {
		neg = true
		s = s[1:]
	}
	mant, exp := s, 0
	if i := strings.IndexAny(mant, "eE"); i >= 0 {
		e := mant[i+1:]
		mant = mant[:i]
		eneg := false
		if e != "" && (e[0] == '+' || e[0] == '-') {
			eneg = e[0] == '-'
			e = e[1:]
		}
		for _, c := range e {
			if exp > 1_000_000 {
				break
			}
			exp = exp*10 + int(c-'0')
		}
		if eneg {
			exp = -exp
		}
	}
	digits := mant
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		digits = mant[:i] + mant[i+1:]
		exp -= len(mant) - i - 1
	}
	digits = strings.TrimLeft(digits, "0")
	for strings.HasSuffix(digits, "0") {
		digits = digits[:len(digits)-1]
		exp++
	}
	if digits == "" {
		return 0, true, true
	}
	if exp < 0 {
		return 0, false, false
	}
	const maxMagnitude = 1 << 62
	if len(digits)+exp > 19 {
		return 0, true, false
	}
	var u uint64
	for _, c := range digits {
		u = u*10 + uint64(c-'0')
	}
	for i := 0; i < exp; i++ {
		u *= 10
	}
	if u > maxMagnitude {
		return 0, true, false
	}
	v = int64(u)
	if neg {
		v = -v
	}
	return v, true, true
}

// intArg validates an optional integer in [min, max]; def is used when the
// argument is absent.
func intArg(args map[string]json.RawMessage, name string, min, max, def int64) (int64, *tool.Error) {
	raw, ok := args[name]
	if !ok {
		return def, nil
	}
	v, isInt, inRange := jsonInteger(raw)
	if !isInt {
		return 0, tool.InvalidType(name, "an integer")
	}
	if !inRange || v < min || v > max {
		return 0, tool.InvalidRange(name, min, max)
	}
	return v, nil
}

// stringArg reads a string argument.
func stringArg(raw json.RawMessage) (string, bool) {
	if firstByte(raw) != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// enumArg validates an optional enumerated string. A value of another type
// is refused like an unknown value, with the list of allowed values.
func enumArg[T ~string](args map[string]json.RawMessage, name string, allowed []T, def T) (T, *tool.Error) {
	raw, ok := args[name]
	if !ok {
		return def, nil
	}
	s, isStr := stringArg(raw)
	if isStr {
		for _, a := range allowed {
			if string(a) == s {
				return a, nil
			}
		}
	}
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
	}
	return def, tool.InvalidEnum(name, names)
}

// validateSearch turns the arguments of web_search into a complete request.
func (c *catalog) validateSearch(t *toolSpec, s Settings, args map[string]json.RawMessage, order []string) (tool.SearchRequest, *tool.Error) {
	var req tool.SearchRequest
	if name, ok := firstUnknown(order, t.params); ok && !(name == "language" && !c.languageParam && len(c.languages) == 1) {
		return req, tool.UnknownParameter(name, t.params)
	}
	raw, ok := args["query"]
	if !ok {
		return req, tool.MissingParameter("query")
	}
	q, isStr := stringArg(raw)
	if !isStr {
		return req, tool.InvalidType("query", "a string")
	}
	q = strings.TrimSpace(q)
	if n := utf8.RuneCountInString(q); n < 1 || n > s.QueryMaxChars {
		return req, tool.InvalidLength("query", 1, int64(s.QueryMaxChars))
	}
	req.Query = q

	req.Category = c.defaultCategory
	if len(c.categories) > 0 {
		cat, err := enumArg(args, "category", c.categories, c.defaultCategory)
		if err != nil {
			return req, err
		}
		req.Category = cat
	}

	n, err := intArg(args, "max_results", 1, int64(s.MaxResultsCeiling), int64(s.MaxResults))
	if err != nil {
		return req, err
	}
	req.MaxResults = int(n)

	if len(c.languages) > 0 {
		// With one language the parameter is not offered; a caller that
		// names that language anyway is served, another is refused.
		lang, err := enumArg(args, "language", c.languages, c.languages[0])
		if err != nil {
			return req, err
		}
		req.Language = lang
	}

	tr, err := enumArg(args, "time_range", tool.TimeRanges(), tool.TimeRangeNone)
	if err != nil {
		return req, err
	}
	req.TimeRange = tr
	return req, nil
}

// validateFetch turns the arguments of web_fetch into a complete request.
func validateFetch(t *toolSpec, s Settings, args map[string]json.RawMessage, order []string) (tool.FetchRequest, *tool.Error) {
	var req tool.FetchRequest
	if name, ok := firstUnknown(order, t.params); ok {
		return req, tool.UnknownParameter(name, t.params)
	}
	raw, ok := args["url"]
	if !ok {
		return req, tool.MissingParameter("url")
	}
	u, isStr := stringArg(raw)
	if !isStr {
		return req, tool.InvalidType("url", "a string")
	}
	if utf8.RuneCountInString(u) > tool.MaxURLChars {
		return req, tool.URLTooLong()
	}
	if !absoluteURL(u) {
		return req, tool.InvalidURL()
	}
	req.URL = u

	n, err := intArg(args, "max_chars", minMaxChars, int64(s.MaxCharsCeiling), int64(s.MaxChars))
	if err != nil {
		return req, err
	}
	req.MaxChars = int(n)

	start, err := intArg(args, "start_char", 0, maxStartChar, 0)
	if err != nil {
		return req, err
	}
	req.StartChar = int(start)
	return req, nil
}

// absoluteURL: a scheme and a host. Which schemes are allowed is the fetch
// policy's decision (denied, scheme), not a matter of form.
func absoluteURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != "" && u.Host != "" && u.Opaque == ""
}

// validateStatus: engine_status takes no parameters.
func validateStatus(order []string) *tool.Error {
	if len(order) > 0 {
		return tool.UnknownParameter(order[0], nil)
	}
	return nil
}
