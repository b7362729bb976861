package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"rypsok/tool"
)

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

// runCall validates, rate-limits and runs one call of a caller and renders
// its result. It reports false when the call was cancelled: a cancelled
// call has no answer. Refused calls (REQ-OBS-007) are those the adapter
// refuses (arguments, rate limit) and every denied or invalid_request error
// of a service; each is logged as refused and counted per tool and reason.
func (s *Server) runCall(ctx context.Context, caller string, spec *toolSpec, rawArgs json.RawMessage, rev *revision) ([]byte, bool) {
	start := s.now()
	var (
		body    []byte
		outcome string
		terr    *tool.Error
		callCtx = context.Background() // the log context until the service sees the call
		adapter bool                   // refused here: arguments or the rate limit
	)
	func() {
		defer func() {
			if recover() != nil {
				s.log.LogAttrs(callCtx, slog.LevelError, eventPanic, slog.String("tool", spec.name))
				body, terr = nil, panicError(spec.name)
			}
		}()
		args, order, aerr := decodeArguments(rawArgs)
		if aerr != nil {
			terr, adapter = aerr, true
			return
		}
		run, verr := spec.prepare(args, order)
		if verr != nil {
			terr, adapter = verr, true
			return
		}
		if ok, retryMs := s.limiter(caller, spec).admit(s.now()); !ok {
			// Logged with the caller: whose limit it was is the point.
			callCtx = tool.WithCall(context.Background(), tool.Call{RequestID: s.requestID(start), Caller: caller})
			terr, adapter = tool.RateLimited(retryMs), true
			return
		}
		call := tool.Call{RequestID: s.requestID(start), Caller: caller}
		callCtx = tool.WithCall(context.Background(), call)
		body, outcome, terr = run(tool.WithCall(ctx, call))
	}()

	latencyMs := s.now().Sub(start).Milliseconds()
	if ctx.Err() != nil {
		s.log.LogAttrs(callCtx, slog.LevelInfo, eventCall,
			slog.String("tool", spec.name), slog.String("outcome", outcomeCancelled), slog.Int64("latency_ms", latencyMs))
		return nil, false
	}
	var line []byte
	if terr != nil {
		line, outcome = s.renderEnvelope(rev, errorPayload(terr), true), string(terr.Kind)
	} else {
		line = s.renderEnvelope(rev, body, false)
	}
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
