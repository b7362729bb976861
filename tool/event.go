package tool

import (
	"context"
	"log/slog"
	"time"
)

// EventCounter is a log handler that counts the book's events (the
// metrics' handler). LogEvent hands it an event's name and attributes
// directly, without building a record; it counts them and returns the
// handler that writes, which LogEvent then asks as it would have asked
// the counter. The counter sees exactly what its Handle would have seen.
type EventCounter interface {
	slog.Handler
	CountEvent(ctx context.Context, event string, attrs EventAttrs) (next slog.Handler)
}

// maxEventAttrs is the most attributes LogEvent hands a counter without a
// record; an event with more goes through the counter's Handle.
const maxEventAttrs = 4

// EventAttrs is an event's attributes, held by value: a slice handed
// through an interface would be moved to the heap at every call.
type EventAttrs struct {
	n int
	a [maxEventAttrs]slog.Attr
}

// All is the attributes, in the order logged.
func (e *EventAttrs) All() []slog.Attr { return e.a[:e.n] }

// LogEvent logs one event as Logger.LogAttrs does, without reading the
// caller's program counter or the clock before the handler asks: the
// book's lines show no source, and the log handler stamps the time of a
// record it writes. It is for events on a hot path that are usually not
// written but counted (engine_answered, cache_lookup at debug), where
// those two readings were most of the cost. A counting handler gets the
// attributes without a record (EventCounter), so an event that is only
// counted builds none.
func LogEvent(ctx context.Context, log *slog.Logger, level slog.Level, event string, attrs ...slog.Attr) {
	h := log.Handler()
	if c, ok := h.(EventCounter); ok && len(attrs) <= maxEventAttrs {
		var ea EventAttrs
		ea.n = copy(ea.a[:], attrs)
		h = c.CountEvent(ctx, event, ea)
	}
	if !h.Enabled(ctx, level) {
		return
	}
	writeEvent(ctx, h, level, event, attrs)
}

// writeEvent builds and hands on the record of an event that is written.
// It is a function of its own so that the record's room on the stack is
// taken only when a line is written: the events LogEvent carries are
// logged from the engines' short-lived goroutines, whose stacks would
// otherwise grow for records that are only counted.
//
//go:noinline
func writeEvent(ctx context.Context, h slog.Handler, level slog.Level, event string, attrs []slog.Attr) {
	r := slog.NewRecord(time.Time{}, level, event, 0)
	r.AddAttrs(attrs...)
	_ = h.Handle(ctx, r)
}
