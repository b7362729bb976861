//go:build unix

// Command chaos is an RSP plugin that misbehaves on purpose, one way per
// mode, so that tests can show how a host meets each failure. It is built
// by the tests of package rsp; it is not part of the rypsok binary.
//
//	chaos [-name N] [-version V] [-hooks h1,h2] [-det] [-threshold N] [-noref] [-ref] [-lenient] [-record FILE] [-crash-on S] MODE [ARGS]
//
// Requests that are not strict JSON are refused (exit 2) unless -lenient.
// The handshake declares content_ref (the plugin reads content passed by
// reference) unless -noref. With -ref the plugin speaks the reference's
// dialect alone: it knows the handshake by "hook" only (never "type"),
// declares max_inline_bytes (-threshold) and no content_ref, never reads
// content_ref (content it did not receive is empty to it, and it answers
// on that), and writes FLAG and REDACT without a severity.
//
// Modes of a call (the handshake is answered normally unless the mode is
// about the handshake):
//
//	allow | block | flag SEVERITY | redact START:END:TYPE[,…] REPLACEMENT SEVERITY
//	answer JSON         print JSON exactly as given
//	bycontent JSON      JSON maps contents to answers; ALLOW for any other content
//	find WORD [block]   REDACT the first WORD (type word), or BLOCK with block; ALLOW without it
//	findchars WORD      as find, but with character offsets instead of bytes (wrong)
//	crash               print half an answer, then panic
//	exit                print a valid ALLOW, then exit 3
//	signal              kill itself with SIGKILL
//	hang                start a child of itself in its process group, then sleep forever
//	orphan              start a child of itself that sleeps, answer ALLOW, exit 0
//	hangall             hang at the handshake too
//	slow MS             sleep MS milliseconds, then ALLOW
//	garbage             print text that is not JSON
//	two                 print two JSON objects
//	flood               print without end
//	stderr              write 1 MiB to stderr, then ALLOW
//	deep N OPEN CLOSE [bare]  print {"verdict":"ALLOW","x":OPEN×N 0 CLOSE×N}; bare: the nesting alone
//	outofrange          a span ending one byte past the content
//	inverted            a span with start > end
//	splitchar           a span ending inside the first multi-byte character
//	nohandshake         answer the handshake with a verdict instead
//	wrongversion        answer the handshake with rsp_version "1.0"
//	nondet              a different answer on every call
//
// With -record FILE each request is appended to FILE as one JSON line:
// the request, the content read through content_ref, whether descriptor
// 3 could be written, and the environment.
package main

import (
	"crypto/rand"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"rypsok/rsp"
)

func main() {
	name := flag.String("name", "chaos", "handshake name")
	version := flag.String("version", "1", "handshake version")
	hooks := flag.String("hooks", "on_chunk,on_retrieve,on_response", "declared hooks")
	det := flag.Bool("det", false, "declare deterministic")
	threshold := flag.Int64("threshold", -1, "inline_threshold (negative: none)")
	noRef := flag.Bool("noref", false, "declare no content_ref and never read it")
	refDialect := flag.Bool("ref", false, "speak the reference dialect only")
	lenient := flag.Bool("lenient", false, "read requests that are not strict JSON")
	record := flag.String("record", "", "append each request to this file")
	crashOn := flag.String("crash-on", "", "crash (as mode crash) on a call whose content contains this")
	flag.Parse()
	args := flag.Args()
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "chaos: no mode")
		os.Exit(2)
	}
	mode := args[0]
	if mode == "sleeper" {
		time.Sleep(time.Hour)
		return
	}
	in, _ := io.ReadAll(os.Stdin)
	var req struct {
		Type       string `json:"type"`
		Hook       string `json:"hook"`
		Content    *string
		ContentRef *struct {
			Path   string `json:"path"`
			Offset int64  `json:"offset"`
			Length int64  `json:"length"`
		} `json:"content_ref"`
	}
	if err := rsp.StrictJSON(in); err != nil && !*lenient {
		fmt.Fprintln(os.Stderr, "chaos: refused:", err)
		os.Exit(2)
	}
	if err := json.Unmarshal(in, &req); err != nil {
		fmt.Fprintln(os.Stderr, "chaos: bad request:", err)
		os.Exit(2)
	}
	content := ""
	if req.Content != nil {
		content = *req.Content
	}
	*noRef = *noRef || *refDialect
	refWritable := false
	if req.ContentRef != nil && !*noRef {
		f, err := os.Open(req.ContentRef.Path)
		if err == nil {
			b := make([]byte, req.ContentRef.Length)
			n, _ := f.ReadAt(b, req.ContentRef.Offset)
			content = string(b[:n])
			f.Close()
		}
		if _, err := syscall.Write(3, []byte("x")); err == nil {
			refWritable = true
		}
		if f, err := os.OpenFile(req.ContentRef.Path, os.O_WRONLY, 0); err == nil {
			if _, err := f.Write([]byte("x")); err == nil {
				refWritable = true
			}
			f.Close()
		}
	}
	if *record != "" {
		line, _ := json.Marshal(map[string]any{"request": json.RawMessage(in), "content": content,
			"by_ref": req.ContentRef != nil, "ref_writable": refWritable, "env": os.Environ()})
		f, err := os.OpenFile(*record, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err == nil {
			f.Write(append(line, '\n'))
			f.Close()
		}
	}
	handshake := req.Type == "handshake" || req.Type == "" && req.Hook == "handshake"
	if *refDialect {
		handshake = req.Hook == "handshake"
	}
	if handshake {
		if mode == "hangall" {
			time.Sleep(time.Hour)
		}
		hs := map[string]any{"rsp_version": "0.1", "name": *name, "version": *version,
			"hooks": strings.Split(*hooks, ","), "deterministic": *det, "chaos_unknown_field": true}
		switch {
		case *threshold >= 0 && *refDialect:
			hs["max_inline_bytes"] = *threshold
		case *threshold >= 0:
			hs["inline_threshold"] = *threshold
		}
		if !*noRef {
			hs["content_ref"] = true
		}
		switch mode {
		case "nohandshake":
			hs = map[string]any{"verdict": "ALLOW"}
		case "wrongversion":
			hs["rsp_version"] = "1.0"
		}
		out(hs)
		return
	}
	if *crashOn != "" && strings.Contains(content, *crashOn) {
		mode = "crash"
	}
	call(mode, args[1:], content, !*refDialect)
}

func out(v any) {
	b, _ := json.Marshal(v)
	os.Stdout.Write(append(b, '\n'))
}

func call(mode string, args []string, content string, severity bool) {
	arg := func(i int) string {
		if i < len(args) {
			return args[i]
		}
		return ""
	}
	switch mode {
	case "allow":
		out(map[string]any{"verdict": "ALLOW", "chaos_unknown_field": 1})
	case "block":
		out(map[string]any{"verdict": "BLOCK", "reason": "chaos says block"})
	case "flag":
		if !severity {
			out(map[string]any{"verdict": "FLAG"})
			return
		}
		out(map[string]any{"verdict": "FLAG", "severity": arg(0), "reason": "chaos says flag"})
	case "redact":
		var spans []map[string]any
		for _, s := range strings.Split(arg(0), ",") {
			p := strings.SplitN(s, ":", 3)
			if len(p) != 3 {
				continue
			}
			a, _ := strconv.Atoi(p[0])
			b, _ := strconv.Atoi(p[1])
			spans = append(spans, map[string]any{"start": a, "end": b, "type": p[2]})
		}
		out(map[string]any{"verdict": "REDACT", "spans": spans, "replacement": arg(1), "severity": arg(2)})
	case "answer":
		os.Stdout.WriteString(arg(0))
	case "bycontent":
		var m map[string]json.RawMessage
		json.Unmarshal([]byte(arg(0)), &m)
		if a, ok := m[content]; ok {
			os.Stdout.Write(append(a, '\n'))
		} else {
			out(map[string]any{"verdict": "ALLOW"})
		}
	case "find":
		i := strings.Index(content, arg(0))
		switch {
		case i < 0:
			out(map[string]any{"verdict": "ALLOW"})
		case arg(1) == "block":
			out(map[string]any{"verdict": "BLOCK", "reason": "found"})
		case !severity:
			out(map[string]any{"verdict": "REDACT", "spans": []map[string]any{{"start": i, "end": i + len(arg(0)), "type": "word"}},
				"replacement": "[WORD]"})
		default:
			out(map[string]any{"verdict": "REDACT", "spans": []map[string]any{{"start": i, "end": i + len(arg(0)), "type": "word"}},
				"replacement": "[WORD]", "severity": "medium"})
		}
	case "findchars":
		i := strings.Index(content, arg(0))
		if i < 0 {
			out(map[string]any{"verdict": "ALLOW"})
			return
		}
		c := utf8.RuneCountInString(content[:i])
		out(map[string]any{"verdict": "REDACT", "spans": []map[string]any{{"start": c, "end": c + len(arg(0)), "type": "word"}},
			"replacement": "[WORD]", "severity": "medium"})
	case "crash":
		os.Stdout.WriteString(`{"verdict":`)
		panic("chaos crash")
	case "exit":
		out(map[string]any{"verdict": "ALLOW"})
		os.Exit(3)
	case "signal":
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		time.Sleep(time.Hour)
	case "hang":
		self, _ := os.Executable()
		cmd := exec.Command(self, "sleeper")
		cmd.Start()
		time.Sleep(time.Hour)
	case "orphan":
		self, _ := os.Executable()
		cmd := exec.Command(self, "sleeper")
		cmd.Start()
		out(map[string]any{"verdict": "ALLOW"})
	case "slow":
		ms, _ := strconv.Atoi(arg(0))
		time.Sleep(time.Duration(ms) * time.Millisecond)
		out(map[string]any{"verdict": "ALLOW"})
	case "garbage":
		os.Stdout.WriteString("debug: starting scan\nnot json at all\n")
	case "two":
		out(map[string]any{"verdict": "ALLOW"})
		out(map[string]any{"verdict": "ALLOW"})
	case "flood":
		line := []byte(strings.Repeat("flood ", 1000) + "\n")
		for {
			if _, err := os.Stdout.Write(line); err != nil {
				os.Exit(1)
			}
		}
	case "deep":
		// Nesting too long for an argument: the answer is built here.
		n, _ := strconv.Atoi(arg(0))
		nest := strings.Repeat(arg(1), n) + "0" + strings.Repeat(arg(2), n)
		if arg(3) == "bare" {
			os.Stdout.WriteString(nest + "\n")
			return
		}
		os.Stdout.WriteString(`{"verdict":"ALLOW","x":` + nest + "}\n")
	case "stderr":
		os.Stderr.Write([]byte(strings.Repeat("e", 1<<20)))
		out(map[string]any{"verdict": "ALLOW"})
	case "outofrange":
		out(redactAt(0, len(content)+1))
	case "inverted":
		out(redactAt(min(3, len(content)), min(1, len(content))-1))
	case "splitchar":
		at := -1
		for i, r := range content {
			if utf8.RuneLen(r) > 1 {
				at = i + 1
				break
			}
		}
		if at < 0 {
			// No multi-byte character to split: an out-of-range end is
			// the same class of failure.
			at = len(content) + 1
		}
		out(redactAt(0, at))
	case "nohandshake", "wrongversion", "hangall":
		out(map[string]any{"verdict": "ALLOW"})
	case "nondet":
		// An empty span masks nothing; the replacement differs on every call.
		var b [8]byte
		rand.Read(b[:])
		out(map[string]any{"verdict": "REDACT", "spans": []map[string]any{{"start": 0, "end": 0, "type": "coin"}},
			"replacement": fmt.Sprintf("%x", b), "severity": "low"})
	default:
		fmt.Fprintln(os.Stderr, "chaos: unknown mode", mode)
		os.Exit(2)
	}
}

func redactAt(start, end int) map[string]any {
	return map[string]any{"verdict": "REDACT", "spans": []map[string]any{{"start": start, "end": end, "type": "chaos"}},
		"replacement": "[X]", "severity": "high"}
}
