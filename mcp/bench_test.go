package mcp

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"testing"
)

// benchRoundTrips writes one request at a time on one stream and reads its
// answer, over an in-process pipe.
func benchRoundTrips(b *testing.B, request string) {
	set := testSettings()
	set.StatusPerMinute = 10_000_000 // measure the calls, not the refusals
	srv := New(set, &fakeSearch{}, &fakeFetch{}, slog.New(slog.DiscardHandler), nil)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		srv.ServeStdio(ctx, inR, outW)
		outW.Close()
		close(done)
	}()
	r := bufio.NewReaderSize(outR, 64<<10)
	line := []byte(request + "\n")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := inW.Write(line); err != nil {
			b.Fatal(err)
		}
		if _, err := r.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "roundtrips/s")
	cancel()
	inW.Close()
	go io.Copy(io.Discard, outR)
	<-done
}

func BenchmarkToolsListRoundTrip(b *testing.B) {
	benchRoundTrips(b, modern(1, "tools/list", ""))
}

func BenchmarkServerDiscover(b *testing.B) {
	benchRoundTrips(b, modern("discover-1", "server/discover", ""))
}

func BenchmarkEngineStatusCall(b *testing.B) {
	benchRoundTrips(b, call(1, "engine_status", `{}`))
}
