package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"rypsok/internal/config"
	"rypsok/mcp"
)

// The end-to-end tests of network mode build the real binary, start
// `serve --transport http` on a loopback port the kernel picks (bind
// 127.0.0.1:0; the listening line names it) and talk to it over real
// sockets with net/http. Each run is bounded: a handful of requests and a
// deadline on every wait.

// httpRun is one running `serve --transport http`.
type httpRun struct {
	*servedRun
	addr string // host:port from the listening line
	// listeningFirst: the listening line was the log's first (Tutorial 4).
	listeningFirst bool
}

// newToken returns a fresh caller token of 64 hexadecimal characters.
func newToken(t *testing.T) string {
	t.Helper()
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// httpConfig appends network mode to a configuration of site: a loopback
// bind on a port the kernel picks, more [service.http] keys, the callers
// given (id, then the variable of its token), then extra tables.
func httpConfig(t *testing.T, cfg, httpKeys, extra string, callers ...string) string {
	t.Helper()
	base, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.Write(base)
	b.WriteString("[service.http]\nbind = \"127.0.0.1:0\"\n" + httpKeys)
	for i := 0; i+1 < len(callers); i += 2 {
		fmt.Fprintf(&b, "[[service.http.auth.callers]]\nid = %q\ntoken_env = %q\n", callers[i], callers[i+1])
	}
	b.WriteString(extra)
	p := filepath.Join(t.TempDir(), "rypsok-http.toml")
	writeFile(t, p, b.String())
	return p
}

// startHTTP starts the binary and waits for its listening line.
func startHTTP(t *testing.T, cfg, certFile string, env ...string) *httpRun {
	t.Helper()
	cmd := exec.Command(binary(t), "serve", "--transport", "http", "--config", cfg)
	cmd.Env = append([]string{"SSL_CERT_FILE=" + certFile, "PATH=" + os.Getenv("PATH")}, env...)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	run, addr, first := startServed(t, cmd, "listening", func(err error) error {
		if stdout.Len() > 0 {
			return fmt.Errorf("serve --transport http wrote to stdout: %q", stdout.String())
		}
		return err
	})
	return &httpRun{servedRun: run, addr: addr, listeningFirst: first}
}

// mcpPost is a POST to /mcp of the 2026-07-28 revision: the headers of the
// revision beside the body, and the bearer token when one is given.
func mcpPost(t *testing.T, c *http.Client, addr, tok, method, name, params string) (*http.Response, []byte) {
	t.Helper()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":{%s%s}}`, method, params, tutorialMeta)
	req, _ := http.NewRequest("POST", "http://"+addr+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

func callResult(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("answer is not JSON: %q", b)
	}
	r, ok := m["result"].(map[string]any)
	if !ok {
		t.Fatalf("answer has no result: %s", b)
	}
	return r
}

// TestREQ_MCP_003_NetworkModeEndToEnd: the binary in network mode answers
// server/discover and engine_status with a bearer token, 401 without it or
// with a wrong one, the call of Tutorial 4 byte for byte the answer stdio
// gives, and logs the caller id on the call.
func TestREQ_MCP_003_NetworkModeEndToEnd(t *testing.T) {
	s, cfg := site(t, 0)
	tok := newToken(t)
	run := startHTTP(t, httpConfig(t, cfg, "", "", "mimlys", "RYPSOK_TOKEN_MIMLYS"), s.CertFile, "RYPSOK_TOKEN_MIMLYS="+tok)
	c := &http.Client{Timeout: 10 * time.Second}
	if !run.listeningFirst {
		t.Fatalf("listening is not the log's first line:\n%s", run.stderr())
	}

	resp, b := mcpPost(t, c, run.addr, tok, "server/discover", "", "")
	if resp.StatusCode != 200 {
		t.Fatalf("discover: %d %s", resp.StatusCode, b)
	}
	disc := callResult(t, b)
	if disc["supportedVersions"].([]any)[0] != "2026-07-28" {
		t.Fatalf("discover: %s", b)
	}

	// Tutorial 4's curl call, as the book writes it (its body and headers).
	tutorial := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"engine_status","arguments":{},
"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
"io.modelcontextprotocol/clientInfo":{"name":"probe","version":"0"},
"io.modelcontextprotocol/clientCapabilities":{}}}}`
	call := func(auth string) (*http.Response, []byte) {
		req, _ := http.NewRequest("POST", "http://"+run.addr+"/mcp", strings.NewReader(tutorial))
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "engine_status")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	resp, httpAnswer := call("Bearer " + tok)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("engine_status: %d %q %s", resp.StatusCode, resp.Header.Get("Content-Type"), httpAnswer)
	}
	res := callResult(t, httpAnswer)
	if res["isError"] != false || res["structuredContent"].(map[string]any)["outcome"] != "ok" {
		t.Fatalf("engine_status: %s", httpAnswer)
	}
	// The same request over stdio gives the same JSON.
	cmd := serveCmd(t, cfg, s.CertFile)
	cmd.Stdin = strings.NewReader(strings.ReplaceAll(tutorial, "\n", "") + "\n")
	stdioAnswer, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := bytes.TrimRight(stdioAnswer, "\n"); !bytes.Equal(got, bytes.TrimRight(httpAnswer, "\n")) {
		t.Fatalf("the HTTP answer differs from stdio's:\nhttp  %s\nstdio %s", httpAnswer, got)
	}

	wrong := []byte(tok)
	wrong[len(wrong)-1] ^= 1 // one byte off
	for _, auth := range []string{"", "Bearer " + string(wrong), "Basic " + tok, "bearer " + tok} {
		resp, b := call(auth)
		want := http.StatusUnauthorized
		if auth == "bearer "+tok {
			want = 200 // the scheme is case-insensitive
		}
		if resp.StatusCode != want {
			t.Fatalf("Authorization %.8q…: %d %s, want %d", auth, resp.StatusCode, b, want)
		}
		if want == 401 && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Fatalf("401 without WWW-Authenticate: %v", resp.Header)
		}
	}

	if err, took := run.stop(t); err != nil || took > 2500*time.Millisecond {
		t.Fatalf("exit: %v after %s\n%s", err, took, run.stderr())
	}
	calls, refused := 0, 0
	for _, line := range run.lines() {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) != nil {
			t.Fatalf("log line is not JSON: %q", line)
		}
		switch m["event"] {
		case "call":
			calls++
			if m["caller"] != "mimlys" {
				t.Fatalf("call without its caller: %s", line)
			}
		case "http_refused":
			refused++
			if m["reason"] != "unauthorized" {
				t.Fatalf("refusal: %s", line)
			}
		}
	}
	if calls != 2 || refused != 3 {
		t.Fatalf("%d call and %d http_refused lines:\n%s", calls, refused, run.stderr())
	}
}

// TestREQ_SEC_019_CallersHaveTheirOwnLimitsAndCache: two callers over the
// binary. One exhausting engine_status's limit does not limit the other,
// and the result cache is per caller: a search repeated by the same caller
// is from the cache, the same search by the other caller is not.
func TestREQ_SEC_019_CallersHaveTheirOwnLimitsAndCache(t *testing.T) {
	s, cfg := site(t, 0)
	ta, tb := newToken(t), newToken(t)
	extra := "[limits]\nengine_status_per_minute = 2\n[cache]\nenabled = true\n"
	run := startHTTP(t, httpConfig(t, cfg, "", extra, "alpha", "TOK_A", "beta", "TOK_B"), s.CertFile, "TOK_A="+ta, "TOK_B="+tb)
	c := &http.Client{Timeout: 15 * time.Second}

	status := func(tok string) map[string]any {
		resp, b := mcpPost(t, c, run.addr, tok, "tools/call", "engine_status", `"name":"engine_status","arguments":{},`)
		if resp.StatusCode != 200 {
			t.Fatalf("engine_status: %d %s", resp.StatusCode, b)
		}
		return callResult(t, b)
	}
	for i := 0; i < 2; i++ {
		if r := status(ta); r["isError"] != false {
			t.Fatalf("alpha call %d: %v", i, r)
		}
	}
	if r := status(ta); r["isError"] != true || !strings.Contains(fmt.Sprint(r["structuredContent"]), "rate_limited") {
		t.Fatalf("alpha's third call is not rate limited: %v", r)
	}
	if r := status(tb); r["isError"] != false {
		t.Fatalf("beta is limited by alpha's calls: %v", r)
	}

	search := func(tok string) bool {
		resp, b := mcpPost(t, c, run.addr, tok, "tools/call", "web_search", `"name":"web_search","arguments":{"query":"rust"},`)
		if resp.StatusCode != 200 {
			t.Fatalf("web_search: %d %s", resp.StatusCode, b)
		}
		r := callResult(t, b)
		if r["isError"] != false {
			t.Fatalf("web_search: %s", b)
		}
		return strings.Contains(string(b), `\"from_cache\"`) || strings.Contains(fmt.Sprint(r["structuredContent"]), "from_cache")
	}
	if search(ta) {
		t.Fatal("alpha's first search came from the cache")
	}
	if !search(ta) {
		t.Fatal("alpha's second search did not come from the cache")
	}
	if search(tb) {
		t.Fatal("beta's first search came from alpha's cache entry")
	}
	if err, _ := run.stop(t); err != nil {
		t.Fatalf("exit: %v", err)
	}
}

// TestREQ_OPS_002_HTTPShutdownWithACallInFlight: SIGTERM while a search
// waits on its engine. A call that ends within service.shutdown_ms (1 s
// here) is answered and the process exits 0; one that would outlast it is
// cut at shutdown_ms and the process still exits 0, in time.
func TestREQ_OPS_002_HTTPShutdownWithACallInFlight(t *testing.T) {
	for _, c := range []struct {
		name     string
		slow     time.Duration
		answered bool
	}{{"finishes", 400 * time.Millisecond, true}, {"outlasts", 20 * time.Second, false}} {
		t.Run(c.name, func(t *testing.T) {
			s, cfg := site(t, c.slow)
			tok := newToken(t)
			run := startHTTP(t, httpConfig(t, cfg, "", "", "ops", "TOK"), s.CertFile, "TOK="+tok)
			type answer struct {
				status int
				body   []byte
				err    error
			}
			got := make(chan answer, 1)
			go func() {
				body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"web_search","arguments":{"query":"rust"},` + tutorialMeta + `}}`
				req, _ := http.NewRequest("POST", "http://"+run.addr+"/mcp", strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+tok)
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("MCP-Protocol-Version", "2026-07-28")
				req.Header.Set("Mcp-Method", "tools/call")
				req.Header.Set("Mcp-Name", "web_search")
				resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
				if err != nil {
					got <- answer{err: err}
					return
				}
				b, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				got <- answer{resp.StatusCode, b, err}
			}()
			time.Sleep(200 * time.Millisecond) // the call is in flight
			err, took := run.stop(t)
			if err != nil {
				t.Fatalf("exit: %v\n%s", err, run.stderr())
			}
			if took > 2500*time.Millisecond { // LIM-O1 is 1 s here
				t.Fatalf("exit took %s", took)
			}
			a := <-got
			if c.answered {
				if a.err != nil || a.status != 200 || !strings.Contains(string(a.body), "Rust (programming language)") {
					t.Fatalf("the call in flight was not answered: %v %d %s", a.err, a.status, a.body)
				}
			} else if a.err == nil && a.status == 200 {
				t.Fatalf("a call outlasting shutdown_ms was answered: %s", a.body)
			}
		})
	}
}

// TestREQ_SEC_018_HTTPStartRefusals: what serve --transport http refuses
// at start, with exit 1 and the key named, never the token: an inline
// token, a token file other users may read, a short token, a bind off
// loopback without callers, an address of another host, a port in use.
func TestREQ_SEC_018_HTTPStartRefusals(t *testing.T) {
	s, _ := site(t, 0)
	dir := t.TempDir()
	tok := newToken(t)
	tokFile := filepath.Join(dir, "token")
	writeFile(t, tokFile, tok+"\n")
	os.Chmod(tokFile, 0o644)
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	caller := "[[service.http.auth.callers]]\nid = \"ops\"\ntoken_env = \"TOK\"\n"
	for _, c := range []struct{ name, doc, want string }{
		{"inline token", "[[service.http.auth.callers]]\nid = \"ops\"\ntoken = \"" + tok + "\"\n",
			"service.http.auth.callers[0].token: give the secret by token_env or token_file"},
		{"token file mode", "[[service.http.auth.callers]]\nid = \"ops\"\ntoken_file = \"" + tokFile + "\"\n",
			"service.http.auth.callers[0].token_file: the token file's mode 0644 lets other users read or change it; chmod 600"},
		{"short token", "[[service.http.auth.callers]]\nid = \"ops\"\ntoken_env = \"SHORT\"\n",
			"service.http.auth.callers[0].token_env: the token is shorter than 32 bytes"},
		{"off loopback without callers", "[service.http]\nbind = \"192.0.2.10:8737\"\n",
			"service.http.bind: a non-loopback bind needs [service.http.auth] callers"},
		{"unspecified without hosts", "[service.http]\nbind = \"0.0.0.0:8737\"\n" + caller,
			"service.http.bind: a bind on an unspecified address (0.0.0.0, ::) needs service.http.allowed_hosts"},
		{"another host's address", "[service.http]\nbind = \"192.0.2.10:8737\"\n" + caller,
			`"key":"service.http.bind","reason":"the address is not one of this host's"`},
		{"port in use", "[service.http]\nbind = \"" + busy.Addr().String() + "\"\n" + caller,
			`"key":"service.http.bind","reason":"the address is already in use"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, "c.toml")
			writeFile(t, p, "config_version = 1\n"+c.doc)
			cmd := exec.Command(binary(t), "serve", "--transport", "http", "--config", p)
			cmd.Env = []string{"SSL_CERT_FILE=" + s.CertFile, "TOK=" + tok, "SHORT=" + tok[:31]}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			done := make(chan error, 1)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			go func() { done <- cmd.Wait() }()
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				t.Fatal("serve did not exit")
			}
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
				t.Fatalf("exit %v, want 1\n%s", err, stderr.String())
			}
			if !strings.Contains(stderr.String(), c.want) {
				t.Fatalf("stderr lacks %q:\n%s", c.want, stderr.String())
			}
			if strings.Contains(stderr.String(), tok[:16]) || strings.Contains(stderr.String(), "listening") || stdout.Len() > 0 {
				t.Fatalf("stderr shows the token or a listener, or stdout was written:\n%s", stderr.String())
			}
		})
	}
}

// TestREQ_SEC_018_HTTPLogHygiene runs a hostile-ish client against the
// binary (wrong and missing tokens, a foreign Host and Origin, an unknown
// path, an oversized body declared and streamed, a slow header, a refused
// Accept, a good call) and scans every stderr line: none may hold the
// token, a wrong token, the Host or Origin value, a header marker or the
// path.
func TestREQ_SEC_018_HTTPLogHygiene(t *testing.T) {
	s, cfg := site(t, 0)
	tok := newToken(t)
	run := startHTTP(t, httpConfig(t, cfg, "max_request_bytes = 4096\n", "", "ops", "TOK"), s.CertFile, "TOK="+tok)
	const (
		hostMarker   = "evil-host-marker.example"
		originMarker = "https://origin-marker.example"
		headerMarker = "header-marker-5f3a"
		pathMarker   = "path-marker-9c1e"
	)
	wrongTok := newToken(t)
	c := &http.Client{Timeout: 10 * time.Second}
	send := func(method, path, host, auth string, h map[string]string, body io.Reader) int {
		req, _ := http.NewRequest(method, "http://"+run.addr+path, body)
		if host != "" {
			req.Host = host
		}
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "engine_status")
		req.Header.Set("X-Marker", headerMarker)
		for k, v := range h {
			req.Header.Set(k, v)
		}
		resp, err := c.Do(req)
		if err != nil {
			return 0
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	good := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"engine_status","arguments":{},` + tutorialMeta + `}}`
	bearer := "Bearer " + tok
	for _, c := range []struct {
		name         string
		method, path string
		host, auth   string
		h            map[string]string
		body         io.Reader
		want         int
	}{
		{"good", "POST", "/mcp", "", bearer, nil, strings.NewReader(good), 200},
		{"no token", "POST", "/mcp", "", "", nil, strings.NewReader(good), 401},
		{"wrong token", "POST", "/mcp", "", "Bearer " + wrongTok, nil, strings.NewReader(good), 401},
		{"token in another scheme", "POST", "/mcp", "", "Token " + tok, nil, strings.NewReader(good), 401},
		{"foreign host", "POST", "/mcp", hostMarker, bearer, nil, strings.NewReader(good), 403},
		{"foreign origin", "POST", "/mcp", "", bearer, map[string]string{"Origin": originMarker}, strings.NewReader(good), 403},
		{"other path", "POST", "/" + pathMarker, "", bearer, nil, strings.NewReader(good), 404},
		{"path with a token", "GET", "/mcp/" + pathMarker + "?t=" + tok, "", bearer, nil, nil, 404},
		{"accept one type", "POST", "/mcp", "", bearer, map[string]string{"Accept": "application/json"}, strings.NewReader(good), 406},
		{"declared large body", "POST", "/mcp", "", bearer, nil, bytes.NewReader(bytes.Repeat([]byte(" "), 8192)), 413},
		{"streamed large body", "POST", "/mcp", "", bearer, nil, io.MultiReader(strings.NewReader(`{"x":"`), io.LimitReader(zeros{}, 8192)), 413},
		{"header mismatch", "POST", "/mcp", "", bearer, map[string]string{"Mcp-Name": headerMarker}, strings.NewReader(good), 400},
		{"not JSON-RPC", "POST", "/mcp", "", bearer, nil, strings.NewReader(`{"jsonrpc":"2.0","id":null,"method":"` + pathMarker + `"}`), 415},
	} {
		if got := send(c.method, c.path, c.host, c.auth, c.h, c.body); got != c.want {
			t.Errorf("%s: status %d, want %d", c.name, got, c.want)
		}
	}
	// A header block that ends before its blank line, with the token and
	// the markers in it, then silence: bounded, and never logged.
	conn, err := net.Dial("tcp", run.addr)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "POST /%s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nX-Marker: %s\r\n", pathMarker, hostMarker, tok, headerMarker)
	time.Sleep(100 * time.Millisecond)
	conn.Close()
	// A 100 KiB header block: 431, or the connection closed while the
	// client still writes it; never buffered whole, never logged.
	if got := send("POST", "/mcp", "", bearer, map[string]string{"X-Big": strings.Repeat(headerMarker, 100<<10/len(headerMarker))}, strings.NewReader(good)); got != 431 && got != 0 {
		t.Errorf("100 KiB header: status %d, want 431", got)
	}

	if err, _ := run.stop(t); err != nil {
		t.Fatalf("exit: %v", err)
	}
	lines := run.lines()
	if len(lines) < 5 {
		t.Fatalf("too few log lines to judge:\n%s", run.stderr())
	}
	for _, line := range lines {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) != nil {
			t.Fatalf("log line is not JSON: %q", line)
		}
		for _, secret := range []string{tok, tok[:12], wrongTok[:12], hostMarker, "origin-marker", headerMarker, pathMarker, "/mcp"} {
			if strings.Contains(line, secret) {
				t.Fatalf("log line holds %q: %s", secret, line)
			}
		}
	}
	if !strings.Contains(run.stderr(), `"reason":"unauthorized"`) || !strings.Contains(run.stderr(), `"reason":"sdk_forbidden"`) {
		t.Fatalf("the refusals are not logged:\n%s", run.stderr())
	}
}

// zeros reads as an endless run of '0'.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '0'
	}
	return len(p), nil
}

// TestHTTPSettingsFromTheConfiguration: [service.http] reaches the listener
// whole: durations in seconds, legacy_revisions inverted, tokens as bytes,
// and on a bind to one address off loopback with no allowed_hosts the bind
// itself is the allowed Host (the book: empty means the loopback names and
// the bind host). A bind error names the key and never the address.
func TestHTTPSettingsFromTheConfiguration(t *testing.T) {
	tok := strings.Repeat("t0", 20)
	doc := "config_version = 1\n[service.http]\nbind = \"192.0.2.10:8737\"\nlegacy_revisions = false\nidle_timeout_s = 7\nrequest_timeout_s = 40\nmax_connections = 9\nmax_streams = 3\nmax_sessions = 5\nmax_request_bytes = 5000\n" +
		"[[service.http.auth.callers]]\nid = \"ops\"\ntoken_env = \"TOK\"\n"
	cfg, err := config.Load([]byte(doc), "test", config.Env{Lookup: func(k string) (string, bool) { return tok, k == "TOK" }}, config.Options{ReadTokens: true})
	if err != nil {
		t.Fatal(err)
	}
	set := httpSettings(cfg)
	if set.Bind != "192.0.2.10:8737" || !set.NoLegacyRevisions || set.IdleTimeout != 7*time.Second || set.RequestTimeout != 40*time.Second ||
		set.MaxConnections != 9 || set.MaxStreams != 3 || set.MaxSessions != 5 || set.MaxRequestBytes != 5000 {
		t.Fatalf("settings: %+v", set)
	}
	if len(set.AllowedHosts) != 1 || set.AllowedHosts[0] != "192.0.2.10:8737" {
		t.Fatalf("allowed hosts: %v", set.AllowedHosts)
	}
	if len(set.Callers) != 1 || set.Callers[0].ID != "ops" || string(set.Callers[0].Token) != tok {
		t.Fatal("callers do not reach the listener")
	}
	bindErr := func(errno syscall.Errno, addr string) error {
		return &mcp.SettingError{Key: "service.http.bind", Err: &net.OpError{Op: "listen", Net: "tcp",
			Addr: &net.TCPAddr{IP: net.ParseIP(addr), Port: 8737}, Err: os.NewSyscallError("bind", errno)}}
	}
	for _, c := range []struct {
		err         error
		key, reason string
	}{
		{bindErr(syscall.EADDRNOTAVAIL, "192.0.2.10"), "service.http.bind", "the address is not one of this host's"},
		{bindErr(syscall.EACCES, "127.0.0.1"), "service.http.bind", "binding the address is not permitted"},
		{bindErr(syscall.EADDRINUSE, "127.0.0.1"), "service.http.bind", "the address is already in use"},
		{&mcp.SettingError{Key: "service.http.bind", Err: &net.AddrError{Err: "missing port in address", Addr: "127.0.0.1"}}, "service.http.bind", "expected an address and port such as 127.0.0.1:8737"},
		{&mcp.SettingError{Key: "service.http.auth.callers", Err: errors.New("a bind off loopback requires callers")}, "service.http.auth.callers", "a bind off loopback requires callers"},
		{errors.New("something else"), "service.http", "the listener could not be started"},
	} {
		key, reason := startupFailure(c.err)
		if key != c.key || reason != c.reason || strings.Contains(reason, "listen tcp") || strings.Contains(reason, "192.0.2.10") {
			t.Errorf("%q: %q %q", c.err, key, reason)
		}
	}
}
