package main

// End-to-end tests of the RAG Security Protocol through the real binary
// (docs/rsp.md): `rypsok serve` with `rypsok rsp secrets` (the binary
// itself as a plugin), the chaos plugin (rsp/chaos, built here) and, when
// one is installed, gitleaks through its adapter; `rypsok check`, `rypsok
// rsp ingest` and `rypsok rsp conformance`. Every test ends by proving that
// no plugin process outlived it.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"rypsok/internal/config"
	"rypsok/rsp"
	"rypsok/scripts/standin"
)

var (
	rspBuildOnce sync.Once
	rspChaosBin  string
	rspBuildErr  error
)

// rspChaos builds the chaos plugin once into a temporary directory.
func rspChaos(t *testing.T) string {
	t.Helper()
	rspBuildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "rypsok-e2e-rsp-")
		if err != nil {
			rspBuildErr = err
			return
		}
		rspChaosBin = filepath.Join(dir, "chaos")
		if out, err := exec.Command("go", "build", "-o", rspChaosBin, "./rsp/chaos").CombinedOutput(); err != nil {
			rspBuildErr = fmt.Errorf("building the chaos plugin: %v: %s", err, out)
		}
	})
	if rspBuildErr != nil {
		t.Fatal(rspBuildErr)
	}
	return rspChaosBin
}

// rspLive lists the live (not zombie) processes whose command line
// contains one of marks.
func rspLive(marks ...string) []string {
	ents, _ := os.ReadDir("/proc")
	var found []string
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if i := bytes.LastIndexByte(stat, ')'); i > 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
			continue
		}
		for _, m := range marks {
			if m != "" && bytes.Contains(cmdline, []byte(m)) {
				found = append(found, e.Name()+": "+strings.ReplaceAll(string(cmdline), "\x00", " "))
			}
		}
	}
	return found
}

// rspNoPluginLeft fails t when a plugin process is alive: the chaos
// plugin, `rypsok rsp secrets` or any of more. A killed process gets 5 s
// to be reaped.
func rspNoPluginLeft(t *testing.T, more ...string) {
	t.Helper()
	marks := append([]string{rspChaos(t), binary(t) + "\x00rsp\x00"}, more...)
	left := rspLive(marks...)
	for i := 0; i < 100 && len(left) > 0; i++ {
		time.Sleep(50 * time.Millisecond)
		left = rspLive(marks...)
	}
	if len(left) > 0 {
		t.Fatalf("plugin processes outlived the test: %v", left)
	}
}

// rspKey is a synthetic AWS access key id, made at run time so that no
// credential-shaped literal sits in the source.
func rspKey(seed uint64) string {
	const b32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	r := rand.New(rand.NewPCG(seed, 42))
	key := []byte("AKIA")
	for range 15 {
		key = append(key, b32[r.IntN(len(b32))])
	}
	return string(append(key, '7')) // a digit, as real keys have
}

// rspSite starts a stand-in wiki with the two Rust articles, a page of
// deploy notes carrying key, and a page carrying the word CRASHME; it
// writes a configuration admitting the site (the loopback allow rule, as
// the other end-to-end tests do) with the given [rsp] tables.
func rspSite(t *testing.T, key, rspTables string) (*standin.Server, string) {
	t.Helper()
	return rspStandin(t, []standin.Article{
		{Title: "Rust (programming language)", Timestamp: "2026-09-01T08:12:44Z",
			HTML:    "<html><body><article><h1>Rust</h1><p>Rust is a language with one owner per value.</p></article></body></html>",
			Snippet: `<span class="searchmatch">Rust</span> is a general-purpose programming language`},
		{Title: "Rust & Bone", Timestamp: "2026-07-19T21:03:10Z", HTML: "<html><body><p>A film.</p></body></html>",
			Snippet: `<span class="searchmatch">Rust</span> and Bone is a 2012 romantic drama film`},
		{Title: "Deploy notes", Timestamp: "2026-08-01T10:00:00Z",
			HTML: "<html><head><title>Deploy notes</title></head><body><article><h1>Deploy notes</h1><p>Before the first deploy, set the credentials in your shell.</p>" +
				"<pre><code>export AWS_ACCESS_KEY_ID=" + key + "\n./deploy.sh production</code></pre><p>Then run the script and watch the log.</p></article></body></html>"},
		{Title: "Crash page", Timestamp: "2026-08-02T10:00:00Z",
			HTML: "<html><body><article><h1>Crash page</h1><p>This page carries the word CRASHME, on which the chaos plugin crashes.</p></article></body></html>"},
	}, rspTables)
}

// rspStandin starts a stand-in wiki of articles and writes a configuration
// admitting it, with more tables after it.
func rspStandin(tb testing.TB, articles []standin.Article, tables string) (*standin.Server, string) {
	tb.Helper()
	dir := tb.TempDir()
	s, err := standin.Start("127.0.0.1:0", dir, []net.IP{net.ParseIP("127.0.0.1")}, standin.Wiki(articles))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	cfg := filepath.Join(dir, "rypsok.toml")
	doc := fmt.Sprintf("config_version = 1\n[service]\nshutdown_ms = 1000\n[search]\ndeadline_ms = 10000\nengine_timeout_ms = 9000\n"+
		"[egress]\nallow = [\"127.0.0.1\"]\n[engines.wikipedia]\ntype = \"wikipedia\"\ncategories = [\"general\", \"science\"]\nbase_url = \"%s/w/api.php\"\n%s", s.URL, tables)
	if err := os.WriteFile(cfg, []byte(doc), 0o600); err != nil {
		tb.Fatal(err)
	}
	return s, cfg
}

// rspPlugin is one [[rsp.plugins]] table.
func rspPlugin(name string, argv []string, extra string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = fmt.Sprintf("%q", a)
	}
	return fmt.Sprintf("[[rsp.plugins]]\nname = %q\ncommand = [%s]\n%s", name, strings.Join(q, ", "), extra)
}

// rspSession is one `rypsok serve` over stdio, called one request at a
// time.
type rspSession struct {
	t      testing.TB
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte
	stderr *rspLog
	id     int
}

// rspLog is stderr, safe to read while the process writes it.
type rspLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *rspLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *rspLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func rspServe(t *testing.T, cfg, certFile string) *rspSession {
	t.Helper()
	return rspServeBin(t, binary(t), cfg, certFile)
}

func rspServeBin(t testing.TB, bin, cfg, certFile string) *rspSession {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--config", cfg)
	cmd.Env = []string{"SSL_CERT_FILE=" + certFile, "PATH=" + os.Getenv("PATH")}
	s := &rspSession{t: t, cmd: cmd, lines: make(chan []byte, 16), stderr: &rspLog{}}
	cmd.Stderr = s.stderr
	s.stdin, _ = cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		r := bufio.NewReader(stdout)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				s.lines <- line
			}
			if err != nil {
				close(s.lines)
				return
			}
		}
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return s
}

// call sends one tools/call and returns its result.
func (s *rspSession) call(name string, args map[string]any) map[string]any {
	s.t.Helper()
	s.id++
	req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": s.id, "method": "tools/call", "params": map[string]any{"name": name, "arguments": args,
		"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": map[string]any{"name": "t", "version": "1"},
			"io.modelcontextprotocol/clientCapabilities": map[string]any{}}}})
	if _, err := s.stdin.Write(append(req, '\n')); err != nil {
		s.t.Fatalf("write: %v\n%s", err, s.stderr.String())
	}
	select {
	case line, ok := <-s.lines:
		if !ok {
			s.t.Fatalf("rypsok stopped answering:\n%s", s.stderr.String())
		}
		var msg map[string]any
		json.Unmarshal(line, &msg)
		res, _ := msg["result"].(map[string]any)
		if msg["jsonrpc"] != "2.0" || msg["id"] != float64(s.id) || res == nil {
			s.t.Fatalf("no result: %s", line)
		}
		return res
	case <-time.After(30 * time.Second):
		s.t.Fatalf("no answer in 30 s:\n%s", s.stderr.String())
	}
	return nil
}

// wait ends the input, reads standard output to its end and returns the
// exit of the process, which must come within 10 s.
func (s *rspSession) wait() error {
	s.t.Helper()
	s.stdin.Close()
	timeout := time.After(10 * time.Second)
	for open := true; open; {
		select {
		case _, open = <-s.lines:
		case <-timeout:
			s.cmd.Process.Kill()
			s.t.Fatalf("rypsok did not exit at the end of its input:\n%s", s.stderr.String())
		}
	}
	return s.cmd.Wait()
}

// close ends the input and requires exit status 0.
func (s *rspSession) close() {
	s.t.Helper()
	if err := s.wait(); err != nil {
		s.t.Fatalf("rypsok exited with %v:\n%s", err, s.stderr.String())
	}
}

func structured(t *testing.T, res map[string]any) map[string]any {
	t.Helper()
	sc, _ := res["structuredContent"].(map[string]any)
	if sc == nil {
		t.Fatalf("no structuredContent: %v", res)
	}
	return sc
}

// notice returns the notice of code in sc, or nil.
func notice(sc map[string]any, code string) map[string]any {
	ns, _ := sc["notices"].([]any)
	for _, n := range ns {
		if m, _ := n.(map[string]any); m["code"] == code {
			return m
		}
	}
	return nil
}

func asJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

// TestRSP_E2E_RedactionAndDroppedResultWithTheirNotices: with `rypsok rsp
// secrets` and a blocking chaos plugin configured, web_fetch of a page
// carrying an AWS key returns it redacted with a content_redacted notice,
// and web_search drops the result the plugin blocks, with results_dropped
// (plugin_blocked). Neither the key nor its offsets reach the answer or
// the log.
func TestRSP_E2E_RedactionAndDroppedResultWithTheirNotices(t *testing.T) {
	key := rspKey(1)
	tables := rspPlugin("secrets", []string{binary(t), "rsp", "secrets"}, "") +
		rspPlugin("chaos", []string{rspChaos(t), "find", "Bone", "block"}, "tools = [\"web_search\"]\n")
	site, cfg := rspSite(t, key, tables)
	s := rspServe(t, cfg, site.CertFile)

	res := s.call("web_fetch", map[string]any{"url": site.URL + "/wiki/Deploy_notes"})
	sc := structured(t, res)
	content, _ := sc["content"].(string)
	if res["isError"] != false || sc["outcome"] != "ok" || strings.Contains(asJSON(res), key) ||
		!strings.Contains(content, "export AWS_ACCESS_KEY_ID=[REDACTED:aws_access_key_id]") || !strings.Contains(content, "./deploy.sh production") {
		t.Fatalf("web_fetch: %s", asJSON(res))
	}
	n := notice(sc, "content_redacted")
	if n == nil || n["count"] != 1.0 || asJSON(n["plugins"]) != `["secrets"]` || asJSON(n["types"]) != `["aws_access_key_id"]` {
		t.Fatalf("content_redacted: %s", asJSON(sc["notices"]))
	}

	res = s.call("web_search", map[string]any{"query": "rust", "max_results": 5})
	sc = structured(t, res)
	results, _ := sc["results"].([]any)
	if res["isError"] != false || sc["outcome"] != "ok" || len(results) != 1 || results[0].(map[string]any)["title"] != "Rust (programming language)" {
		t.Fatalf("web_search: %s", asJSON(res))
	}
	n = notice(sc, "results_dropped")
	if n == nil || n["reason"] != "plugin_blocked" || n["count"] != 1.0 {
		t.Fatalf("results_dropped: %s", asJSON(sc["notices"]))
	}
	s.close()
	if logs := s.stderr.String(); strings.Contains(logs, key) || !strings.Contains(logs, `"event":"rsp_verdict"`) {
		t.Fatalf("log:\n%s", logs)
	}
	rspNoPluginLeft(t)
}

// TestRSP_E2E_CrashingPluginBlocksTheItemAndRypsokKeepsServing: a plugin
// that crashes mid-call under on_error = "block" (the default) ends the
// fetch denied (reason plugin, the plugin and the failure class exit
// named), and the next calls are served; under on_error = "allow" the
// page passes with a plugin_failed notice.
func TestRSP_E2E_CrashingPluginBlocksTheItemAndRypsokKeepsServing(t *testing.T) {
	for _, onError := range []string{"block", "allow"} {
		t.Run(onError, func(t *testing.T) {
			tables := rspPlugin("chaos", []string{rspChaos(t), "-crash-on", "CRASHME", "allow"}, "on_error = \""+onError+"\"\n")
			site, cfg := rspSite(t, rspKey(2), tables)
			s := rspServe(t, cfg, site.CertFile)
			res := s.call("web_fetch", map[string]any{"url": site.URL + "/wiki/Crash_page"})
			sc := structured(t, res)
			if onError == "block" {
				e, _ := sc["error"].(map[string]any)
				d, _ := e["detail"].(map[string]any)
				if res["isError"] != true || e["kind"] != "denied" || d["reason"] != "plugin" || d["plugin"] != "chaos" || d["failure"] != "exit" ||
					strings.Contains(asJSON(res), "CRASHME") {
					t.Fatalf("web_fetch of the crashing page: %s", asJSON(res))
				}
			} else {
				n := notice(sc, "plugin_failed")
				if res["isError"] != false || !strings.Contains(asJSON(sc["content"]), "CRASHME") || n == nil || asJSON(n["plugins"]) != `["chaos"]` || n["failure"] != "exit" {
					t.Fatalf("web_fetch under allow: %s", asJSON(res))
				}
			}
			// rypsok goes on serving: a page and a search, judged by the same plugin.
			res = s.call("web_fetch", map[string]any{"url": site.URL + "/wiki/Rust_(programming_language)"})
			if sc := structured(t, res); res["isError"] != false || !strings.Contains(asJSON(sc["content"]), "one owner per value") || len(sc["notices"].([]any)) != 0 {
				t.Fatalf("the next fetch: %s", asJSON(res))
			}
			res = s.call("web_search", map[string]any{"query": "rust"})
			if sc := structured(t, res); res["isError"] != false || len(sc["results"].([]any)) != 2 {
				t.Fatalf("the next search: %s", asJSON(res))
			}
			s.close()
			logs := s.stderr.String()
			if !strings.Contains(logs, `"event":"rsp_plugin_failed"`) || !strings.Contains(logs, `"failure":"exit"`) {
				t.Fatalf("no rsp_plugin_failed line:\n%s", logs)
			}
			rspNoPluginLeft(t)
		})
	}
}

// TestRSP_E2E_HandshakeAtStart: check prints each plugin after its
// handshake (name, version, hooks, deterministic, threshold) and warns on
// a plugin that fails open and on one no hook of serve reaches; a failed
// handshake makes check and serve exit 1 naming the plugin and the failure
// class.
func TestRSP_E2E_HandshakeAtStart(t *testing.T) {
	good := rspPlugin("secrets", []string{binary(t), "rsp", "secrets"}, "") +
		rspPlugin("chunks", []string{rspChaos(t), "-hooks", "on_chunk", "allow"}, "on_error = \"skip\"\n")
	site, cfg := rspSite(t, rspKey(3), good)
	out, err := exec.Command(binary(t), "check", "--config", cfg).CombinedOutput()
	if err != nil {
		t.Fatalf("check: %v\n%s", err, out)
	}
	for _, want := range []string{
		"rypsok: rsp: plugins=2 max_processes=4 cache_entries=4096 inline_max_bytes=1048576 max_answer_bytes=1048576 chunk_bytes=2000\n",
		`rypsok: rsp plugin secrets: on_error=block on_match=verdict timeout_ms=5000 tools=web_search,web_fetch env_pass=0 handshake: name="rypsok-secrets" version="` + version + `" hooks=on_retrieve,on_response deterministic=true inline_threshold=1048576` + "\n",
		`rypsok: rsp plugin chunks: on_error=skip on_match=verdict timeout_ms=5000 tools=web_search,web_fetch env_pass=0 handshake: name="chaos" version="1" hooks=none deterministic=false inline_threshold=1048576` + "\n",
		" + plugins 9 + cache 0 MiB;",
		"rypsok: warning: rsp.plugins[1].on_error: plugin chunks fails open",
		"rypsok: warning: rsp.plugins[1]: plugin chunks is called on no hook of serve",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("check lacks %q:\n%s", want, out)
		}
	}

	for mode, class := range map[string]string{"wrongversion": "handshake", "hangall": "timeout", "nohandshake": "handshake"} {
		bad := rspPlugin("secrets", []string{binary(t), "rsp", "secrets"}, "") +
			rspPlugin("broken", []string{rspChaos(t), mode}, "timeout_ms = 300\n")
		_, cfg := rspSite(t, rspKey(4), bad)
		cmd := exec.Command(binary(t), "check", "--config", cfg)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), "rypsok: rsp.plugins[1] (plugin broken): the handshake failed: "+class) {
			t.Errorf("check with %s: %v\n%s", mode, err, out)
		}
		s := rspServe(t, cfg, site.CertFile)
		err = s.wait()
		logs := s.stderr.String()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 ||
			!strings.Contains(logs, `"event":"startup_failed"`) || !strings.Contains(logs, `"plugin":"broken"`) || !strings.Contains(logs, `"failure":"`+class+`"`) {
			t.Errorf("serve with %s: %v\n%s", mode, err, logs)
		}
	}
	rspNoPluginLeft(t)
}

// TestRSP_E2E_IngestAndConformance: `rypsok rsp ingest` redacts a key in
// a file and writes the surviving chunks without it; `rypsok rsp
// conformance` passes `rypsok rsp secrets` and fails a plugin that breaks
// the protocol; usage errors exit 2.
func TestRSP_E2E_IngestAndConformance(t *testing.T) {
	dir := t.TempDir()
	key := rspKey(5)
	docs := filepath.Join(dir, "docs")
	os.Mkdir(docs, 0o700)
	writeFile(t, filepath.Join(docs, "notes.md"), "# Notes\n\nNothing secret.\n\nexport AWS_ACCESS_KEY_ID="+key+"\n")
	writeFile(t, filepath.Join(docs, "image.bin"), "\x00\x01\x02")
	cfg := filepath.Join(dir, "rypsok.toml")
	writeFile(t, cfg, "config_version = 1\n[rsp]\nchunk_bytes = 64\n"+rspPlugin("secrets", []string{binary(t), "rsp", "secrets"}, ""))
	outFile := filepath.Join(dir, "chunks.jsonl")
	cmd := exec.Command(binary(t), "rsp", "ingest", "--config", cfg, "--out", outFile, docs)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("ingest: %v\n%s", err, stderr.String())
	}
	report := stdout.String()
	if !strings.Contains(report, "REDACT  aws_access_key_id  "+filepath.Join(docs, "notes.md")+":5\n") ||
		!strings.Contains(report, "scanned 2 chunks: 2 indexed, 1 redacted, 0 blocked\n") || !strings.Contains(report, "skipped 1 files: 1 binary") {
		t.Fatalf("report:\n%s", report)
	}
	b, err := os.ReadFile(outFile)
	if err != nil || bytes.Contains(b, []byte(key)) || !bytes.Contains(b, []byte("[REDACTED:aws_access_key_id]")) || bytes.Count(b, []byte("\n")) != 2 {
		t.Fatalf("out: %v\n%s", err, b)
	}

	var out bytes.Buffer
	cmd = exec.Command(binary(t), "rsp", "conformance", "--", binary(t), "rsp", "secrets")
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil || strings.Contains(out.String(), "FAIL") || !strings.Contains(out.String(), "PASS on_retrieve by_reference") {
		t.Fatalf("conformance of rsp secrets: %v\n%s", err, out.String())
	}
	out.Reset()
	cmd = exec.Command(binary(t), "rsp", "conformance", "--", rspChaos(t), "two")
	cmd.Stdout = &out
	if ee, ok := cmd.Run().(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(out.String(), "FAIL on_retrieve ascii: failure malformed") {
		t.Fatalf("conformance of a plugin that answers twice: %v\n%s", ee, out.String())
	}

	for _, args := range [][]string{{"rsp"}, {"rsp", "nope"}, {"rsp", "ingest"}, {"rsp", "ingest", "--out"}, {"rsp", "ingest", "--bogus", "x"},
		{"rsp", "conformance"}, {"rsp", "conformance", "--"}, {"rsp", "conformance", "--strict", "x"}, {"rsp", "secrets", "--bogus"}} {
		err := exec.Command(binary(t), args...).Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
			t.Errorf("%v: %v, want exit 2", args, err)
		}
	}
	rspNoPluginLeft(t)
}

// gitleaksBinary finds an unmodified gitleaks v8: RSP_GITLEAKS, else
// gitleaks on PATH; the test skips without one (.ci/run installs one).
func rspGitleaks(t *testing.T) string {
	if p := os.Getenv("RSP_GITLEAKS"); p != "" {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	p, err := exec.LookPath("gitleaks")
	if err != nil {
		t.Skip("no gitleaks binary: set RSP_GITLEAKS or put gitleaks on PATH (GOBIN=$(mktemp -d) go install github.com/zricethezav/gitleaks/v8@v8.30.1)")
	}
	return p
}

// TestRSP_E2E_GitleaksRedactsAnAWSKeyInAFetchedPage: the third-party
// evidence — an unmodified gitleaks v8 behind the adapter of
// rsp/plugins/gitleaks (the reference's gitleaks role), configured as any
// plugin, redacts the AWS key of a fetched page.
func TestRSP_E2E_GitleaksRedactsAnAWSKeyInAFetchedPage(t *testing.T) {
	gl := rspGitleaks(t)
	adapter := filepath.Join(t.TempDir(), "rsp-gitleaks")
	if out, err := exec.Command("go", "build", "-o", adapter, "./rsp/plugins/gitleaks").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	key := rspKey(6)
	site, cfg := rspSite(t, key, rspPlugin("gitleaks", []string{adapter, "-gitleaks", gl}, "tools = [\"web_fetch\"]\n"))
	s := rspServe(t, cfg, site.CertFile)
	res := s.call("web_fetch", map[string]any{"url": site.URL + "/wiki/Deploy_notes"})
	sc := structured(t, res)
	n := notice(sc, "content_redacted")
	if res["isError"] != false || strings.Contains(asJSON(res), key) || !strings.Contains(asJSON(sc["content"]), "[REDACTED:secret]") ||
		n == nil || asJSON(n["plugins"]) != `["gitleaks"]` || asJSON(n["types"]) != `["aws-access-token"]` {
		t.Fatalf("web_fetch through gitleaks: %s", asJSON(res))
	}
	s.close()
	rspNoPluginLeft(t, adapter, gl)
}

// TestRSP_E2E_DeterministicPluginIsCalledOncePerUnchangedPage: verdicts
// of a plugin that declared itself deterministic are cached, so a second
// fetch of the same page spawns no plugin process.
func TestRSP_E2E_DeterministicPluginIsCalledOncePerUnchangedPage(t *testing.T) {
	record := filepath.Join(t.TempDir(), "record.jsonl")
	site, cfg := rspSite(t, rspKey(7), rspPlugin("chaos", []string{rspChaos(t), "-det", "-record", record, "allow"}, "tools = [\"web_fetch\"]\n"))
	s := rspServe(t, cfg, site.CertFile)
	for range 3 {
		if res := s.call("web_fetch", map[string]any{"url": site.URL + "/wiki/Rust_(programming_language)"}); res["isError"] != false {
			t.Fatalf("web_fetch: %s", asJSON(res))
		}
	}
	s.close()
	b, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	hooks := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r struct {
			Request struct{ Type, Hook string } `json:"request"`
		}
		json.Unmarshal([]byte(line), &r)
		hooks[r.Request.Type+" "+r.Request.Hook]++
	}
	// One handshake at start (in both dialects: type and hook); one call
	// per hook for the first fetch, none after.
	if len(hooks) != 3 || hooks["handshake handshake"] != 1 || hooks["call on_retrieve"] != 1 || hooks["call on_response"] != 1 {
		t.Fatalf("the plugin saw %v", hooks)
	}
	rspNoPluginLeft(t)
}

// TestRSP_HostResultsAsVerdicts: the adapter from the host's results to
// what search and fetch read keeps every name and class and never a
// blocked item's content.
func TestRSP_HostResultsAsVerdicts(t *testing.T) {
	v := verdictOf(rsp.Result{Verdict: rsp.Redact, Content: "a [R] b", Redactions: []rsp.Redaction{{}, {}},
		RedactedBy: []string{"s"}, Types: []string{"github_token"}, Flagged: []string{"i"}, FlagSeverity: rsp.High,
		Failed: []rsp.PluginFailure{{Plugin: "c", Class: rsp.FailTimeout}}})
	if v.Blocked || v.Content != "a [R] b" || v.Redactions != 2 || asJSON(v.RedactedBy) != `["s"]` || asJSON(v.Types) != `["github_token"]` ||
		asJSON(v.FlaggedBy) != `["i"]` || v.Severity != "high" || asJSON(v.FailedBy) != `["c"]` || asJSON(v.Failures) != `["timeout"]` {
		t.Fatalf("%+v", v)
	}
	v = verdictOf(rsp.Result{Verdict: rsp.Block, Content: "leak", BlockedBy: "c", Failure: rsp.FailExit, Redactions: []rsp.Redaction{{}}})
	if !v.Blocked || v.Content != "" || v.BlockedBy != "c" || v.Failure != "exit" || v.Redactions != 0 {
		t.Fatalf("%+v", v)
	}
	// No plugin configured: no judge at all, so search and fetch spawn nothing.
	if j, err := newJudge(t.Context(), &config.Config{}, nil, nil); j != nil || err != nil {
		t.Fatalf("%v %v", j, err)
	}
}

// BenchmarkRSP_SearchOf10Results is the plugin overhead of one web_search
// of 10 results (20 items: each title and snippet) through the binary over
// stdio, with one deterministic Go plugin (`rypsok rsp secrets`, the
// binary itself): none, the plugin with every verdict computed (cold:
// cache_entries = 0, 20 processes a search, 4 at once) and with every
// verdict from the cache (cached). The difference to none is the overhead.
// Each timed call follows an untimed pause of 650 ms (the engine's rate).
//
//	go test -run '^$' -bench BenchmarkRSP_SearchOf10Results -benchtime 30x .
func BenchmarkRSP_SearchOf10Results(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "rypsok")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	var arts []standin.Article
	for i := range 10 {
		arts = append(arts, standin.Article{Title: fmt.Sprintf("Rust article %d", i), Timestamp: "2026-09-01T08:12:44Z", HTML: "<p>x</p>",
			Snippet: fmt.Sprintf(`<span class="searchmatch">Rust</span> is a language; this is snippet number %d of a result list, about as long as a real one is.`, i)})
	}
	limits := "[limits]\nweb_search_per_minute = 6000\n"
	plugin := rspPlugin("secrets", []string{bin, "rsp", "secrets"}, "tools = [\"web_search\"]\n")
	for _, c := range []struct{ name, tables string }{
		{"none", limits},
		{"cold", limits + "[rsp]\ncache_entries = 0\n" + plugin},
		{"cached", limits + plugin},
	} {
		b.Run(c.name, func(b *testing.B) {
			site, cfg := rspStandin(b, arts, c.tables)
			s := rspServeBin(b, bin, cfg, site.CertFile)
			search := func() {
				res := s.call("web_search", map[string]any{"query": "rust", "max_results": 10})
				if sc, _ := res["structuredContent"].(map[string]any); res["isError"] != false || len(sc["results"].([]any)) != 10 {
					b.Fatalf("%s", asJSON(res))
				}
			}
			search() // the engine's connection, and for cached the verdicts
			b.ResetTimer()
			for range b.N {
				// The wikipedia driver admits 100 requests a minute: the
				// untimed pause keeps its bucket from adding a wait (which
				// would hide the plugins' time) to the timed call.
				b.StopTimer()
				time.Sleep(650 * time.Millisecond)
				b.StartTimer()
				search()
			}
			b.StopTimer()
			s.close()
		})
	}
}
