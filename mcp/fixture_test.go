package mcp

import (
	"bufio"
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Session fixtures: scripted conversations under testdata/sessions, each
// run against every transport it names. A line "> msg" is one message of
// the client; the "< answer" lines after it are the answers it gets, byte
// for byte. "# transports: stdio http" names the transports; other "#"
// lines are comments. go test ./mcp -run Fixture -update rewrites the
// answers from the stdio transport.

type fixtureStep struct {
	send    string
	answers []string
}

type fixture struct {
	name       string
	path       string
	header     []string // the comment lines, kept by -update
	transports map[string]bool
	steps      []fixtureStep
}

func loadFixtures(t *testing.T) []*fixture {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "sessions", "*.session"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no session fixtures: %v", err)
	}
	var out []*fixture
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f := &fixture{name: strings.TrimSuffix(filepath.Base(p), ".session"), path: p, transports: map[string]bool{}}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "# transports:"):
				f.header = append(f.header, line)
				for _, tr := range strings.Fields(strings.TrimPrefix(line, "# transports:")) {
					f.transports[tr] = true
				}
			case strings.HasPrefix(line, "#"), line == "":
				f.header = append(f.header, line)
			case strings.HasPrefix(line, "> "):
				f.steps = append(f.steps, fixtureStep{send: line[2:]})
			case strings.HasPrefix(line, "< "):
				if len(f.steps) == 0 {
					t.Fatalf("%s: an answer before any message", p)
				}
				s := &f.steps[len(f.steps)-1]
				s.answers = append(s.answers, line[2:])
			default:
				t.Fatalf("%s: unreadable line %q", p, line)
			}
		}
		if len(f.transports) == 0 {
			t.Fatalf("%s names no transport", p)
		}
		out = append(out, f)
	}
	return out
}

// answersExpected is how many answers a message gets on a stream: one for
// a request or a malformed message, none for a notification or a response.
func answersExpected(msg string) int {
	if len(bytes.TrimSpace([]byte(msg))) == 0 {
		return 0
	}
	m, _, rerr := decodeMessage([]byte(msg))
	if rerr != nil {
		return 1
	}
	if m == nil || m.kind != kindRequest {
		return 0
	}
	return 1
}

func (f *fixture) write(t *testing.T) {
	t.Helper()
	var b strings.Builder
	for _, h := range f.header {
		b.WriteString(h + "\n")
	}
	for _, s := range f.steps {
		b.WriteString("> " + s.send + "\n")
		for _, a := range s.answers {
			b.WriteString("< " + a + "\n")
		}
	}
	if err := os.WriteFile(f.path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func fixtureServer(t *testing.T) *Server {
	return newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil)
}

// runStdioFixture plays f on one stdio stream; with record it replaces the
// expected answers by those received.
func runStdioFixture(t *testing.T, f *fixture, record bool) {
	s := startSession(t, fixtureServer(t))
	for i := range f.steps {
		step := &f.steps[i]
		s.send(step.send)
		n := len(step.answers)
		if record {
			n = answersExpected(step.send)
			step.answers = nil
		}
		for j := 0; j < n; j++ {
			got := string(s.recv())
			if record {
				step.answers = append(step.answers, got)
				continue
			}
			if got != step.answers[j] {
				t.Errorf("step %d (%.60s):\n got %s\nwant %s", i+1, step.send, got, step.answers[j])
			}
		}
	}
	if _, err := s.closeInput(); err != nil {
		t.Fatal(err)
	}
	if l, ok := <-s.lines; ok {
		t.Errorf("an answer nobody expected: %s", l)
	}
}

// Every session fixture gives, byte for byte, the answers it pins, on
// every transport it names (REQ-MCP-002 stdio, REQ-MCP-003 HTTP).
func TestREQ_MCP_002_SessionFixturesOnStdio(t *testing.T) {
	for _, f := range loadFixtures(t) {
		if !f.transports["stdio"] {
			continue
		}
		t.Run(f.name, func(t *testing.T) {
			runStdioFixture(t, f, *update)
			if *update {
				f.write(t)
			}
		})
	}
}

// runHTTPFixture plays f over HTTP, one POST per message, the session id
// of an initialize carried on the requests after it.
func runHTTPFixture(t *testing.T, f *fixture, client func(*testing.T) *http.Client) {
	tl := startListener(t, fixtureServer(t), testHTTPSettings())
	c := client(t)
	sid := ""
	for i, step := range f.steps {
		r := tl.post(c, "", step.send, func(h http.Header) {
			if sid != "" {
				h.Set("Mcp-Session-Id", sid)
			}
		})
		if v := r.header.Get("Mcp-Session-Id"); v != "" {
			sid = v
		}
		switch len(step.answers) {
		case 0:
			if r.status != http.StatusAccepted || r.body != "" {
				t.Errorf("step %d (%.60s): status %d body %q, want 202 and no body", i+1, step.send, r.status, r.body)
			}
		case 1:
			if r.status != http.StatusOK || r.header.Get("Content-Type") != "application/json" {
				t.Errorf("step %d (%.60s): status %d, type %q", i+1, step.send, r.status, r.header.Get("Content-Type"))
			}
			if got := strings.TrimSuffix(r.body, "\n"); got != step.answers[0] {
				t.Errorf("step %d (%.60s):\n got %s\nwant %s", i+1, step.send, got, step.answers[0])
			}
		default:
			t.Fatalf("step %d: %d answers to one POST", i+1, len(step.answers))
		}
	}
}

// The same fixtures over Streamable HTTP give the same answers, byte for
// byte in their JSON, on HTTP/1.1 and on HTTP/2 without TLS.
func TestREQ_MCP_003_SessionFixturesOverHTTP(t *testing.T) {
	for _, f := range loadFixtures(t) {
		if !f.transports["http"] {
			continue
		}
		t.Run(f.name+"/http1", func(t *testing.T) { runHTTPFixture(t, f, h1Client) })
		t.Run(f.name+"/h2c", func(t *testing.T) { runHTTPFixture(t, f, h2cClient) })
	}
}
