// Command rsp-gitleaks is an RSP 0.1 plugin that wraps an unmodified
// gitleaks v8 binary (-gitleaks PATH, else "gitleaks" on PATH) and fills
// the reference's gitleaks role: each finding is a REDACT span typed by
// its rule id, with the replacement [REDACTED:secret] and the severity of
// a credential in rypsok's one table (critical); ALLOW when gitleaks finds
// nothing. Requests are read by package rsp, strictly, in both dialects.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"strings"

	"rypsok/rsp"
)

func main() {
	bin := flag.String("gitleaks", "gitleaks", "the gitleaks binary")
	flag.Parse()
	hs := rsp.Handshake{Name: "rsp-gitleaks", Version: "0.1.0+gitleaks8", Hooks: []string{rsp.HookChunk, rsp.HookRetrieve},
		Deterministic: true, InlineThreshold: -1, ContentRef: true}
	os.Exit(rsp.Serve(hs, func(ctx context.Context, req rsp.Request) (rsp.Answer, error) {
		return judge(ctx, *bin, req.Content)
	}, os.Stdin, os.Stdout, os.Stderr))
}

// judge runs gitleaks on content; a finding's span starts where its
// secret is found from the start of the line before its StartLine (its
// columns do not count from the line's first byte).
func judge(ctx context.Context, bin, content string) (rsp.Answer, error) {
	cmd := exec.CommandContext(ctx, bin, "stdin", "--no-banner", "--exit-code", "0", "--report-format", "json", "--report-path", "-")
	cmd.Stdin = strings.NewReader(content)
	report, err := cmd.Output()
	if err != nil {
		return rsp.Answer{}, err
	}
	var findings []struct {
		RuleID, Secret string
		StartLine      int
	}
	if err := json.Unmarshal(report, &findings); err != nil {
		return rsp.Answer{}, err
	}
	var spans []rsp.Span
	for _, f := range findings {
		from := 0
		for line := 2; line < f.StartLine && from < len(content); line++ {
			from += strings.IndexByte(content[from:]+"\n", '\n') + 1
		}
		if i := strings.Index(content[min(from, len(content)):], f.Secret); f.Secret != "" && i >= 0 {
			spans = append(spans, rsp.Span{Start: from + i, End: from + i + len(f.Secret), Type: f.RuleID})
		}
	}
	if len(spans) == 0 {
		return rsp.Answer{Verdict: rsp.Allow}, nil
	}
	return rsp.Answer{Verdict: rsp.Redact, Spans: spans, Replacement: "[REDACTED:secret]", Severity: rsp.Credential.Severity()}, nil
}
