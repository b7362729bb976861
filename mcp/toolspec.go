package mcp

// toolspec.go holds what a tool is to the server: its spec, the run its
// handler prepares, the catalog that holds the tools, the ordered JSON
// object their definitions are written in, and the fixed bounds of the
// interface. tools.go builds the catalog; validate.go and call.go read it.

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"

	"rypsok/tool"
)

// Limits of the interface (LIM-I1 to LIM-I3) and fixed bounds of the
// parameters.
const (
	budgetChars      = 2000 // LIM-I1
	maxParams        = 5    // LIM-I2
	minMaxChars      = 500
	maxStartChar     = 1<<31 - 1 // start_char's stated upper bound; the content length is the real one
	cacheTTLMs       = 300000    // the tool list and discovery stay fresh for five minutes
	cacheScopePublic = "public"
)

// jsonObj is a JSON object whose members keep their order, so that every
// definition is written byte for byte the same.
type jsonObj []member

type member struct {
	key string
	val any
}

// MarshalJSON writes the members in order.
func (o jsonObj) MarshalJSON() ([]byte, error) {
	return appendValueJSON(nil, o)
}

// appendValueJSON appends v as compact JSON. The shapes of the definitions
// are written directly; anything else goes through encoding/json.
func appendValueJSON(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case jsonObj:
		b = append(b, '{')
		for i, m := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, []byte(m.key))
			b = append(b, ':')
			var err error
			if b, err = appendValueJSON(b, m.val); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case []jsonObj:
		b = append(b, '[')
		for i, o := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendValueJSON(b, o); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case []string:
		b = append(b, '[')
		for i, s := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, []byte(s))
		}
		return append(b, ']'), nil
	case string:
		return appendJSONString(b, []byte(x)), nil
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	default:
		enc, err := encodeJSON(v)
		if err != nil {
			return nil, err
		}
		return append(b, enc...), nil
	}
}

// toolSpec is one tool as the catalog offers it.
type toolSpec struct {
	name        string
	title       string
	description string
	input       jsonObj
	output      jsonObj
	openWorld   bool
	params      []string // the properties of the input schema, in order

	// limit is the tool's calls per minute per caller (LIM-C6 to LIM-C8).
	limit int
	// prepare validates the decoded arguments (REQ-MCP-004) into a call of
	// the tool's service, not yet started; the handler of the tool.
	prepare func(args map[string]json.RawMessage, order []string) (toolRun, *tool.Error)
}

// toolRun runs one validated call: the encoded response and its outcome,
// or the error of the service.
type toolRun func(ctx context.Context) (body []byte, outcome string, terr *tool.Error)

// catalog is the tool surface of one configuration: computed once, so that
// the same Settings always give the same bytes.
type catalog struct {
	tools []*toolSpec

	categories      []tool.Category // served, in schema order
	defaultCategory tool.Category
	languages       []string // configured; the first is the default
	languageParam   bool     // two or more languages: the parameter is offered

	// Encoded results per revision, made at the first request of that
	// revision (a process usually speaks one), and the discovery answer.
	settings     Settings
	encoded      []encodedRevision // indexed like revisions
	discoverTail []byte
	// discoverStatelessTail is the discovery of a transport that serves
	// no handshake revision.
	discoverStatelessTail []byte
}

// encodedRevision holds the answers of one revision, encoded once.
type encodedRevision struct {
	once           sync.Once
	toolsList      []byte
	toolsListTail  []byte
	initializeTail []byte
}
