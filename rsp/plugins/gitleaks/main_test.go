package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"rypsok/rsp"
)

// gitleaksBinary finds an unmodified gitleaks v8: the path in
// RSP_GITLEAKS, else "gitleaks" on PATH. The tests skip without one.
func gitleaksBinary(t *testing.T) string {
	if p := os.Getenv("RSP_GITLEAKS"); p != "" {
		return p
	}
	p, err := exec.LookPath("gitleaks")
	if err != nil {
		t.Skip("no gitleaks binary: set RSP_GITLEAKS or put gitleaks on PATH (go install github.com/zricethezav/gitleaks/v8@v8.30.1 into a scratch GOBIN)")
	}
	return p
}

// adapter builds this command into a temporary directory.
func adapter(t *testing.T) string {
	bin := filepath.Join(t.TempDir(), "rsp-gitleaks")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func TestGitleaksAdapter_IsUnder80Lines(t *testing.T) {
	b, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte("\n")); n >= 80 {
		t.Fatalf("main.go has %d lines", n)
	}
}

func TestGitleaksAdapter_RedactsAnAWSKeyInAFetchedPage(t *testing.T) {
	gl := gitleaksBinary(t)
	argv := []string{adapter(t), "-gitleaks", gl}
	r := rand.New(rand.NewPCG(7, 7))
	key := "AKIA"
	for range 16 {
		key += string("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"[r.IntN(32)])
	}
	page := "# Deploying — notes\n\nSet the key in your shell:\n\n    aws_access_key_id = " + key + "\n\nThen run the script.\n"
	s := rsp.DefaultSettings()
	s.Plugins = []rsp.PluginSpec{{Name: "gitleaks", Command: argv, Tools: []string{rsp.ToolWebFetch}}}
	h, err := rsp.New(context.Background(), s, rsp.Deps{})
	if err != nil {
		t.Fatal(err)
	}
	res := h.Judge(context.Background(), rsp.HookRetrieve, rsp.ToolWebFetch, []rsp.Item{{Content: page, Metadata: map[string]any{"tool": "web_fetch", "url": "https://docs.example/deploy"}}})[0]
	if res.Verdict != rsp.Redact || strings.Contains(res.Content, key) || !strings.Contains(res.Content, "aws_access_key_id = [REDACTED:secret]\n") {
		t.Fatalf("%+v", res)
	}
	if strings.Join(res.Types, ",") != "aws-access-token" || strings.Join(res.RedactedBy, ",") != "gitleaks" || res.Redactions[0].Severity != rsp.Credential.Severity() {
		t.Fatalf("%+v", res)
	}
	var out bytes.Buffer
	if !rsp.ConformanceRole(context.Background(), rsp.RoleCredentials, argv, &out) {
		t.Fatalf("the adapter fails conformance:\n%s", out.String())
	}
}

// The reference's gitleaks role, in cases of our own: the handshake
// declares on_chunk and on_retrieve, deterministic, a version starting
// 0.1.0+; every finding after multi-byte text and on later lines is one
// byte-exact span typed by its rule, replaced by [REDACTED:secret] at
// severity critical; a request in the reference's dialect is answered.
func TestGitleaksAdapter_FillsTheReferenceGitleaksRole(t *testing.T) {
	gl := gitleaksBinary(t)
	argv := []string{adapter(t), "-gitleaks", gl}
	run := func(req string) map[string]any {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Stdin = strings.NewReader(req)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", req, err)
		}
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatalf("%s: %s", req, out)
		}
		return m
	}
	hs := run(`{"rsp_version":"0.1","hook":"handshake"}`)
	if fmt.Sprint(hs["hooks"]) != "[on_chunk on_retrieve]" || hs["deterministic"] != true || hs["rsp_version"] != "0.1" || !strings.HasPrefix(fmt.Sprint(hs["version"]), "0.1.0+") {
		t.Fatalf("handshake %v", hs)
	}
	key := "AKIALALEMEL33243OLIB"
	content := "ключ: " + key + "\n日本 2行目\nexport B=" + key + "\n"
	first := strings.Index(content, key)
	second := strings.LastIndex(content, key)
	req, _ := json.Marshal(map[string]any{"rsp_version": "0.1", "hook": "on_chunk", "content": content})
	got := run(string(req))
	want := fmt.Sprintf(`map[replacement:[REDACTED:secret] severity:critical spans:[map[end:%d start:%d type:aws-access-token] map[end:%d start:%d type:aws-access-token]] verdict:REDACT]`,
		first+len(key), first, second+len(key), second)
	if fmt.Sprint(got) != want {
		t.Fatalf("got  %v\nwant %s", got, want)
	}
	if got := run(`{"rsp_version":"0.1","hook":"on_chunk","content":"nothing to see"}`); fmt.Sprint(got) != "map[verdict:ALLOW]" {
		t.Fatalf("clean content: %v", got)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin = strings.NewReader(`{"rsp_version":"0.1","hook":"on_chunk"}`)
	if out, err := cmd.Output(); err == nil {
		t.Fatalf("a call without content was answered: %s", out)
	}
}
