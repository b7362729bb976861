package rsp_test

import (
	"context"
	"fmt"

	"rypsok/rsp"
)

// A host without plugins judges nothing and spawns nothing: every item
// comes back ALLOW, unchanged.
func ExampleHost_Judge() {
	h, err := rsp.New(context.Background(), rsp.DefaultSettings(), rsp.Deps{})
	if err != nil {
		panic(err)
	}
	for _, r := range h.Judge(context.Background(), rsp.HookRetrieve, rsp.ToolWebSearch, []rsp.Item{{Content: "a snippet"}}) {
		fmt.Println(r.Verdict, r.Content)
	}
	// Output: ALLOW a snippet
}

// An answer writes exactly the fields of its verdict.
func ExampleAnswer_MarshalJSON() {
	a := rsp.Answer{Verdict: rsp.Redact, Spans: []rsp.Span{{Start: 4, End: 11, Type: "password_value"}},
		Replacement: "[REDACTED:password_value]", Severity: rsp.Critical}
	b, _ := a.MarshalJSON()
	fmt.Println(string(b))
	// Output: {"verdict":"REDACT","spans":[{"start":4,"end":11,"type":"password_value"}],"replacement":"[REDACTED:password_value]","severity":"critical"}
}
