package mcp

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"rypsok/tool"
)

// The log lines keep the book's format on the standard library's JSON
// handler: every value kind, groups and WithAttrs before and after a
// call's fields, levels between the named ones, a record without a time,
// and empty attributes. The lines were written by the handler this one
// replaced and pinned here.
func TestREQ_OBS_005_LogLinesArePinned(t *testing.T) {
	logs := &logBuffer{}
	lg := slog.New(tool.NewLogHandler(logs, slog.LevelDebug))
	ctx := tool.WithCall(context.Background(), tool.Call{RequestID: "r1", Caller: "ops"})
	tm := time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.FixedZone("x", 3600))
	lg.InfoContext(ctx, "a", "n", 1, "u", uint64(7), "b", false, "f", 1.5, "nan", math.NaN(), "inf", math.Inf(1), "d", 2500*time.Millisecond, "t", tm, "e", errors.New("bad <x>"), "m", map[string]int{"z": 1})
	g := lg.With("engine", "brave").WithGroup("g").With("k", 1).WithGroup("h")
	g.InfoContext(ctx, "b", "x", 2)
	g.InfoContext(ctx, "c")
	g.Info("d")
	lg.WithGroup("empty").Info("e")
	lg.Info("f", slog.Group("sub"), slog.Group("", "inl", 1), "s", "é\u2028\x01\xff")
	lg.Log(ctx, slog.Level(2), "g")
	lg.Log(ctx, slog.Level(-8), "h")
	lg.Log(ctx, slog.Level(12), "i")
	h := lg.Handler()
	r := slog.NewRecord(time.Time{}, slog.LevelInfo, "zero", 0)
	h.Handle(context.Background(), r)
	r2 := slog.NewRecord(tm, slog.LevelWarn, "fixed", 0)
	r2.AddAttrs(slog.Attr{}, slog.String("", "nokey"))
	h.Handle(ctx, r2)
	want := []string{
		`{TS,"level":"info","event":"a","request_id":"r1","caller":"ops","n":1,"u":7,"b":false,"f":1.5,"nan":"NaN","inf":"+Inf","d":2500,"t":"2026-01-02T02:04:05.006Z","e":"bad <x>","m":{"z":1}}`,
		`{TS,"level":"info","event":"b","request_id":"r1","caller":"ops","engine":"brave","g":{"k":1,"h":{"x":2}}}`,
		`{TS,"level":"info","event":"c","request_id":"r1","caller":"ops","engine":"brave","g":{"k":1}}`,
		`{TS,"level":"info","event":"d","engine":"brave","g":{"k":1}}`,
		`{TS,"level":"info","event":"e"}`,
		`{TS,"level":"info","event":"f","inl":1,"s":"é\u2028\u0001\ufffd"}`,
		`{TS,"level":"info","event":"g","request_id":"r1","caller":"ops"}`,
		`{TS,"level":"error","event":"i","request_id":"r1","caller":"ops"}`,
		`{TS,"level":"info","event":"zero"}`,
		`{TS,"level":"warn","event":"fixed","request_id":"r1","caller":"ops","":"nokey"}`,
	}
	ts := regexp.MustCompile(`^\{"timestamp":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z",`)
	got := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(got), len(want), logs.String())
	}
	for i := range want {
		if !ts.MatchString(got[i]) {
			t.Errorf("line %d has no timestamp first: %s", i, got[i])
			continue
		}
		if g := "{TS," + ts.ReplaceAllString(got[i], ""); g != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i, g, want[i])
		}
	}
}
