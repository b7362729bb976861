package mcp

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// pipedStdio serves srv over in-process pipes. trip writes one line and
// reads its answer, and returns how long that took; stop ends the server.
func pipedStdio(b *testing.B, srv *Server, request string) (trip func() time.Duration, stop func()) {
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
	trip = func() time.Duration {
		t0 := time.Now()
		if _, err := inW.Write(line); err != nil {
			b.Fatal(err)
		}
		if _, err := r.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	stop = func() {
		cancel()
		inW.Close()
		go io.Copy(io.Discard, outR)
		<-done
	}
	return trip, stop
}

// benchRoundTrips writes one request at a time on one stream and reads its
// answer, over an in-process pipe.
func benchRoundTrips(b *testing.B, request string) {
	set := testSettings()
	set.StatusPerMinute = 10_000_000 // measure the calls, not the refusals
	trip, stop := pipedStdio(b, New(set, &fakeSearch{}, &fakeFetch{}, slog.New(slog.DiscardHandler), nil), request)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		trip()
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "roundtrips/s")
	stop()
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

// BenchmarkHTTPEngineStatusCall: engine_status over 8 keep-alive HTTP/1.1
// connections on loopback.
func BenchmarkHTTPEngineStatusCall(b *testing.B) {
	set := testSettings()
	set.StatusPerMinute = 10_000_000
	srv := New(set, &fakeSearch{}, &fakeFetch{}, slog.New(slog.DiscardHandler), nil)
	l, err := srv.ListenHTTP(HTTPSettings{Bind: "127.0.0.1:0"})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { l.Serve(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	tr := &http.Transport{MaxIdleConnsPerHost: 8, MaxConnsPerHost: 8}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr}
	body := call(1, "engine_status", `{}`)
	hdr := mcpHeaders(body)
	url := "http://" + l.Addr().String() + "/mcp"
	b.SetParallelism(1)
	b.ReportAllocs()
	b.ResetTimer()
	var mu sync.Mutex
	var lat []time.Duration
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			t0 := time.Now()
			hr, _ := http.NewRequest("POST", url, strings.NewReader(body))
			hr.Header = hdr.Clone()
			res, err := c.Do(hr)
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			mine = append(mine, time.Since(t0))
		}
		mu.Lock()
		lat = append(lat, mine...)
		mu.Unlock()
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
	if len(lat) > 0 {
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	}
}
