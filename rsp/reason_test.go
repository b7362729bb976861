package rsp

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The reference's V4: a reason a plugin gives with its BLOCK reaches the
// operator. The Result carries it, bounded and cleaned; a failure carries
// none, so no plugin output is mistaken for a reason.
func TestV4_ABlockCarriesItsReasonInTheResult(t *testing.T) {
	defer noPluginLeft(t)
	long := strings.Repeat("k", 3*maxStringBytes)
	for _, c := range []struct {
		name string
		argv []string
		want string
	}{
		{"given", chaos("block"), "chaos says block"},
		{"cleaned", chaos("answer", `{"verdict":"BLOCK","reason":"private\u0007 key\nfound"}`), "private key found"},
		{"bounded", chaos("answer", `{"verdict":"BLOCK","reason":"`+long+`"}`), ""},
		{"none given", chaos("answer", `{"verdict":"BLOCK"}`), ""},
		{"a failure has none", chaos("exit"), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := judgeOne(newHost(t, PluginSpec{Name: "p", Command: c.argv}), HookRetrieve, "ordinary text")
			if r.Verdict != Block || r.BlockedBy != "p" {
				t.Fatalf("%+v", r)
			}
			switch c.name {
			case "bounded":
				if len(r.Reason) == 0 || len(r.Reason) > maxStringBytes || !strings.HasPrefix(long, r.Reason) {
					t.Errorf("reason of %d bytes kept as %d bytes", len(long), len(r.Reason))
				}
			default:
				if r.Reason != c.want {
					t.Errorf("reason %q, want %q", r.Reason, c.want)
				}
			}
		})
	}
}

// rsp ingest logs verdicts only at debug, so its report is where an
// operator reads why a chunk was blocked (V4): the reason is on the BLOCK
// line, quoted, and a chunk blocked by a failure names the class alone.
func TestV4_IngestReportShowsTheReasonOfABlock(t *testing.T) {
	defer noPluginLeft(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(file, []byte("one FORBIDDEN line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		argv []string
		want string
	}{
		{chaos("answer", `{"verdict":"BLOCK","reason":"matched a \"private\" key"}`), `BLOCK  plugin=p reason="matched a \"private\" key"  ` + file + ":1\n"},
		{chaos("answer", `{"verdict":"BLOCK"}`), "BLOCK  plugin=p  " + file + ":1\n"},
		{chaos("exit"), "BLOCK  plugin=p failure=exit  " + file + ":1\n"},
	} {
		s := DefaultSettings()
		s.Hooks = []string{HookChunk}
		s.Plugins = []PluginSpec{{Name: "p", Command: c.argv}}
		h, err := New(context.Background(), s, Deps{})
		if err != nil {
			t.Fatal(err)
		}
		var report bytes.Buffer
		if _, err := Ingest(context.Background(), h, []string{file}, &report, nil); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(report.String(), c.want) {
			t.Errorf("report:\n%s\nwant it to start with %q", report.String(), c.want)
		}
	}
}
