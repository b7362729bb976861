package rsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIngest_ChunksConcatenateToTheFileWithinTheLimit(t *testing.T) {
	text := "para one line 1\npara one line 2\n\npara two é\n\n\n" + strings.Repeat("long line without breaks ", 20) + "\r\n\r\nlast"
	for _, limit := range []int{1, 2, 7, 30, 64, 200, 5000} {
		cs := chunk(text, limit)
		var joined strings.Builder
		line := 1
		for _, c := range cs {
			if c.line != line {
				t.Fatalf("limit %d: chunk at line %d, want %d", limit, c.line, line)
			}
			line += strings.Count(c.text, "\n")
			if len(c.text) > max(limit, 4) {
				t.Fatalf("limit %d: chunk of %d bytes", limit, len(c.text))
			}
			joined.WriteString(c.text)
		}
		if joined.String() != text {
			t.Fatalf("limit %d: chunks do not concatenate to the text", limit)
		}
	}
	cs := chunk("aaaa\n\nbbbb\ncccc\n\ndddd", 12)
	if cs[0].text != "aaaa\n\n" || cs[1].text != "bbbb\ncccc\n\n" || cs[1].line != 3 {
		t.Fatalf("paragraph cuts %+v", cs)
	}
}

func TestIngest_BlocksRedactsCountsAndWritesOnlySurvivors(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.md"), []byte("intro paragraph\n\nthe TOPSECRET plan\n\nending\n"), 0o600)
	os.MkdirAll(filepath.Join(dir, "sub"), 0o700)
	os.WriteFile(filepath.Join(dir, "sub", "deploy.txt"), []byte("line one\nline two\n\nkey: FORBIDDEN value\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "image.bin"), []byte("GIF89a\x00\x01\x02"), 0o600)
	os.WriteFile(filepath.Join(dir, "latin1.txt"), []byte("caf\xe9"), 0o600)
	os.WriteFile(filepath.Join(dir, "outside.txt"), []byte("FORBIDDEN through a link"), 0o600)
	os.Symlink(filepath.Join(dir, "outside.txt"), filepath.Join(dir, "sub", "link.txt"))
	big, _ := os.Create(filepath.Join(dir, "big.log"))
	big.Truncate(IngestMaxFileBytes + 1)
	big.Close()

	s := DefaultSettings()
	s.Hooks = []string{HookChunk}
	s.ChunkBytes = 24
	s.Plugins = []PluginSpec{
		{Name: "block", Command: chaos("find", "FORBIDDEN", "block"), OnMatch: OnMatchVerdict},
		{Name: "redact", Command: chaos("find", "TOPSECRET")},
	}
	h, err := New(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	var report, out bytes.Buffer
	sum, err := Ingest(context.Background(), h, []string{dir}, &report, &out)
	if err != nil {
		t.Fatal(err)
	}
	rep := report.String()
	for _, want := range []string{
		"REDACT  word  " + filepath.Join(dir, "notes.md") + ":3\n",
		"BLOCK  plugin=block  " + filepath.Join(dir, "sub", "deploy.txt") + ":4\n",
		"BLOCK  plugin=block  " + filepath.Join(dir, "outside.txt") + ":1\n",
		"skipped 4 files: 2 binary, 1 oversized, 1 not regular or unreadable\n",
	} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q:\n%s", want, rep)
		}
	}
	last := strings.Split(strings.TrimSpace(rep), "\n")
	if summary := last[len(last)-2]; summary != "scanned 6 chunks: 4 indexed, 1 redacted, 2 blocked" {
		t.Errorf("summary %q", summary)
	}
	if sum.Chunks != 6 || sum.Blocked != 2 || sum.Redacted != 1 || sum.Indexed != 4 || sum.Files != 3 {
		t.Errorf("%+v", sum)
	}
	if strings.Contains(out.String(), "FORBIDDEN") || strings.Contains(out.String(), "TOPSECRET") || strings.Contains(rep, "TOPSECRET") {
		t.Fatal("blocked or redacted text written")
	}
	sc := bufio.NewScanner(&out)
	n := 0
	for sc.Scan() {
		var rec struct {
			Source     string `json:"source"`
			Line       int    `json:"line"`
			ChunkIndex *int   `json:"chunk_index"`
			Content    string `json:"content"`
			RSP        struct {
				Plugins []string `json:"plugins"`
				Types   []string `json:"types"`
			} `json:"rsp"`
		}
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rec); err != nil || rec.Source == "" || rec.Line < 1 || rec.ChunkIndex == nil {
			t.Fatalf("record %s: %v", sc.Text(), err)
		}
		if strings.Contains(rec.Content, "[WORD]") && (strings.Join(rec.RSP.Plugins, ",") != "redact" || strings.Join(rec.RSP.Types, ",") != "word") {
			t.Fatalf("redacted record %s", sc.Text())
		}
		n++
	}
	if n != 4 {
		t.Fatalf("%d records, want 4", n)
	}
}

func TestIngest_MissingPathIsAnError(t *testing.T) {
	s := DefaultSettings()
	s.Hooks = []string{HookChunk}
	h, _ := New(context.Background(), s)
	var report bytes.Buffer
	if _, err := Ingest(context.Background(), h, []string{filepath.Join(t.TempDir(), "none")}, &report, nil); err == nil {
		t.Fatal("no error")
	}
}
