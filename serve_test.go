package main

import (
	"context"
	"crypto/x509"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"rypsok/internal/config"
	"rypsok/tool"
)

// TestREQ_OPS_001_UnbuildableServicesAnswerUnavailableAndStop: when the
// services cannot be built at the first call, that call and every later one
// answers unavailable (never an exit from inside a call, which would drop
// the answers in flight), and serving is asked to stop once, after a grace.
func TestREQ_OPS_001_UnbuildableServicesAnswerUnavailableAndStop(t *testing.T) {
	cfg, err := config.Load(nil, "defaults", config.Env{Lookup: func(string) (string, bool) { return "", false }}, config.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var stops atomic.Int32
	stopped := make(chan struct{})
	svc := newLazyServices(cfg, slog.New(slog.DiscardHandler), func() (*x509.CertPool, error) {
		return nil, errors.New("no certificate parses")
	})
	svc.stop = func() {
		if stops.Add(1) == 1 {
			close(stopped)
		}
	}
	ctx := context.Background()
	if _, terr := svc.Search(ctx, tool.SearchRequest{Query: "q"}); terr == nil || terr.Kind != tool.KindUnavailable {
		t.Fatalf("search: %v, want unavailable", terr)
	}
	if _, terr := svc.Fetch(ctx, tool.FetchRequest{URL: "https://example.org/"}); terr == nil || terr.Kind != tool.KindUnavailable {
		t.Fatalf("fetch: %v, want unavailable", terr)
	}
	if st := svc.Status(ctx); st == nil || len(st.Engines) != 0 {
		t.Fatalf("status: %+v", st)
	}
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("serving was not stopped")
	}
	if !svc.failed.Load() || stops.Load() != 1 {
		t.Fatalf("failed %v, stops %d", svc.failed.Load(), stops.Load())
	}
}

// failingWriter is a standard output whose every write fails.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// TestREQ_OPS_001_OutputFailureIsNotAConfigurationError: serve whose
// standard output fails ends with exit code 3, not 1 (which says the
// configuration is wrong).
func TestREQ_OPS_001_OutputFailureIsNotAConfigurationError(t *testing.T) {
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}` + "\n")
	pr, pw := io.Pipe()
	go func() {
		_, _ = io.Copy(pw, in)
		time.Sleep(200 * time.Millisecond) // the answer is written before the input ends
		pw.Close()
	}()
	var errb strings.Builder
	code := run([]string{"serve"}, pr, failingWriter{}, &errb, func(string) (string, bool) { return "", false })
	if code != exitRuntime {
		t.Fatalf("exit %d, want %d; stderr %s", code, exitRuntime, errb.String())
	}
}
