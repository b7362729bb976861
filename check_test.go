package main

// The configuration through the command line: check's exit codes and
// messages, run as main runs them. The loader's own tests are in
// internal/config.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTroubleshootingAtStartup produces every row of the book's
// Troubleshooting "At startup" table through the command line, with exit 1
// and without the offending value.
func TestTroubleshootingAtStartup(t *testing.T) {
	rows := []struct {
		name, doc string
		vars      map[string]string
		want      string
		secret    string
	}{
		{"wrong kind", "config_version = 1\n\n[search]\nmax_results = \"many\"\n", nil,
			"search.max_results: expected an integer from 1 to 20, found text (line 4, column 15)", "many"},
		{"syntax", "config_version = 1\nkey = = 3\n", nil, "TOML syntax error: ", "= ="},
		{"twice", "config_version = 1\n[engines.w]\ntype = \"wikipedia\"\ncategories = [\"general\"]\n[engines.w]\n", nil,
			"engines.w: defined more than once (line 5, column 10)", ""},
		{"dependent", "config_version = 1\n[search]\ndeadline_ms = 500\nengine_timeout_ms = 400\n", nil,
			"search.engine_timeout_ms: must be between 100 and 300 (search.deadline_ms 500 minus search.reserve_ms 200)", ""},
		{"trailing dot", "config_version = 1\n[egress]\ndeny = [\"blocked.invalid.\"]\n", nil,
			"egress.deny[0]: a host pattern must not end with a dot", "blocked.invalid"},
		{"inline key", "config_version = 1\n[engines.brave]\ntype = \"brave\"\ncategories = [\"general\"]\napi_key = \"BSAsecretvalue123\"\n", nil,
			"engines.brave.api_key: give the secret by api_key_env or api_key_file", "BSAsecretvalue123"},
		{"no such driver", "config_version = 1\n[engines.x]\ntype = \"google\"\ncategories = [\"general\"]\n", nil,
			"engines.x.type: no such driver; use one of wikipedia, brave, duckduckgo, searxng, stackexchange, github, arxiv, crossref, openalex, hackernews", "google"},
		{"scraping", "config_version = 1\n[engines.ddg]\ntype = \"duckduckgo\"\ncategories = [\"general\"]\n", nil,
			`engines.ddg: type "duckduckgo" scrapes a human-facing interface; it runs only with [scraping] enabled = true, at the operator's risk under the provider's terms`, ""},
		{"bind needs callers", "config_version = 1\n[service.http]\nbind = \"192.0.2.10:8737\"\n", nil,
			"service.http.bind: a non-loopback bind needs [service.http.auth] callers", ""},
		{"unspecified bind needs hosts", "config_version = 1\n[service.http]\nbind = \"0.0.0.0:8737\"\n[[service.http.auth.callers]]\nid = \"a\"\ntoken_env = \"TOK\"\n",
			map[string]string{"TOK": strings.Repeat("t", 40)},
			"service.http.bind: a bind on an unspecified address (0.0.0.0, ::) needs service.http.allowed_hosts", ""},
		{"not a variable name", "config_version = 1\n[engines.brave]\ntype = \"brave\"\ncategories = [\"general\"]\napi_key_env = \"BSAq8x7RkZ2mN4pT\"\n", nil,
			"engines.brave.api_key_env: the value is not the name of an environment variable (it is not shown)", "BSAq8x7RkZ2mN4pT"},
		{"short token", "config_version = 1\n[[service.http.auth.callers]]\nid = \"a\"\ntoken_env = \"TOK\"\n",
			map[string]string{"TOK": "shortsecretvalue"}, "service.http.auth.callers[0].token_env: the token is shorter than 32 bytes", "shortsecretvalue"},
		{"unset token", "config_version = 1\n[[service.http.auth.callers]]\nid = \"a\"\ntoken_env = \"TOK\"\n", nil,
			"service.http.auth.callers[0].token_env: environment variable TOK is unset or empty", ""},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "rypsok.toml")
			if err := os.WriteFile(path, []byte(r.doc), 0o600); err != nil {
				t.Fatal(err)
			}
			var out, errb strings.Builder
			lookup := func(k string) (string, bool) { v, ok := r.vars[k]; return v, ok }
			code := run([]string{"check", "--config", path}, strings.NewReader(""), &out, &errb, lookup)
			if code != exitConfig {
				t.Fatalf("exit %d, want 1; stderr:\n%s", code, errb.String())
			}
			if out.Len() != 0 {
				t.Fatalf("check wrote to stdout: %q", out.String())
			}
			if !strings.Contains(errb.String(), r.want) {
				t.Fatalf("stderr %q does not contain %q", errb.String(), r.want)
			}
			if r.secret != "" && strings.Contains(errb.String(), r.secret) {
				t.Fatalf("stderr repeats the value %q: %s", r.secret, errb.String())
			}
		})
	}
}

// TestREQ_DOC_002_BookConfigurations runs check on every configuration file
// the book shows, with the environment each needs.
func TestREQ_DOC_002_BookConfigurations(t *testing.T) {
	files, err := filepath.Glob("testdata/config/*.toml")
	if err != nil || len(files) < 9 {
		t.Fatalf("book configurations missing: %v %d", err, len(files))
	}
	tokenDir := t.TempDir()
	tokenFile := filepath.Join(tokenDir, "rypsok-ops")
	os.WriteFile(tokenFile, []byte(strings.Repeat("o", 44)), 0o600)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, _ := os.ReadFile(f)
			doc := strings.ReplaceAll(string(data), "/run/secrets/rypsok-ops", tokenFile)
			path := filepath.Join(t.TempDir(), "rypsok.toml")
			os.WriteFile(path, []byte(doc), 0o600)
			vars := map[string]string{"RYPSOK_TOKEN_MIMLYS": strings.Repeat("m", 44), "BRAVE_API_KEY": "BSA-test-key-0123456789"}
			var out, errb strings.Builder
			code := run([]string{"check", "--config", path}, strings.NewReader(""), &out, &errb, func(k string) (string, bool) { v, ok := vars[k]; return v, ok })
			if code != exitOK {
				t.Fatalf("exit %d:\n%s", code, errb.String())
			}
			text := errb.String()
			if !strings.Contains(text, "rypsok: configuration from --config "+path+" is valid") {
				t.Fatalf("first line missing:\n%s", text)
			}
			warnings := strings.Count(text, "rypsok: warning: ")
			want := 0
			switch filepath.Base(f) {
			case "tutorial-4.toml", "tutorial-5.toml":
				want = 1
			}
			if warnings != want {
				t.Fatalf("%d warnings, want %d:\n%s", warnings, want, text)
			}
			for _, secret := range []string{strings.Repeat("m", 44), strings.Repeat("o", 44), "BSA-test-key"} {
				if strings.Contains(text, secret) {
					t.Fatalf("check prints a secret")
				}
			}
		})
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}
