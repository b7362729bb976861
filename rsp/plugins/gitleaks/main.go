// Command rsp-gitleaks, an RSP 0.1 plugin from docs/rsp.md alone (standard library only), wraps an
// unmodified gitleaks v8 binary (-gitleaks PATH, else "gitleaks" on PATH): findings become REDACT spans.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

func main() {
	bin := flag.String("gitleaks", "gitleaks", "the gitleaks binary")
	flag.Parse()
	var req struct {
		Type       string
		Content    *string
		ContentRef *struct {
			Path           string
			Offset, Length int64
		} `json:"content_ref"`
	}
	in, err := io.ReadAll(os.Stdin)
	check(err, json.Unmarshal(in, &req))
	out := json.NewEncoder(os.Stdout)
	if req.Type == "handshake" {
		check(out.Encode(map[string]any{"rsp_version": "0.1", "name": "rsp-gitleaks", "version": "0.1.0+gitleaks8",
			"hooks": []string{"on_chunk", "on_retrieve", "on_response"}, "deterministic": true}))
		return
	}
	content := ""
	if req.Content != nil {
		content = *req.Content
	} else if r := req.ContentRef; r != nil {
		b, err := os.ReadFile(r.Path) // the host's bytes, readable for this call only
		check(err)
		content = string(b[r.Offset : r.Offset+r.Length])
	}
	cmd := exec.Command(*bin, "stdin", "--no-banner", "--exit-code", "0", "--report-format", "json", "--report-path", "-")
	cmd.Stdin = strings.NewReader(content)
	report, err := cmd.Output()
	var findings []struct {
		RuleID, Secret string
		StartLine      int
	}
	check(err, json.Unmarshal(report, &findings))
	spans, replacement := []map[string]any{}, ""
	for _, f := range findings {
		from := 0 // the start of the line before StartLine (1-based), to tolerate an off-by-one
		for line := 2; line < f.StartLine && from < len(content); line++ {
			from += strings.IndexByte(content[from:]+"\n", '\n') + 1
		}
		if i := strings.Index(content[min(from, len(content)):], f.Secret); f.Secret != "" && i >= 0 {
			spans = append(spans, map[string]any{"start": from + i, "end": from + i + len(f.Secret), "type": f.RuleID})
			if replacement == "" || replacement == "[REDACTED:"+f.RuleID+"]" {
				replacement = "[REDACTED:" + f.RuleID + "]"
			} else {
				replacement = "[REDACTED:secret]"
			}
		}
	}
	if len(spans) == 0 {
		check(out.Encode(map[string]string{"verdict": "ALLOW"}))
	} else {
		check(out.Encode(map[string]any{"verdict": "REDACT", "spans": spans, "replacement": replacement, "severity": "high"}))
	}
}

func check(errs ...error) {
	for _, err := range errs {
		if err != nil {
			fmt.Fprintln(os.Stderr, "rsp-gitleaks:", err)
			os.Exit(1)
		}
	}
}
