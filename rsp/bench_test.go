package rsp

import (
	"context"
	"fmt"
	"os"
	"testing"
)

var callInput = []byte(`{"rsp_version":"0.1","type":"call","hook":"on_retrieve","content":"a search result snippet","metadata":{}}`)

// BenchmarkSpawn_GoPlugin is the cost of one call of a Go plugin (the
// chaos plugin answering ALLOW): spawn, stdin, stdout, wait, group kill.
func BenchmarkSpawn_GoPlugin(b *testing.B) {
	p := proc{argv: chaos("allow"), env: environ(nil, nil), input: callInput, maxOut: 1 << 20, maxErr: StderrLimitBytes}
	for b.Loop() {
		if o := run(context.Background(), p); o.class != "" {
			b.Fatal(o.class)
		}
	}
}

// BenchmarkSpawn_TrueFloor is the same process control around /bin/true,
// the floor of any subprocess plugin on this machine.
func BenchmarkSpawn_TrueFloor(b *testing.B) {
	if _, err := os.Stat("/bin/true"); err != nil {
		b.Skip("no /bin/true")
	}
	p := proc{argv: []string{"/bin/true"}, env: environ(nil, nil), input: callInput, maxOut: 1 << 20, maxErr: StderrLimitBytes}
	for b.Loop() {
		if o := run(context.Background(), p); o.class != "" {
			b.Fatal(o.class)
		}
	}
}

func benchHost(b *testing.B) *Host {
	s := DefaultSettings()
	s.Plugins = []PluginSpec{{Name: "p", Command: chaos("-det", "find", "never-present")}}
	h, err := New(context.Background(), s)
	if err != nil {
		b.Fatal(err)
	}
	return h
}

// BenchmarkJudge10Results_Cold judges a search's 10 results with one
// deterministic Go plugin, every content new (10 spawns, up to
// MaxProcesses at once).
func BenchmarkJudge10Results_Cold(b *testing.B) {
	h := benchHost(b)
	n := 0
	for b.Loop() {
		items := make([]Item, 10)
		for i := range items {
			n++
			items[i] = Item{Content: fmt.Sprintf("result %d: a title and a snippet of the page", n)}
		}
		h.Judge(context.Background(), HookRetrieve, ToolWebSearch, items)
	}
}

// BenchmarkJudge10Results_Cached judges the same 10 results again: every
// verdict comes from the cache.
func BenchmarkJudge10Results_Cached(b *testing.B) {
	h := benchHost(b)
	items := make([]Item, 10)
	for i := range items {
		items[i] = Item{Content: fmt.Sprintf("result %d: a title and a snippet of the page", i)}
	}
	h.Judge(context.Background(), HookRetrieve, ToolWebSearch, items)
	before := h.spawned.Load()
	for b.Loop() {
		h.Judge(context.Background(), HookRetrieve, ToolWebSearch, items)
	}
	if h.spawned.Load() != before {
		b.Fatal("cached judging spawned a process")
	}
}
