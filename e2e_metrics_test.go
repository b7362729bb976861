package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"rypsok/internal/metrics/metricstest"
)

// The metrics listener of a running binary: what a scrape shows after
// calls of each tool, and how /readyz follows the plugins' handshake and
// SIGTERM.

// metricsTables turns the listener on, on a port the kernel picks.
const metricsTables = "[service.metrics]\nbind = \"127.0.0.1:0\"\n"

// metricsRun is one serve whose stderr is watched for its metrics
// listener's address.
type metricsRun struct {
	*servedRun
	metrics string // host:port
}

func startMetricsRun(t *testing.T, args []string, env []string, stdin *os.File) *metricsRun {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, env...)
	cmd.Stdin = stdin
	run, addr, _ := startServed(t, cmd, "metrics_listening", nil)
	return &metricsRun{servedRun: run, metrics: addr}
}

// metricsGet is one GET on the metrics listener: status and body, or 0
// when the connection failed.
func metricsGet(addr, path string) (int, string) {
	c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := c.Get("http://" + addr + path)
	if err != nil {
		return 0, ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// metricsAddress is the address of the metrics_listening line of a run in
// network mode, which comes before listening.
func metricsAddress(t *testing.T, run *httpRun) string {
	t.Helper()
	for _, l := range run.lines() {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil && m["event"] == "metrics_listening" {
			if a, ok := m["address"].(string); ok {
				return a
			}
		}
	}
	t.Fatalf("no metrics_listening line:\n%s", run.stderr())
	return ""
}

// waitReady polls /readyz for up to 5 s: the listening line is written at
// the bind, a moment before serve records that it serves.
func waitReady(addr string) (int, string) {
	deadline := time.Now().Add(5 * time.Second)
	for {
		code, body := metricsGet(addr, "/readyz")
		if code == 200 || time.Now().After(deadline) {
			return code, body
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// closedPort is an address on loopback where nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// TestREQ_OBS_008_ScrapeOfARunningBinary: after calls of each tool, a
// refusal of the egress policy, an engine that fails, a plugin's verdict,
// a rate-limited call and a refused token, the scrape is strictly valid
// (and promtool agrees where installed) and counts each of them; none of
// the caller-supplied marker text (query, URL, token) is in it.
func TestREQ_OBS_008_ScrapeOfARunningBinary(t *testing.T) {
	const marker = "zqmetricsmarker"
	tables := rspPlugin("chaos", []string{rspChaos(t), "find", "Bone"}, "tools = [\"web_search\"]\n")
	s, cfg := rspSite(t, rspKey(7), tables)
	tok := newToken(t)
	extra := "[engines.deadwiki]\ntype = \"wikipedia\"\ncategories = [\"general\"]\npreference = 2\nbase_url = \"https://" + closedPort(t) + "/w/api.php\"\n" +
		"[limits]\nengine_status_per_minute = 1\n" + metricsTables
	run := startHTTP(t, httpConfig(t, cfg, "", extra, "mimlys", "RYPSOK_TOKEN_MIMLYS"), s.CertFile, "RYPSOK_TOKEN_MIMLYS="+tok)
	maddr := metricsAddress(t, run)
	if code, body := waitReady(maddr); code != 200 {
		t.Fatalf("/readyz of a bound, handshaken replica: %d %q", code, body)
	}

	c := &http.Client{Timeout: 20 * time.Second}
	tool := func(name, args string) map[string]any {
		resp, b := mcpPost(t, c, run.addr, tok, "tools/call", name, fmt.Sprintf(`"name":%q,"arguments":%s,`, name, args))
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", name, resp.StatusCode, b)
		}
		return callResult(t, b)
	}
	res := tool("web_search", `{"query":"rust `+marker+`"}`)
	if out := res["structuredContent"].(map[string]any)["outcome"]; out != "partial" {
		t.Fatalf("web_search with one dead engine: %v", asJSON(res))
	}
	if res = tool("web_fetch", `{"url":"`+s.URL+`/wiki/Rust_(programming_language)?q=`+marker+`"}`); res["isError"] != false {
		t.Fatalf("web_fetch: %s", asJSON(res))
	}
	if res = tool("web_fetch", `{"url":"https://10.9.8.7/`+marker+`/page?token=`+marker+`"}`); res["isError"] != true {
		t.Fatalf("web_fetch of a private address: %s", asJSON(res))
	}
	tool("engine_status", `{}`)
	if res = tool("engine_status", `{}`); res["isError"] != true {
		t.Fatalf("the second engine_status was not rate limited: %s", asJSON(res))
	}
	if resp, _ := mcpPost(t, c, run.addr, marker+strings.Repeat("x", 40), "server/discover", "", ""); resp.StatusCode != 401 {
		t.Fatalf("a wrong token: %d", resp.StatusCode)
	}

	code, text := metricsGet(maddr, "/metrics")
	if code != 200 {
		t.Fatalf("/metrics: %d", code)
	}
	fs, err := metricstest.Parse(text)
	if err != nil {
		t.Fatalf("the scrape is not strictly valid: %v\n%s", err, text)
	}
	for _, bad := range []string{marker, tok, "10.9.8.7", "Rust_(programming", "127.0.0.1", "Bone"} {
		if strings.Contains(text, bad) {
			t.Errorf("the scrape carries %q", bad)
		}
	}
	want := []struct {
		name    string
		labels  map[string]string
		atLeast float64
	}{
		{"rypsok_build_info", map[string]string{"version": version}, 1},
		{"rypsok_tool_calls_total", map[string]string{"tool": "web_search", "outcome": "partial"}, 1},
		{"rypsok_tool_calls_total", map[string]string{"tool": "web_fetch", "outcome": "ok"}, 1},
		{"rypsok_tool_calls_total", map[string]string{"tool": "engine_status", "outcome": "ok"}, 1},
		{"rypsok_tool_errors_total", map[string]string{"tool": "web_fetch", "kind": "denied", "reason": "egress"}, 1},
		{"rypsok_fetch_refused_total", map[string]string{"reason": "egress"}, 1},
		{"rypsok_tool_call_duration_seconds_count", map[string]string{"tool": "web_search"}, 1},
		{"rypsok_engine_requests_total", map[string]string{"engine": "wikipedia", "result": "ok"}, 1},
		{"rypsok_engine_requests_total", map[string]string{"engine": "deadwiki", "result": "request_failure"}, 1},
		{"rypsok_engine_request_duration_seconds_count", map[string]string{"engine": "wikipedia"}, 1},
		{"rypsok_rsp_plugin_calls_total", map[string]string{"plugin": "chaos", "verdict": "redact"}, 1},
		{"rypsok_rsp_plugin_calls_total", map[string]string{"plugin": "chaos", "verdict": "allow"}, 1},
		{"rypsok_rate_limited_total", map[string]string{"caller": "mimlys", "tool": "engine_status"}, 1},
		{"rypsok_refusals_total", map[string]string{"scope": "engine_status", "reason": "rate_limited"}, 1},
		{"rypsok_refusals_total", map[string]string{"scope": "http", "reason": "unauthorized"}, 1},
		{"rypsok_fetched_bytes_total", nil, 1},
		{"rypsok_in_flight_limit", map[string]string{"work": "fetch"}, 1},
		{"rypsok_ready", nil, 1},
		{"process_resident_memory_bytes", nil, 1 << 20},
		{"rypsok_memory_limit_bytes", nil, 1 << 20},
	}
	for _, w := range want {
		v, ok := metricstest.Value(fs, w.name, w.labels)
		if !ok || v < w.atLeast {
			t.Errorf("%s%v = %v (found %v), want at least %v", w.name, w.labels, v, ok, w.atLeast)
		}
	}
	if promtool, err := exec.LookPath("promtool"); err == nil {
		cmd := exec.Command(promtool, "check", "metrics")
		cmd.Stdin = strings.NewReader(text)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("promtool check metrics: %v\n%s", err, out)
		}
	} else {
		t.Log("promtool is not installed (Debian package prometheus): the strict parser alone checked the scrape")
	}
	if err, _ := run.stop(t); err != nil {
		t.Fatalf("exit: %v\n%s", err, run.stderr())
	}
}

// TestREQ_OPS_002_ReadyzTurns503BeforeTheListenerStopsAccepting: with a
// call in flight, SIGTERM turns /readyz to 503 while the process drains;
// at no moment does the MCP listener refuse a connection while /readyz
// still answers 200, and /healthz answers until exit.
func TestREQ_OPS_002_ReadyzTurns503BeforeTheListenerStopsAccepting(t *testing.T) {
	s, cfg := site(t, 3*time.Second)
	tok := newToken(t)
	run := startHTTP(t, httpConfig(t, cfg, "", metricsTables, "mimlys", "RYPSOK_TOKEN_MIMLYS"), s.CertFile, "RYPSOK_TOKEN_MIMLYS="+tok)
	maddr := metricsAddress(t, run)
	if code, _ := waitReady(maddr); code != 200 {
		t.Fatalf("/readyz before SIGTERM: %d", code)
	}
	// A search held by the slow site keeps the process draining.
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"web_search","arguments":{"query":"rust"},` + tutorialMeta + `}}`
	req, _ := http.NewRequest("POST", "http://"+run.addr+"/mcp", strings.NewReader(body))
	for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
		"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "web_search", "Authorization": "Bearer " + tok} {
		req.Header.Set(k, v)
	}
	go func() {
		if resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	time.Sleep(300 * time.Millisecond)

	type probe struct {
		ready   int
		healthy int
		dialed  bool
	}
	var probes []probe
	run.cmd.Process.Signal(syscall.SIGTERM)
	for {
		select {
		case <-run.done:
		default:
			// The MCP port first, then /readyz: a 200 after a refused
			// connection in the same round would be the wrong order (the
			// other way round, readiness may turn and the listener close
			// between the two probes, as they should).
			p := probe{}
			if c, err := net.DialTimeout("tcp", run.addr, time.Second); err == nil {
				p.dialed = true
				c.Close()
			}
			p.ready, _ = metricsGet(maddr, "/readyz")
			p.healthy, _ = metricsGet(maddr, "/healthz")
			probes = append(probes, p)
			continue
		}
		break
	}
	saw503 := false
	for i, p := range probes {
		if p.ready == 200 && !p.dialed {
			t.Errorf("round %d: the MCP listener refused a connection while /readyz said 200 (%v)", i, probes)
		}
		if p.ready == 503 {
			saw503 = true
			if p.healthy != 200 && p.healthy != 0 { // 0: the process has just exited
				t.Errorf("round %d: /healthz %d while draining", i, p.healthy)
			}
		}
	}
	if !saw503 {
		t.Fatalf("/readyz never answered 503 between SIGTERM and exit: %v\n%s", probes, run.stderr())
	}
	if run.err != nil {
		t.Errorf("exit: %v", run.err)
	}
}

// TestReadyzStays503WhileAPluginFailsItsHandshake: a plugin that never
// answers its handshake keeps /readyz at 503 (naming the plugins) while
// /healthz answers 200; when the handshake fails, serve exits 1.
func TestReadyzStays503WhileAPluginFailsItsHandshake(t *testing.T) {
	tables := rspPlugin("stuck", []string{rspChaos(t), "hangall"}, "timeout_ms = 3000\n") + metricsTables
	s, cfg := rspSite(t, rspKey(8), tables)
	// Standard input stays open (stdio serve ends at its end); a file, so
	// that Wait does not wait on a copy of it.
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	defer pr.Close()
	run := startMetricsRun(t, []string{"serve", "--config", cfg}, []string{"SSL_CERT_FILE=" + s.CertFile}, pr)
	polls := 0
	deadline := time.Now().Add(20 * time.Second)
	for {
		select {
		case <-run.done:
		default:
			if time.Now().After(deadline) {
				t.Fatalf("serve did not end after its plugin's handshake failed:\n%s", run.stderr())
			}
			code, body := metricsGet(run.metrics, "/readyz")
			if code == 0 {
				time.Sleep(50 * time.Millisecond) // the process is exiting
				continue
			}
			polls++
			if code != 503 || !strings.Contains(body, "plugins") {
				t.Fatalf("/readyz during the handshake: %d %q", code, body)
			}
			if code, _ := metricsGet(run.metrics, "/healthz"); code != 200 && code != 0 {
				t.Fatalf("/healthz during the handshake: %d", code)
			}
			time.Sleep(100 * time.Millisecond)
			continue
		}
		break
	}
	if polls < 3 {
		t.Errorf("only %d answers from /readyz during a 3 s handshake", polls)
	}
	var ee *exec.ExitError
	if !errors.As(run.err, &ee) || ee.ExitCode() != exitConfig {
		t.Fatalf("exit %v, want code %d\n%s", run.err, exitConfig, run.stderr())
	}
}
