package rsp

import (
	"context"
	"fmt"
	"os"
	"strings"
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
	h, err := New(context.Background(), s, Deps{})
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

// benchAnswer is a typical REDACT answer: three spans.
var benchAnswer = []byte(`{"verdict":"REDACT","spans":[{"start":4,"end":24,"type":"aws_access_key_id"},{"start":40,"end":80,"type":"github_token"},{"start":90,"end":130,"type":"url_password"}],"replacement":"[REDACTED:credential]","severity":"critical"}`)

// BenchmarkParseAnswer is the host's reading of one plugin answer, the
// part of a call's overhead spent on the answer's bytes.
func BenchmarkParseAnswer(b *testing.B) {
	content := strings.Repeat("text ", 40)
	for b.Loop() {
		if _, class := parseAnswer(benchAnswer, content); class != "" {
			b.Fatal(class)
		}
	}
}

// BenchmarkReadRequest_Call is a Go plugin's reading of one call with
// 16 KiB of content and the metadata of a fetched page.
func BenchmarkReadRequest_Call(b *testing.B) {
	req := marshal(callRequest{RSPVersion: Version, Type: "call", Hook: HookRetrieve, Content: ptr(strings.Repeat("A page of text, é and 😀. ", 640)),
		Metadata: map[string]any{"tool": ToolWebFetch, "url": "https://example.org/a/page", "title": "A page"}})
	b.SetBytes(int64(len(req)))
	for b.Loop() {
		if _, _, err := ReadRequest(req); err != nil {
			b.Fatal(err)
		}
	}
}

func ptr[T any](v T) *T { return &v }
