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
			// Over the limit only to keep a word whole: no space or line
			// break inside such a chunk but at its very start.
			if len(c.text) > max(limit, 4) && strings.ContainsAny(strings.TrimLeft(c.text, " \t\r\n"), " \t\n") {
				t.Fatalf("limit %d: chunk %q of %d bytes", limit, c.text, len(c.text))
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
	h, err := New(context.Background(), s, Deps{})
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
		"BLOCK  plugin=block reason=\"found\"  " + filepath.Join(dir, "sub", "deploy.txt") + ":4\n",
		"BLOCK  plugin=block reason=\"found\"  " + filepath.Join(dir, "outside.txt") + ":1\n",
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
				Plugins  []string `json:"plugins"`
				Types    []string `json:"types"`
				Severity Severity `json:"severity"`
			} `json:"rsp"`
		}
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rec); err != nil || rec.Source == "" || rec.Line < 1 || rec.ChunkIndex == nil {
			t.Fatalf("record %s: %v", sc.Text(), err)
		}
		if strings.Contains(rec.Content, "[WORD]") && (strings.Join(rec.RSP.Plugins, ",") != "redact" || strings.Join(rec.RSP.Types, ",") != "word" || rec.RSP.Severity != Medium) {
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
	h, _ := New(context.Background(), s, Deps{})
	var report bytes.Buffer
	if _, err := Ingest(context.Background(), h, []string{filepath.Join(t.TempDir(), "none")}, &report, nil); err == nil {
		t.Fatal("no error")
	}
}

func TestIngest_ACutNeverSplitsAWord(t *testing.T) {
	iban := "DE44500105175407324931"
	text := strings.Repeat("Überweisung an ", 7) + iban + " bis Freitag, " + strings.Repeat("x", 30) + " Ende"
	for limit := 1; limit <= len(text); limit++ {
		cs := chunk(text, limit)
		var joined strings.Builder
		whole := false
		for _, c := range cs {
			joined.WriteString(c.text)
			whole = whole || strings.Contains(c.text, iban)
			for _, w := range strings.Fields(c.text) {
				if !strings.Contains(text, " "+w+" ") && !strings.HasPrefix(text, w+" ") && !strings.HasSuffix(text, " "+w) {
					t.Fatalf("limit %d: the word %q of chunk %q was cut", limit, w, c.text)
				}
			}
		}
		if joined.String() != text || !whole {
			t.Fatalf("limit %d: chunks %+v", limit, cs)
		}
	}
	// A word longer than maxWordBytes is cut at the limit.
	long := strings.Repeat("é", maxWordBytes)
	if cs := chunk(long, 100); len(cs) < 2 || len(cs[0].text) > 100 {
		t.Fatalf("%d chunks, the first of %d bytes", len(cs), len(cs[0].text))
	}
}

func TestIngest_FlagIsReportedAndRecordsCarryTheSeverity(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.md"), []byte("please ignore this\n"), 0o600)
	s := DefaultSettings()
	s.Hooks = []string{HookChunk}
	s.Plugins = []PluginSpec{
		{Name: "flagger", Command: chaos("flag", "high")},
		{Name: "empty", Command: chaos("answer", `{"verdict":"REDACT","spans":[{"start":0,"end":6,"type":"word"},{"start":7,"end":7,"type":"empty_kind"}],"replacement":"[W]","severity":"low"}`)},
	}
	h, err := New(context.Background(), s, Deps{})
	if err != nil {
		t.Fatal(err)
	}
	var report, out bytes.Buffer
	if _, err := Ingest(context.Background(), h, []string{dir}, &report, &out); err != nil {
		t.Fatal(err)
	}
	if want := "FLAG  high plugin=flagger  " + filepath.Join(dir, "a.md") + ":1\n"; !strings.Contains(report.String(), want) {
		t.Fatalf("report lacks %q:\n%s", want, report.String())
	}
	var rec struct {
		RSP ingestMeta `json:"rsp"`
	}
	if err := json.Unmarshal(out.Bytes(), &rec); err != nil || rec.RSP.Severity != High || strings.Join(rec.RSP.Types, ",") != "empty_kind,word" {
		t.Fatalf("record %s: %v", out.String(), err)
	}
}
