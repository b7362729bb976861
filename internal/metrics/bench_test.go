package metrics

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"rypsok/tool"
)

// BenchmarkCountedEvent is what one counted debug event costs a call: the
// record slog builds once the counting handler enables debug, and its
// count. BenchmarkDisabledEvent is the same call without metrics.
func BenchmarkCountedEvent(b *testing.B) {
	m := New(Settings{Engines: []string{"wikipedia"}})
	log := slog.New(m.Handler(tool.NewLogHandler(io.Discard, slog.LevelInfo)))
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		log.DebugContext(ctx, "engine_answered", "engine", "wikipedia", "count", 10, "latency_ms", int64(120))
	}
}

func BenchmarkDisabledEvent(b *testing.B) {
	log := slog.New(tool.NewLogHandler(io.Discard, slog.LevelInfo))
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		log.DebugContext(ctx, "engine_answered", "engine", "wikipedia", "count", 10, "latency_ms", int64(120))
	}
}

// BenchmarkCountedEventNoPC is the counted event as the search service
// logs it (tool.LogEvent: no program counter, no clock reading).
func BenchmarkCountedEventNoPC(b *testing.B) {
	m := New(Settings{Engines: []string{"wikipedia"}})
	log := slog.New(m.Handler(tool.NewLogHandler(io.Discard, slog.LevelInfo)))
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		tool.LogEvent(ctx, log, slog.LevelDebug, "engine_answered", slog.String("engine", "wikipedia"), slog.Int("count", 10), slog.Int64("latency_ms", 120))
	}
}
