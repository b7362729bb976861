package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocs_RSPConfigurationExamplesPassCheck: every ```toml block of
// docs/rsp.md, as given, passes `rypsok check` — with rypsok itself on
// PATH, since the example's plugin is `rypsok rsp secrets`.
func TestDocs_RSPConfigurationExamplesPassCheck(t *testing.T) {
	doc, err := os.ReadFile("docs/rsp.md")
	if err != nil {
		t.Fatal(err)
	}
	bin := binary(t)
	t.Setenv("PATH", filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	blocks := 0
	rest := string(doc)
	for {
		_, after, ok := strings.Cut(rest, "```toml\n")
		if !ok {
			break
		}
		body, tail, ok := strings.Cut(after, "```\n")
		if !ok {
			t.Fatal("an unterminated ```toml block")
		}
		rest = tail
		blocks++
		path := filepath.Join(t.TempDir(), "rypsok.toml")
		writeFile(t, path, body)
		var out, errb strings.Builder
		env := func(k string) (string, bool) {
			if k == "PATH" {
				return os.Getenv("PATH"), true
			}
			return "", false
		}
		if code := run([]string{"check", "--config", path}, strings.NewReader(""), &out, &errb, env); code != exitOK {
			t.Errorf("example %d does not pass check (exit %d):\n%s\n%s", blocks, code, body, errb.String())
		}
	}
	if blocks == 0 {
		t.Fatal("docs/rsp.md has no configuration example")
	}
}
