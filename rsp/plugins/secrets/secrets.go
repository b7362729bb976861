// Package secrets is rypsok's credential check served as an RSP plugin,
// `rypsok rsp secrets [--block]`, for any RSP host: it answers REDACT with
// the exact byte span of each credential value that package secrets
// finds, typed by the kind of the book's vocabulary, or BLOCK with --block.
//
// It never writes a credential's value anywhere: an answer carries kinds,
// offsets and fixed replacement text.
package secrets

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"rypsok/rsp"
	"rypsok/secrets"
)

// Name is the plugin's name in its handshake.
const Name = "rypsok-secrets"

// inlineThreshold is the largest content taken inline: large, because
// the scan reads whole documents and the host's own cap applies anyway.
const inlineThreshold = 16 << 20

// Main runs one call of the plugin (args are the words after `rypsok rsp
// secrets`: nothing, or --block) and returns the exit status: 0 after an
// answer, 1 when the request could not be answered, 2 on a usage error.
// version is rypsok's version, declared in the handshake; the plugin is
// deterministic, so a host caches its verdicts per version.
func Main(version string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	block := false
	for _, a := range args {
		switch a {
		case "--block", "-block":
			block = true
		case "-h", "--help":
			fmt.Fprintln(stdout, "usage: rypsok rsp secrets [--block]\n\nAn RSP 0.1 plugin: one JSON request on stdin, one answer on stdout.\nREDACT each credential value ([REDACTED:<kind>], severity critical), or BLOCK with --block.")
			return 0
		default:
			fmt.Fprintf(stderr, "rypsok rsp secrets: unknown argument %q (usage: rypsok rsp secrets [--block])\n", a)
			return 2
		}
	}
	hs := rsp.Handshake{Name: Name, Version: version, Hooks: []string{rsp.HookChunk, rsp.HookRetrieve, rsp.HookResponse},
		Deterministic: true, InlineThreshold: inlineThreshold, ContentRef: true}
	judge := func(_ context.Context, req rsp.Request) (rsp.Answer, error) { return Judge(req.Content, block), nil }
	if err := rsp.ServeIO(context.Background(), hs, judge, stdin, stdout); err != nil {
		fmt.Fprintln(stderr, "rypsok rsp secrets:", err)
		return 1
	}
	return 0
}

// Judge is the plugin's answer for content: ALLOW when no credential is
// found; otherwise REDACT with one span per credential (byte offsets,
// type the kind, replacement [REDACTED:<kind>] — [REDACTED:credential]
// when several kinds share the answer — severity critical), or with
// block a BLOCK whose reason names the kinds.
func Judge(content string, block bool) rsp.Answer {
	fs := secrets.Scan(content)
	if len(fs) == 0 {
		return rsp.Answer{Verdict: rsp.Allow}
	}
	var kinds []string
	spans := make([]rsp.Span, 0, len(fs))
	byteAt := runeOffsets(content, fs)
	for i, f := range fs {
		spans = append(spans, rsp.Span{Start: byteAt[2*i], End: byteAt[2*i+1], Type: f.Kind})
		if !slices.Contains(kinds, f.Kind) {
			kinds = append(kinds, f.Kind)
		}
	}
	slices.Sort(kinds)
	if block {
		return rsp.Answer{Verdict: rsp.Block, Reason: "credentials found: " + strings.Join(kinds, ", ")}
	}
	replacement := "[REDACTED:credential]"
	if len(kinds) == 1 {
		replacement = "[REDACTED:" + kinds[0] + "]"
	}
	return rsp.Answer{Verdict: rsp.Redact, Spans: spans, Replacement: replacement, Severity: rsp.Credential.Severity()}
}

// runeOffsets turns the findings' positions, in Unicode scalar values
// counted as a range loop counts them, into byte offsets: start and end
// of finding i at 2i and 2i+1.
func runeOffsets(content string, fs []secrets.Finding) []int {
	want := make([]int, 0, 2*len(fs))
	for _, f := range fs {
		want = append(want, f.Start, f.End)
	}
	out := make([]int, len(want))
	order := make([]int, len(want))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return want[a] - want[b] })
	k, runes := 0, 0
	for i := range content {
		for k < len(order) && want[order[k]] == runes {
			out[order[k]] = i
			k++
		}
		runes++
	}
	for ; k < len(order); k++ {
		out[order[k]] = len(content)
	}
	return out
}
