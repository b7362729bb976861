package tool

import (
	"context"
	"log/slog"
	"time"
)

// LogEvent logs one event as Logger.LogAttrs does, without reading the
// caller's program counter or the clock before the handler asks: the
// book's lines show no source, and the log handler stamps the time of a
// record it writes. It is for events on a hot path that are usually not
// written but counted (engine_answered, cache_lookup at debug), where
// those two readings were most of the cost.
func LogEvent(ctx context.Context, log *slog.Logger, level slog.Level, event string, attrs ...slog.Attr) {
	h := log.Handler()
	if !h.Enabled(ctx, level) {
		return
	}
	r := slog.NewRecord(time.Time{}, level, event, 0)
	r.AddAttrs(attrs...)
	_ = h.Handle(ctx, r)
}
