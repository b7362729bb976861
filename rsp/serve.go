package rsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Request is one call as a plugin receives it, with content passed by
// reference already read.
type Request struct {
	Hook     string
	Content  string
	Metadata map[string]any
	// ByReference reports that the content came through content_ref.
	ByReference bool
}

// JudgeFunc is a plugin's judgement of one call. An error makes the
// process exit 1, which a host counts as a failure (class exit).
type JudgeFunc func(ctx context.Context, req Request) (Answer, error)

// Serve is a Go plugin's main: it answers the one request read from stdin
// (the handshake with hs, a call with judge) on stdout, reports a failure
// on stderr and returns the exit status. The plugin's main passes its own
// standard streams, so that a plugin is
//
//	func main() { os.Exit(rsp.Serve(hs, judge, os.Stdin, os.Stdout, os.Stderr)) }
func Serve(hs Handshake, judge JudgeFunc, stdin io.Reader, stdout, stderr io.Writer) int {
	if err := ServeIO(context.Background(), hs, judge, stdin, stdout); err != nil {
		fmt.Fprintln(stderr, "rsp plugin:", err)
		return 1
	}
	return 0
}

// maxRequestBytes bounds the request a plugin reads from stdin.
const maxRequestBytes = 64 << 20

// ServeIO reads one request from stdin and writes its answer to stdout.
func ServeIO(ctx context.Context, hs Handshake, judge JudgeFunc, stdin io.Reader, stdout io.Writer) error {
	b, err := io.ReadAll(io.LimitReader(stdin, maxRequestBytes+1))
	if err != nil {
		return fmt.Errorf("reading the request: %w", err)
	}
	if len(b) > maxRequestBytes {
		return errors.New("the request is too large")
	}
	req, handshake, err := ReadRequest(b)
	if err != nil {
		return err
	}
	var out []byte
	if handshake {
		out = marshal(hs)
	} else {
		a, err := judge(ctx, req)
		if err != nil {
			return err
		}
		out = marshal(a)
	}
	_, err = stdout.Write(append(out, '\n'))
	return err
}

// ReadRequest decodes a request a plugin received: a handshake (the
// second result is true) or a call, whose content it reads from the
// content_ref when there is one. The request must be strict JSON (no
// repeated key at any depth, no lone surrogate, no integer beyond
// ±(2^53−1), no NaN, no leading zero, bounded nesting). Both dialects are
// read: a handshake is "hook":"handshake" (the reference's) or
// "type":"handshake" (rypsok's); a call has "type":"call" or no type.
// Unknown fields are ignored.
func ReadRequest(b []byte) (Request, bool, error) {
	if err := strictObject(b); err != nil {
		return Request{}, false, fmt.Errorf("the request is refused: %w", err)
	}
	var m struct {
		RSPVersion string         `json:"rsp_version"`
		Type       string         `json:"type"`
		Hook       string         `json:"hook"`
		Content    *string        `json:"content"`
		ContentRef *contentRef    `json:"content_ref"`
		Metadata   map[string]any `json:"metadata"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return Request{}, false, fmt.Errorf("the request is refused: %w", fieldError(err))
	}
	if major, _, _ := strings.Cut(m.RSPVersion, "."); major != "0" {
		return Request{}, false, fmt.Errorf("rsp_version %q is not 0.x", m.RSPVersion)
	}
	switch {
	case m.Type == "handshake" || m.Type == "" && m.Hook == hookHandshake:
		return Request{}, true, nil
	case m.Type != "" && m.Type != "call":
		return Request{}, false, fmt.Errorf("unknown request type %q", m.Type)
	case m.Hook == hookHandshake:
		return Request{}, false, errors.New(`a call with hook "handshake"`)
	case m.Hook == "":
		return Request{}, false, errors.New("the call names no hook")
	}
	req := Request{Hook: m.Hook, Metadata: m.Metadata}
	switch {
	case m.Content != nil:
		req.Content = *m.Content
	case m.ContentRef != nil:
		c, err := readRef(*m.ContentRef)
		if err != nil {
			return Request{}, false, err
		}
		req.Content, req.ByReference = c, true
	default:
		return Request{}, false, errors.New("the call has neither content nor content_ref")
	}
	return req, false, nil
}

// readRef reads the referenced bytes.
func readRef(r contentRef) (string, error) {
	if r.Offset < 0 || r.Length < 0 || r.Length > maxRequestBytes {
		return "", errors.New("content_ref is out of range")
	}
	f, err := os.Open(r.Path)
	if err != nil {
		return "", fmt.Errorf("opening content_ref: %w", err)
	}
	defer f.Close()
	buf := make([]byte, r.Length)
	if _, err := f.ReadAt(buf, r.Offset); err != nil && !(errors.Is(err, io.EOF) && r.Length == 0) {
		return "", fmt.Errorf("reading content_ref: %w", err)
	}
	return string(buf), nil
}
