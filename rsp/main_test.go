package rsp

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rypsok/internal/plugintest"
)

// chaosBin is the chaos plugin, built once for the package's tests.
var chaosBin string

func TestMain(m *testing.M) { os.Exit(plugintest.Main(m, "./chaos", &chaosBin)) }

// noPluginLeft fails t when a chaos process is alive.
func noPluginLeft(t *testing.T) {
	t.Helper()
	plugintest.NoneLeft(t, chaosBin)
}

// chaos is the argv of the chaos plugin with flags and a mode.
func chaos(args ...string) []string { return append([]string{chaosBin}, args...) }

// recorded is one request the chaos plugin recorded.
type recorded struct {
	Request     map[string]any `json:"request"`
	Content     string         `json:"content"`
	ByRef       bool           `json:"by_ref"`
	RefWritable bool           `json:"ref_writable"`
	Env         []string       `json:"env"`
}

// records reads a -record file; calls are the non-handshake requests.
func records(t *testing.T, path string) (calls []recorded, handshakes int) {
	t.Helper()
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, 0
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r recorded
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("record line: %v", err)
		}
		if r.Request["type"] == "handshake" {
			handshakes++
			continue
		}
		calls = append(calls, r)
	}
	return calls, handshakes
}

// newHost builds a host with the defaults and plugins, failing t on error.
func newHost(t *testing.T, plugins ...PluginSpec) *Host {
	t.Helper()
	s := DefaultSettings()
	s.Plugins = plugins
	h, err := New(context.Background(), s, Deps{})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func judgeOne(h *Host, hook, content string) Result {
	return h.Judge(context.Background(), hook, "", []Item{{Content: content}})[0]
}

func recordFile(t *testing.T) string { return filepath.Join(t.TempDir(), "record.jsonl") }

func hasPrefixAny(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}
