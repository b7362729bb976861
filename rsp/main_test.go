package rsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// chaosBin is the chaos plugin, built once for the package's tests.
var chaosBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "rsp-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	chaosBin = filepath.Join(dir, "chaos")
	build := exec.Command("go", "build", "-o", chaosBin, "./chaos")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the chaos plugin:", err)
		os.Exit(1)
	}
	code := m.Run()
	// No plugin process may outlive the tests.
	if left := waitGone(chaosBin); len(left) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: plugin processes left after the tests: %v\n", left)
		code = 1
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// liveProcesses lists the pids of live (not zombie) processes whose
// command line mentions path.
func liveProcesses(path string) []int {
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range ents {
		var pid int
		if _, err := fmt.Sscanf(e.Name(), "%d", &pid); err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(cmdline, []byte(path)) {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if i := bytes.LastIndexByte(stat, ')'); i > 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}

// noPluginLeft fails t when a chaos process is alive. A process killed
// with SIGKILL takes a moment to exit: it gets a generous 5 s.
func noPluginLeft(t *testing.T) {
	t.Helper()
	if left := waitGone(chaosBin); len(left) > 0 {
		t.Fatalf("plugin processes outlived their calls: %v", left)
	}
}

// waitGone polls liveProcesses for up to 5 s until none is left.
func waitGone(path string) []int {
	left := liveProcesses(path)
	for i := 0; i < 100 && len(left) > 0; i++ {
		time.Sleep(50 * time.Millisecond)
		left = liveProcesses(path)
	}
	return left
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
	h, err := New(context.Background(), s)
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
