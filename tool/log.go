package tool

import (
	"context"
	"io"
	"log/slog"
	"math"
	"strconv"
)

// timestampLayoutMs is the book's timestamp: RFC 3339 in UTC with
// milliseconds.
const timestampLayoutMs = "2006-01-02T15:04:05.000Z07:00"

// NewLogHandler returns the handler of rypsok's log lines: one JSON object
// per line with timestamp (RFC 3339 in UTC, milliseconds), level and event,
// plus request_id and caller for every event emitted with a call's
// context (WithCall). It is the standard library's JSON handler with the book's field
// names and value forms (durations in milliseconds, times in UTC), behind
// a handler that adds the call's fields.
func NewLogHandler(w io.Writer, level slog.Level) slog.Handler {
	base := slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level, ReplaceAttr: bookAttr})
	return &callHandler{base: base, plain: base}
}

// bookAttr renames the built-in fields and writes values as the book
// reads them.
func bookAttr(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 {
		switch a.Key {
		case slog.TimeKey:
			if a.Value.Kind() == slog.KindTime {
				return slog.String("timestamp", a.Value.Time().UTC().Format(timestampLayoutMs))
			}
		case slog.LevelKey:
			if l, ok := a.Value.Any().(slog.Level); ok {
				return slog.String("level", levelName(l))
			}
		case slog.MessageKey:
			return slog.Attr{Key: "event", Value: a.Value}
		}
	}
	switch a.Value.Kind() {
	case slog.KindDuration:
		return slog.Int64(a.Key, a.Value.Duration().Milliseconds())
	case slog.KindTime:
		return slog.String(a.Key, a.Value.Time().UTC().Format(timestampLayoutMs))
	case slog.KindFloat64:
		if f := a.Value.Float64(); math.IsNaN(f) || math.IsInf(f, 0) {
			return slog.String(a.Key, strconv.FormatFloat(f, 'g', -1, 64))
		}
	}
	return a
}

func levelName(l slog.Level) string {
	switch {
	case l < slog.LevelInfo:
		return "debug"
	case l < slog.LevelWarn:
		return "info"
	case l < slog.LevelError:
		return "warn"
	default:
		return "error"
	}
}

// callHandler puts request_id and caller right after the event of a
// record logged with a call's context, before the attributes of
// WithAttrs: it keeps the WithAttrs and WithGroup calls made on it and
// replays them on top of the call's fields for such a record.
type callHandler struct {
	base  slog.Handler // the JSON handler, without attributes or groups
	ops   []logOp      // WithAttrs and WithGroup, in order
	plain slog.Handler // base with ops applied: records without a call
}

// logOp is one WithGroup (group set) or WithAttrs (attrs set).
type logOp struct {
	group string
	attrs []slog.Attr
}

func (h *callHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.base.Enabled(ctx, l)
}

func (h *callHandler) with(op logOp, plain slog.Handler) *callHandler {
	ops := make([]logOp, len(h.ops), len(h.ops)+1)
	copy(ops, h.ops)
	return &callHandler{base: h.base, ops: append(ops, op), plain: plain}
}

func (h *callHandler) WithAttrs(as []slog.Attr) slog.Handler {
	if len(as) == 0 {
		return h
	}
	as = append([]slog.Attr(nil), as...)
	return h.with(logOp{attrs: as}, h.plain.WithAttrs(as))
}

func (h *callHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	return h.with(logOp{group: name}, h.plain.WithGroup(name))
}

func (h *callHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Time.IsZero() {
		r.Time = wallClock()
	}
	c, ok := CallFrom(ctx)
	if !ok {
		return h.plain.Handle(ctx, r)
	}
	inner := h.base.WithAttrs([]slog.Attr{slog.String("request_id", c.RequestID), slog.String("caller", c.Caller)})
	for _, op := range h.ops {
		if op.group != "" {
			inner = inner.WithGroup(op.group)
		} else {
			inner = inner.WithAttrs(op.attrs)
		}
	}
	return inner.Handle(ctx, r)
}
