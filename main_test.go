package main

import (
	"strings"
	"testing"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb strings.Builder
	code = run(args, strings.NewReader(""), &out, &errb, func(string) (string, bool) { return "", false })
	return code, out.String(), errb.String()
}

func TestREQ_OPS_001_CommandLine(t *testing.T) {
	code, out, errs := runCLI("--version")
	if code != 0 || out != "rypsok "+version+"\n" || errs != "" {
		t.Fatalf("--version: %d %q %q", code, out, errs)
	}
	code, out, _ = runCLI("--help")
	if code != 0 || !strings.Contains(out, "usage: rypsok serve [--transport stdio|http] [--config PATH]") {
		t.Fatalf("--help: %d %q", code, out)
	}
	usageCases := [][]string{
		{},
		{"--verbose"},
		{"frobnicate"},
		{"serve", "--transport", "carrier-pigeon"},
		{"serve", "--transport"},
		{"check", "--config"},
		{"check", "--transport", "stdio"},
		{"check", "--config", "a", "--config", "b"},
		{"serve", "extra"},
		{"--version", "now"},
	}
	for _, args := range usageCases {
		code, out, errs := runCLI(args...)
		if code != exitUsage || out != "" {
			t.Errorf("%q: exit %d stdout %q, want 2 and nothing on stdout", args, code, out)
		}
		first, rest, _ := strings.Cut(errs, "\n")
		if !strings.HasPrefix(first, "rypsok: ") || !strings.Contains(rest, "usage: rypsok serve") {
			t.Errorf("%q: stderr must be a one-line reason then the usage: %q", args, errs)
		}
	}
	// A flag's value is never echoed.
	_, _, errs = runCLI("serve", "--token=hunter2hunter2")
	if strings.Contains(errs, "hunter2") || !strings.Contains(errs, "unknown flag --token") {
		t.Fatalf("unknown flag message: %q", errs)
	}
	// check with no file: the defaults.
	code, out, errs = runCLI("check")
	if code != 0 || out != "" || !strings.Contains(errs, "rypsok: configuration from defaults (no file) is valid") {
		t.Fatalf("check without a file: %d %q %q", code, out, errs)
	}
	code, _, errs = runCLI("check", "--config", "/nonexistent/rypsok.toml")
	if code != exitConfig || !strings.Contains(errs, "rypsok: --config /nonexistent/rypsok.toml: the file cannot be read") {
		t.Fatalf("missing file: %d %q", code, errs)
	}
}

func TestREQ_CFG_001_ConfigFromEnvironment(t *testing.T) {
	var out, errb strings.Builder
	path := t.TempDir() + "/r.toml"
	writeFile(t, path, "config_version = 1\n[search]\nmax_results = 7\n")
	lookup := func(k string) (string, bool) {
		if k == "RYPSOK_CONFIG" {
			return path, true
		}
		return "", false
	}
	code := run([]string{"check"}, strings.NewReader(""), &out, &errb, lookup)
	if code != 0 || !strings.Contains(errb.String(), "configuration from RYPSOK_CONFIG "+path+" is valid") || !strings.Contains(errb.String(), "max_results=7") {
		t.Fatalf("RYPSOK_CONFIG: %d %s", code, errb.String())
	}
	// --config wins over RYPSOK_CONFIG.
	other := t.TempDir() + "/o.toml"
	writeFile(t, other, "config_version = 1\n[search]\nmax_results = 3\n")
	errb.Reset()
	code = run([]string{"check", "--config", other}, strings.NewReader(""), &out, &errb, lookup)
	if code != 0 || !strings.Contains(errb.String(), "max_results=3") {
		t.Fatalf("--config must win: %s", errb.String())
	}
}
