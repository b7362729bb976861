package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rypsok/tomlx"
)

// snippet is one fenced code block of a Markdown file.
type snippet struct {
	file string
	line int // of the opening fence
	lang string
	body string
}

// fencedBlocks returns the fenced blocks (``` or ~~~) of a Markdown file
// with their info string's first word.
func fencedBlocks(t *testing.T, file string) []snippet {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []snippet
	var cur *snippet
	var fence string
	for i, line := range strings.Split(string(raw), "\n") {
		trimmed := strings.TrimSpace(line)
		if cur == nil {
			for _, f := range []string{"```", "~~~"} {
				if strings.HasPrefix(trimmed, f) {
					info := strings.Fields(strings.TrimLeft(trimmed, f[:1]))
					lang := ""
					if len(info) > 0 {
						lang = strings.ToLower(info[0])
					}
					cur, fence = &snippet{file: file, line: i + 1, lang: lang}, f
					break
				}
			}
			continue
		}
		if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "" {
			out = append(out, *cur)
			cur = nil
			continue
		}
		// A block indented under a list item: drop the item's indentation.
		cur.body += line + "\n"
	}
	if cur != nil {
		t.Errorf("%s:%d: a code block is never closed", file, cur.line)
	}
	return out
}

func markdownFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md"}
	docs, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, docs...)
	more, _ := filepath.Glob("deploy/*/README.md")
	return append(files, more...)
}

// TestMarkdownSnippetsParse parses every ```json block (encoding/json, one
// value and nothing after it) and every ```toml block (the project's own
// TOML parser) of the README, docs/ and deploy/, so that no configuration a
// reader copies is malformed.
func TestMarkdownSnippetsParse(t *testing.T) {
	counts := map[string]int{}
	for _, file := range markdownFiles(t) {
		for _, s := range fencedBlocks(t, file) {
			switch s.lang {
			case "json":
				counts["json"]++
				if err := parseJSONBlock(s.body); err != nil {
					t.Errorf("%s:%d: a json block does not parse: %v", s.file, s.line, err)
				}
			case "toml":
				counts["toml"]++
				if _, err := tomlx.Parse([]byte(s.body)); err != nil {
					t.Errorf("%s:%d: a toml block does not parse: %v", s.file, s.line, err)
				}
			}
		}
	}
	if counts["json"] == 0 || counts["toml"] == 0 {
		t.Errorf("found %d json and %d toml blocks; the README has both", counts["json"], counts["toml"])
	}
	t.Logf("parsed %d json and %d toml blocks", counts["json"], counts["toml"])
}

// parseJSONBlock accepts a block that is one JSON value, a sequence of
// values (JSON Lines, as a protocol's messages are shown), or the members
// of an object shown alone ("key": value, ...), which must parse once put
// between braces. Anything else is malformed.
func parseJSONBlock(body string) error {
	values := func(text string) error {
		dec := json.NewDecoder(strings.NewReader(text))
		n := 0
		for {
			var v any
			err := dec.Decode(&v)
			if err == io.EOF && n > 0 {
				return nil
			}
			if err != nil {
				return err
			}
			n++
		}
	}
	err := values(body)
	if err == nil {
		return nil
	}
	if strings.HasPrefix(strings.TrimSpace(body), `"`) {
		var obj map[string]any
		if json.Unmarshal([]byte("{"+body+"}"), &obj) == nil {
			return nil
		}
	}
	return err
}

// TestReadmeFirstScreen keeps the two commands on the README's first
// screen, and an entry for every runtime in "Connect an agent runtime".
func TestReadmeFirstScreen(t *testing.T) {
	raw, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	if len(lines) > 24 {
		lines = lines[:24]
	}
	first := strings.Join(lines, "\n")
	for _, cmd := range []string{"make demo", "make test"} {
		if !strings.Contains(first, cmd) {
			t.Errorf("the README's first screen (24 lines) lacks %q", cmd)
		}
	}
	_, section, ok := bytes.Cut(raw, []byte("\n## Connect an agent runtime\n"))
	if !ok {
		t.Fatal(`the README has no section "Connect an agent runtime"`)
	}
	section, _, _ = bytes.Cut(section, []byte("\n## "))
	for _, rt := range []string{"Claude Desktop", "Claude Code", "VS Code", "Cursor", "Windsurf", "Zed",
		"Codex CLI", "Goose", "LM Studio", "Continue", "claude mcp add", "mcp.json", "config.toml",
		`"url"`, `"headers"`} {
		if !bytes.Contains(section, []byte(rt)) {
			t.Errorf("Connect an agent runtime: no mention of %s", rt)
		}
	}
}
