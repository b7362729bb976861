package mcp

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"rypsok/tool"
)

// startCall checks a tools/call request and runs it on its own goroutine.
// An unknown tool and a malformed request are protocol errors; everything
// else ends as a tool result.
func (c *conn) startCall(m *message, rev *revision) {
	name, isStr := stringArg(m.params["name"])
	if !isStr {
		c.replyError(m.id, &rpcError{code: codeInvalidParams, message: "Invalid params: name must be a string"})
		return
	}
	spec := c.s.catalog.lookup(name)
	if spec == nil {
		msg := "Unknown tool"
		if toolNameShaped(name) {
			msg += ": " + name
		}
		c.replyError(m.id, &rpcError{code: codeInvalidParams, message: msg})
		return
	}
	key, _ := idKey(m.id)
	ctx, cancel := context.WithCancel(context.Background())
	f := &inflight{key: key, cancel: cancel}
	c.mu.Lock()
	if c.closing {
		c.mu.Unlock()
		cancel()
		return
	}
	if _, dup := c.inflight[key]; dup {
		c.mu.Unlock()
		cancel()
		c.replyError(m.id, &rpcError{code: codeInvalidRequest, message: "Invalid Request: this id is already used by a call in flight"})
		return
	}
	c.inflight[key] = f
	c.calls.Add(1)
	c.mu.Unlock()

	args := m.params["arguments"]
	go func() {
		defer c.calls.Done()
		defer cancel()
		line, ok := c.s.runCall(ctx, spec, args, rev)
		if ok {
			c.mu.Lock()
			f.finished = true
			c.mu.Unlock()
			c.send(outMsg{call: f, head: idHead(m.id), tail: resultTail(line)})
			return
		}
		c.mu.Lock()
		if c.inflight[key] == f {
			delete(c.inflight, key)
		}
		c.mu.Unlock()
	}()
}

// toolNameShaped: the characters a tool name may have, at most 64 of them.
func toolNameShaped(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

// runCall validates, rate-limits and runs one call and renders its result.
// It reports false when the call was cancelled: a cancelled call has no
// answer. Refused calls (REQ-OBS-007) are those the adapter refuses
// (arguments, rate limit) and every denied or invalid_request error of a
// service; each is logged as refused and counted per tool and reason.
func (s *Server) runCall(ctx context.Context, spec *toolSpec, rawArgs rawValue, rev *revision) ([]byte, bool) {
	start := s.now()
	var (
		payload any
		terr    *tool.Error
		callCtx = context.Background() // the log context until the service sees the call
		adapter bool                   // refused here: arguments or the rate limit
	)
	func() {
		defer func() {
			if recover() != nil {
				s.log.LogAttrs(callCtx, slog.LevelError, eventPanic, slog.String("tool", spec.name))
				payload, terr = nil, panicError(spec.name)
			}
		}()
		payload, terr = s.validate(spec, rawArgs)
		if terr != nil {
			adapter = true
			return
		}
		if ok, retryMs := s.limits[spec.name].admit(s.now()); !ok {
			terr, adapter = tool.RateLimited(retryMs), true
			return
		}
		call := tool.Call{RequestID: s.requestID(start), Caller: callerStdio}
		callCtx = tool.WithCall(context.Background(), call)
		payload, terr = s.invoke(tool.WithCall(ctx, call), spec.name, payload)
	}()

	latencyMs := s.now().Sub(start).Milliseconds()
	if ctx.Err() != nil {
		s.log.LogAttrs(callCtx, slog.LevelInfo, eventCall,
			slog.String("tool", spec.name), slog.String("outcome", outcomeCancelled), slog.Int64("latency_ms", latencyMs))
		return nil, false
	}
	line, outcome := s.render(callCtx, spec.name, rev, payload, terr)
	attrs := []slog.Attr{slog.String("tool", spec.name), slog.String("outcome", outcome)}
	if terr != nil {
		attrs = append(attrs, slog.String("reason", refusalReason(terr)))
	}
	attrs = append(attrs, slog.Int64("latency_ms", latencyMs))
	s.log.LogAttrs(callCtx, slog.LevelInfo, eventCall, attrs...)
	if terr != nil && (adapter || terr.Kind == tool.KindDenied || terr.Kind == tool.KindInvalidRequest) {
		s.refused.add(spec.name, refusalReason(terr))
		s.log.LogAttrs(callCtx, slog.LevelWarn, eventRefused,
			slog.String("tool", spec.name), slog.String("kind", string(terr.Kind)), slog.String("reason", refusalReason(terr)))
	}
	return line, true
}

// refusalReason names an error by its detail.reason, or by its kind when it
// has none (invalid_request).
func refusalReason(e *tool.Error) string {
	if e.Detail.Reason != "" {
		return string(e.Detail.Reason)
	}
	return string(e.Kind)
}

// panicError is the answer of a call that panicked: unavailable.
func panicError(toolName string) *tool.Error {
	if toolName == tool.ToolWebFetch {
		return tool.Network()
	}
	return tool.AllFailed()
}

// requestID is the call's start time in milliseconds and a sequence number
// of the process, both in hexadecimal.
func (s *Server) requestID(start time.Time) string {
	return fmt.Sprintf("%012x-%06x", start.UnixMilli(), s.seq.Add(1))
}

// validate turns the arguments into the service's request.
func (s *Server) validate(spec *toolSpec, raw rawValue) (any, *tool.Error) {
	args, order, terr := decodeArguments(raw)
	if terr != nil {
		return nil, terr
	}
	switch spec.name {
	case tool.ToolWebSearch:
		req, terr := s.catalog.validateSearch(spec, s.set, args, order)
		return req, terr
	case tool.ToolWebFetch:
		req, terr := validateFetch(spec, s.set, args, order)
		return req, terr
	default:
		return nil, validateStatus(order)
	}
}

// invoke calls the service. A service that answers neither a response nor
// an error has failed.
func (s *Server) invoke(ctx context.Context, toolName string, req any) (any, *tool.Error) {
	switch toolName {
	case tool.ToolWebSearch:
		resp, terr := s.search.Search(ctx, req.(tool.SearchRequest))
		if terr != nil {
			return nil, terr
		}
		if resp == nil {
			return nil, tool.AllFailed()
		}
		r := *resp
		r.Notices = nonNil(r.Notices)
		r.Results = nonNil(r.Results)
		return &r, nil
	case tool.ToolWebFetch:
		resp, terr := s.fetch.Fetch(ctx, req.(tool.FetchRequest))
		if terr != nil {
			return nil, terr
		}
		if resp == nil {
			return nil, tool.Network()
		}
		r := *resp
		r.Notices = nonNil(r.Notices)
		return &r, nil
	default:
		resp := s.search.Status(ctx)
		if resp == nil {
			return nil, tool.AllFailed()
		}
		r := *resp
		r.Engines = nonNil(r.Engines)
		r.Notices = nonNil(r.Notices)
		return &r, nil
	}
}

// nonNil makes an absent list an empty one: the schemas require arrays.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// render writes the result of a call: structuredContent and the same JSON
// as text, or the text alone when the operator switched structured content
// off or the revision has none. It also returns the outcome for the log.
func (s *Server) render(ctx context.Context, toolName string, rev *revision, payload any, terr *tool.Error) (line []byte, outcome string) {
	defer func() {
		if recover() != nil {
			s.log.LogAttrs(ctx, slog.LevelError, eventPanic, slog.String("tool", toolName))
			terr = panicError(toolName)
			line, outcome = s.renderEnvelope(rev, errorPayload(terr), true), string(terr.Kind)
		}
	}()
	if terr != nil {
		return s.renderEnvelope(rev, errorPayload(terr), true), string(terr.Kind)
	}
	body := mustJSON(payload)
	switch p := payload.(type) {
	case *tool.SearchResponse:
		outcome = string(p.Outcome)
	case *tool.FetchResponse:
		outcome = string(p.Outcome)
	case *tool.StatusResponse:
		outcome = string(p.Outcome)
	}
	return s.renderEnvelope(rev, body, false), outcome
}

// renderEnvelope writes a CallToolResult in the order resultType, content,
// structuredContent, isError.
func (s *Server) renderEnvelope(rev *revision, body []byte, isError bool) []byte {
	b := make([]byte, 0, 2*len(body)+96)
	b = append(b, '{')
	if rev.resultType {
		b = append(b, `"resultType":"complete",`...)
	}
	b = append(b, `"content":[{"type":"text","text":`...)
	b = appendJSONString(b, body)
	b = append(b, `}]`...)
	if rev.outputSchema && s.set.StructuredContent {
		b = append(b, `,"structuredContent":`...)
		b = append(b, body...)
	}
	if isError {
		b = append(b, `,"isError":true}`...)
	} else {
		b = append(b, `,"isError":false}`...)
	}
	return b
}

// errorPayload writes the error envelope {"error": {...}} with the members
// of the error in alphabetical order (detail, kind, message), like every
// other object of a response, so that the text is what a serializer with
// sorted keys would write.
func errorPayload(e *tool.Error) []byte {
	return mustJSON(jsonObj{{"error", jsonObj{
		{"detail", e.Detail},
		{"kind", e.Kind},
		{"message", e.Message},
	}}})
}
