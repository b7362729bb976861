package deploy

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// loadedImage loads the image of this machine's architecture into podman
// once per test and returns podman's path and the image's name. It skips,
// saying why, when podman is not installed or there is no image.
func loadedImage(t *testing.T, ctx context.Context) (podman, ref string, rel release) {
	t.Helper()
	podman, err := exec.LookPath("podman")
	if err != nil {
		t.Skip("podman is not installed (apt-get install podman); the image is checked by TestImage alone")
	}
	rel = releaseFiles(t)
	if !rel.images {
		t.Skip("umoci is not installed, so the release built no image")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the image is for Linux")
	}
	file := filepath.Join(rel.dir, "rypsok-"+rel.version+"-image-"+runtime.GOARCH+".tar.gz")
	if _, err := os.Stat(file); err != nil {
		t.Skipf("no image for %s in the release", runtime.GOARCH)
	}
	ref = "docker.io/library/rypsok:" + rel.version + "-" + runtime.GOARCH
	out, err := exec.CommandContext(ctx, podman, "load", "-i", file).CombinedOutput()
	if err != nil {
		t.Fatalf("podman load: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), ref) {
		t.Errorf("podman load named the image otherwise than %s:\n%s", ref, out)
	}
	t.Cleanup(func() { exec.Command(podman, "rmi", "-f", ref).Run() })
	return podman, ref, rel
}

// confinement is how the book runs the image: a read-only root, uid
// 65532, every capability dropped, no new privileges, bounded descriptors
// and processes.
var confinement = []string{
	"--read-only", "--cap-drop", "ALL", "--security-opt", "no-new-privileges",
	"--user", "65532:65532", "--ulimit", "nofile=128:128", "--ulimit", "nproc=64:64",
}

func runtimeError(stderr string) bool {
	return strings.Contains(stderr, "OCI runtime error") || strings.Contains(stderr, "OCI permission denied")
}

// podmanCmd returns a command running podman with args, on the runtime
// that works here: podman's default (crun) refuses some machines' cgroup
// layouts (a cgroup v1 and v2 hybrid, as on this project's machines), and
// runc runs there. It skips when neither can run a container.
func podmanCmd(t *testing.T, ctx context.Context, podman, ref string, args ...string) func() *exec.Cmd {
	t.Helper()
	probe := func(extra ...string) (string, bool) {
		cmd := exec.CommandContext(ctx, podman, append(extra, "run", "--rm", "--network", "none",
			"--ulimit", "nofile=128:128", "--ulimit", "nproc=64:64", ref, "--version")...)
		out, _ := cmd.CombinedOutput()
		return string(out), !runtimeError(string(out))
	}
	var runtimeArgs []string
	out, ok := probe()
	if !ok {
		runc, err := exec.LookPath("runc")
		if err != nil {
			t.Skipf("podman cannot run a container here (apt-get install runc may help): %s", strings.TrimSpace(out))
		}
		t.Logf("podman's default runtime cannot run here (%s); using runc", strings.TrimSpace(out))
		runtimeArgs = []string{"--runtime", runc}
		if out, ok = probe(runtimeArgs...); !ok {
			t.Skipf("podman cannot run a container here: %s", strings.TrimSpace(out))
		}
	}
	return func() *exec.Cmd {
		return exec.CommandContext(ctx, podman, append(append([]string{}, runtimeArgs...), args...)...)
	}
}

// TestImageRuns runs the image as the book says and asks server/discover
// over stdio.
func TestImageRuns(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	podman, ref, rel := loadedImage(t, ctx)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "rypsok.toml")
	if err := os.WriteFile(cfg, []byte("config_version = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"run", "--rm", "-i", "--network", "none"}, confinement...)
	args = append(args, "-v", cfg+":/etc/rypsok/rypsok.toml:ro", ref, "serve", "--transport", "stdio")
	mk := podmanCmd(t, ctx, podman, ref, args...)
	discover := `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{` +
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
		`"io.modelcontextprotocol/clientInfo":{"name":"deploy-test","version":"0"},` +
		`"io.modelcontextprotocol/clientCapabilities":{}}}}` + "\n"
	cmd := mk()
	cmd.Stdin = strings.NewReader(discover)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("podman run: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	out := stdout.String()
	if !strings.Contains(out, `"id":1`) || !strings.Contains(out, `"supportedVersions":["2026-07-28"`) ||
		!strings.Contains(out, `"version":"`+rel.version+`"`) {
		t.Fatalf("server/discover answered %q (stderr %q)", out, stderr.String())
	}
	t.Logf("the image answered server/discover as uid 65532, read-only, with no capabilities: %.120s…", out)
}

// TestImageServesHTTP runs the image in network mode, with a caller whose
// token is a mounted file, and asks engine_status over HTTP on loopback.
// The container shares the host's network so that the test reaches it on
// 127.0.0.1 alone; the bind is loopback. It skips, saying so, while this
// build has no HTTP transport.
func TestImageServesHTTP(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	podman, ref, _ := loadedImage(t, ctx)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	dir := t.TempDir()
	token := "deploy-test-token-0123456789abcdefghijklmnop"
	// As systemd and Kubernetes hand a credential over: owned by root,
	// readable by the service's group (65532) and no one else.
	tok := filepath.Join(dir, "tok")
	if err := os.WriteFile(tok, []byte(token+"\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(tok, 0, 65532); err != nil {
		t.Skipf("the token file cannot be given to group 65532 here (%v); the test needs root", err)
	}
	if err := os.Chmod(tok, 0o640); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf("config_version = 1\n\n[service.http]\nbind = %q\n\n"+
		"[[service.http.auth.callers]]\nid = \"deploy\"\ntoken_file = \"/run/rypsok/tok\"\n", addr)
	if err := os.WriteFile(filepath.Join(dir, "rypsok.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("rypsok-deploy-test-%d", os.Getpid())
	args := append([]string{"run", "--rm", "--name", name, "--network", "host"}, confinement...)
	args = append(args, "-v", filepath.Join(dir, "rypsok.toml")+":/etc/rypsok/rypsok.toml:ro",
		"-v", tok+":/run/rypsok/tok:ro", ref)
	mk := podmanCmd(t, ctx, podman, ref, args...)
	cmd := mk() // the image's own command: serve --transport http --config /etc/rypsok/rypsok.toml
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr // serve writes nothing to stdout; both are shown on failure
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		exec.Command(podman, "stop", "-t", "3", name).Run()
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
	}()

	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"engine_status","arguments":{},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
		`"io.modelcontextprotocol/clientInfo":{"name":"deploy-test","version":"0"},` +
		`"io.modelcontextprotocol/clientCapabilities":{}}}}`
	client := &http.Client{Timeout: 5 * time.Second}
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case err := <-exited:
			if strings.Contains(stderr.String(), "not available in this build") {
				t.Skipf("serve --transport http is not built yet: %s", strings.TrimSpace(stderr.String()))
			}
			t.Fatalf("the container exited (%v) before answering:\n%s", err, stderr.String())
		default:
		}
		req, _ := http.NewRequestWithContext(ctx, "POST", "http://"+addr+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "engine_status")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err == nil {
			answer, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(answer), `"id":1`) ||
				!strings.Contains(string(answer), "wikipedia") {
				t.Fatalf("engine_status over HTTP: %s %q", resp.Status, answer)
			}
			t.Logf("the image answered engine_status over HTTP: %.160s…", answer)
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no answer on %s within 30 s: %v\n%s", addr, err, stderr.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
}
