package main

import (
	"bytes"
	"context"
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
	h, err := rsp.New(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	res := h.Judge(context.Background(), rsp.HookRetrieve, rsp.ToolWebFetch, []rsp.Item{{Content: page, Metadata: map[string]any{"tool": "web_fetch", "url": "https://docs.example/deploy"}}})[0]
	if res.Verdict != rsp.Redact || strings.Contains(res.Content, key) || !strings.Contains(res.Content, "aws_access_key_id = [REDACTED:aws-access-token]\n") {
		t.Fatalf("%+v", res)
	}
	if strings.Join(res.Types, ",") != "aws-access-token" || strings.Join(res.RedactedBy, ",") != "gitleaks" {
		t.Fatalf("%+v", res)
	}
	var out bytes.Buffer
	if !rsp.Conformance(context.Background(), argv, &out) {
		t.Fatalf("the adapter fails conformance:\n%s", out.String())
	}
}
