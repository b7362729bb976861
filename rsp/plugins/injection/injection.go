// Package injection is a small RSP plugin for demonstrations and tests:
// it answers FLAG (severity high) for content that addresses the reader
// as a model — "ignore previous instructions", "you are now", a fake
// system prompt — and ALLOW otherwise. It is a shape detector, not a
// defence: configure it with on_match = "block" to drop what it flags.
package injection

import (
	"context"
	"fmt"
	"io"
	"strings"

	"rypsok/rsp"
)

// Name is the plugin's name in its handshake.
const Name = "rypsok-injection-demo"

// Main runs one call (no arguments) and returns the exit status.
func Main(version string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "%s: no arguments expected, got %q\n", Name, args[0])
		return 2
	}
	hs := rsp.Handshake{Name: Name, Version: version, Hooks: []string{rsp.HookChunk, rsp.HookRetrieve},
		Deterministic: true, InlineThreshold: -1, ContentRef: true}
	judge := func(_ context.Context, req rsp.Request) (rsp.Answer, error) { return Judge(req.Content), nil }
	if err := rsp.ServeIO(context.Background(), hs, judge, stdin, stdout); err != nil {
		fmt.Fprintln(stderr, Name+":", err)
		return 1
	}
	return 0
}

// Judge flags content that contains one of the phrases (matched without
// regard to case, with runs of white space folded).
func Judge(content string) rsp.Answer {
	phrases := [...]string{
		"ignore previous instructions", "ignore all previous instructions", "ignore the above instructions",
		"disregard previous instructions", "disregard all prior instructions", "forget your instructions",
		"you are now", "new instructions:", "system prompt:", "<|im_start|>system", "[system]",
		"do not tell the user", "reveal your system prompt",
	}
	text := strings.Join(strings.Fields(strings.ToLower(content)), " ")
	for _, p := range phrases {
		if strings.Contains(text, p) {
			return rsp.Answer{Verdict: rsp.Flag, Severity: rsp.InstructionLike.Severity(), Reason: "instruction-like text: " + p}
		}
	}
	return rsp.Answer{Verdict: rsp.Allow}
}
