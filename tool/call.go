package tool

import "context"

// Call identifies one tool call in the logs: a request identifier unique in
// the process and the caller (an operator's label, "local" on stdio). It is
// never returned to the caller.
type Call struct {
	RequestID string
	Caller    string
}

type callKey struct{}

// WithCall returns a context that carries c; every log event emitted with
// that context carries its request_id and caller.
func WithCall(ctx context.Context, c Call) context.Context {
	return context.WithValue(ctx, callKey{}, c)
}

// CallFrom returns the call carried by ctx, if any.
func CallFrom(ctx context.Context) (Call, bool) {
	c, ok := ctx.Value(callKey{}).(Call)
	return c, ok
}
