package secrets

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"rypsok/internal/plugintest"
	"rypsok/rsp"
)

// pluginBin is the plugin built from testdata/plugin (without the race
// detector, whose start-up would dominate every call).
var pluginBin string

func TestMain(m *testing.M) { os.Exit(plugintest.Main(m, "./testdata/plugin", &pluginBin)) }

// synthetic draws n characters from alphabet: the credentials of these
// tests are made at run time, never stored.
func synthetic(r *rand.Rand, alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

const (
	upperB32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	alnum    = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
)

type planted struct{ kind, value string }

// document is a whole file with credentials of several shapes.
func document(t *testing.T) (string, []planted) {
	r := rand.New(rand.NewPCG(10, 20))
	aws := "AKIA" + synthetic(r, upperB32, 16)
	gh := "ghp_" + synthetic(r, alnum, 36)
	pw := "Zq" + synthetic(r, alnum, 14) + "!9"
	doc := "# deploy notes — ünïcode first\r\n\r\n" +
		"AWS_ACCESS_KEY_ID=" + aws + "\n" +
		"$ export GITHUB_TOKEN=" + gh + "\n\n" +
		"DATABASE_URL=postgres://app:" + pw + "@db.internal:5432/prod\n" +
		"Nothing secret here: the café opens at 9.\n"
	return doc, []planted{{"aws_access_key_id", aws}, {"github_token", gh}, {"url_password", pw}}
}

func TestSecretsPlugin_RedactsExactByteSpansOfEachValue(t *testing.T) {
	doc, want := document(t)
	a := Judge(doc, false)
	if a.Verdict != rsp.Redact || a.Severity != rsp.Critical || a.Replacement != "[REDACTED:credential]" {
		t.Fatalf("%+v", a)
	}
	if len(a.Spans) != len(want) {
		t.Fatalf("%d spans, want %d", len(a.Spans), len(want))
	}
	for i, s := range a.Spans {
		if doc[s.Start:s.End] != want[i].value || s.Type != want[i].kind {
			t.Errorf("span %d: %s %q, want %s %q", i, s.Type, doc[s.Start:s.End], want[i].kind, want[i].value)
		}
	}
}

func TestSecretsPlugin_OneKindNamesItsReplacement(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	tok := "ghp_" + synthetic(r, alnum, 36)
	a := Judge("é token "+tok+" end", false)
	if a.Verdict != rsp.Redact || a.Replacement != "[REDACTED:github_token]" || a.Spans[0].Start != len("é token ") {
		t.Fatalf("%+v", a)
	}
}

func TestSecretsPlugin_AllowsOrdinaryText(t *testing.T) {
	for _, s := range []string{"", "how to rotate an AWS access key", "password reset link expired", "naïve café 😀"} {
		if a := Judge(s, false); a.Verdict != rsp.Allow {
			t.Errorf("%q: %+v", s, a)
		}
	}
}

func TestSecretsPlugin_BlockModeNamesKindsNeverValues(t *testing.T) {
	doc, want := document(t)
	a := Judge(doc, true)
	if a.Verdict != rsp.Block || a.Reason != "credentials found: aws_access_key_id, github_token, url_password" {
		t.Fatalf("%+v", a)
	}
	for _, p := range want {
		if strings.Contains(a.Reason, p.value) {
			t.Fatal("reason carries a value")
		}
	}
}

func TestSecretsPlugin_HandshakeAndUsage(t *testing.T) {
	var out, errb bytes.Buffer
	in := `{"rsp_version":"0.1","type":"handshake","host":{"name":"h","version":"1"},"hooks":["on_chunk"]}`
	if code := Main("1.2.3", nil, strings.NewReader(in), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var hs map[string]any
	if err := json.Unmarshal(out.Bytes(), &hs); err != nil {
		t.Fatal(err)
	}
	if hs["name"] != Name || hs["version"] != "1.2.3" || hs["deterministic"] != true || hs["inline_threshold"] != float64(inlineThreshold) ||
		fmt.Sprint(hs["hooks"]) != "[on_chunk on_retrieve on_response]" {
		t.Fatalf("handshake %s", out.Bytes())
	}
	if code := Main("1", []string{"--bogus"}, strings.NewReader(in), &out, &errb); code != 2 {
		t.Fatalf("unknown argument: exit %d", code)
	}
	if code := Main("1", nil, strings.NewReader("not json"), &out, &errb); code != 1 {
		t.Fatalf("bad request: exit %d", code)
	}
}

func TestSecretsPlugin_PassesConformance(t *testing.T) {
	for _, args := range [][]string{{pluginBin}, {pluginBin, "--block"}} {
		var out bytes.Buffer
		if !rsp.ConformanceRole(context.Background(), rsp.RoleCredentials, args, &out) {
			t.Fatalf("%v failed conformance:\n%s", args[1:], out.String())
		}
		if !strings.Contains(out.String(), "PASS on_chunk by_reference") || !strings.Contains(out.String(), "PASS on_response deterministic") {
			t.Fatalf("%s", out.String())
		}
	}
}

func TestSecretsPlugin_ThroughAHostRedactsAndRecordsKinds(t *testing.T) {
	doc, want := document(t)
	s := rsp.DefaultSettings()
	s.Hooks = []string{rsp.HookChunk}
	s.Plugins = []rsp.PluginSpec{{Name: "secrets", Command: []string{pluginBin}}}
	h, err := rsp.New(context.Background(), s, rsp.Deps{})
	if err != nil {
		t.Fatal(err)
	}
	r := h.Judge(context.Background(), rsp.HookChunk, "", []rsp.Item{{Content: doc}})[0]
	if r.Verdict != rsp.Redact || len(r.Redactions) != 3 || strings.Join(r.Types, ",") != "aws_access_key_id,github_token,url_password" {
		t.Fatalf("%+v", r)
	}
	for _, p := range want {
		if strings.Contains(r.Content, p.value) {
			t.Fatalf("%s left in the content", p.kind)
		}
	}
	if !strings.Contains(r.Content, "the café opens at 9.") || !strings.Contains(r.Content, "AWS_ACCESS_KEY_ID=[REDACTED:credential]\n") {
		t.Fatalf("content %q", r.Content)
	}
}
