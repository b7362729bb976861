package secrets

import (
	"encoding/base64"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// Synthetic bodies for the table tests, built here so that no
// credential-shaped literal sits in the source.
var (
	alnum36 = strings.Repeat("aB3dE6gH9k", 4)[:36]
	b32x16  = "IOSFODNN7QXMPLQ2"
	ghp     = "ghp_" + alnum36
	akia    = "AKIA" + b32x16
)

// find returns Scan(text) as "kind@start-end" words, for compact tables.
func find(text string) string {
	var w []string
	for _, f := range Scan(text) {
		w = append(w, fmt.Sprintf("%s@%d-%d", f.Kind, f.Start, f.End))
	}
	return strings.Join(w, " ")
}

func TestREQ_PRIV_002_PositionsInRunesOfTheOriginal(t *testing.T) {
	n := utf8.RuneCountInString
	for _, c := range []struct {
		name, before string
	}{
		{"ascii", "token "},
		{"two-byte", "clé é "},
		{"three-byte", "東京の天気 "},
		{"four-byte", "🎉🎉 "},
		{"invalid bytes", "a\xff\xfe "},
		{"combining", "e\u0301 "},
		{"invisible before", "x \u200b"},
		{"escape before", "a%20b "},
	} {
		text := c.before + ghp + " 日本"
		want := fmt.Sprintf("github_token@%d-%d", n(c.before), n(c.before)+40)
		if got := find(text); got != want {
			t.Errorf("%s: got %s, want %s", c.name, got, want)
		}
		masked, count := MaskText(text)
		if count != 1 || masked != c.before+"[redacted] 日本" {
			t.Errorf("%s: MaskText = %q, %d", c.name, masked, count)
		}
	}
}

func TestREQ_PRIV_002_ReadsThroughInvisibleCharacters(t *testing.T) {
	invisible := map[string]string{
		"zero-width space":      "\u200b",
		"zero-width non-joiner": "\u200c",
		"zero-width joiner":     "\u200d",
		"left-to-right mark":    "\u200e",
		"right-to-left mark":    "\u200f",
		"soft hyphen":           "\u00ad",
		"word joiner":           "\u2060",
		"byte order mark":       "\ufeff",
		"bidi override":         "\u202e",
		"bidi isolate":          "\u2066",
		"variation selector":    "\ufe0f",
		"tag character":         "\U000E0041",
		"two in a row":          "\u200b\u200d",
	}
	for name, inv := range invisible {
		for _, c := range []struct{ kind, value string }{
			{"github_token", ghp},
			{"aws_access_key_id", akia},
			{"password_value", "Tr0ub4dor&x"},
		} {
			cut := len(c.value) / 2
			hidden := c.value[:cut] + inv + c.value[cut:]
			prefix := "see "
			if c.kind == "password_value" {
				prefix = "password="
				hidden = strings.ReplaceAll(hidden, "&", "!")
			}
			text := prefix + hidden + " now"
			want := fmt.Sprintf("%s@%d-%d", c.kind, len(prefix), len(prefix)+utf8.RuneCountInString(hidden))
			if got := find(text); got != want {
				t.Errorf("%s in %s: got %q, want %q", name, c.kind, got, want)
			}
			if m, _ := MaskText(text); strings.Contains(m, c.value[cut:]) {
				t.Errorf("%s in %s: masking left part of the value", name, c.kind)
			}
		}
	}
}

func TestREQ_PRIV_002_GitHubTokenWrappedBySpace(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"space", "x " + ghp[:20] + " " + ghp[20:] + " y", "github_token@2-43"},
		{"newline", "x " + ghp[:30] + "\n" + ghp[30:], "github_token@2-43"},
		{"crlf", "x " + ghp[:10] + "\r\n" + ghp[10:], "github_token@2-44"},
		{"tab", ghp[:5] + "\t" + ghp[5:], "github_token@0-41"},
		{"fine-grained", "github_pat_" + strings.Repeat("aZ9_", 10) + " " + strings.Repeat("aZ9_", 10) + "ab", "github_token@0-94"},
		{"two spaces", ghp[:20] + "  " + ghp[20:], ""},
		{"second part too long", ghp[:20] + " " + ghp[20:] + "Q", ""},
		{"second part too short", ghp[:20] + " " + ghp[20:39], ""},
		{"a word after a prefix", "ghp_abc is short", ""},
	} {
		if got := find(c.text); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestREQ_PRIV_002_LowerCaseForms(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"akia in lower case", "id " + strings.ToLower(akia), "aws_access_key_id@3-23"},
		{"asia in lower case", strings.ToLower("ASIA" + b32x16), "aws_access_key_id@0-20"},
		{"mixed-case aws is not a key", "Akia" + b32x16, ""},
		{"bearer in lower case", "bearer " + alnum36, "bearer_token@7-43"},
		{"bearer in upper case", "BEARER " + alnum36, "bearer_token@7-43"},
		{"upper-case github prefix", "GHP_" + alnum36, "github_token@0-40"},
		{"aiza in lower case", "aiza" + strings.Repeat("x1_-z", 7), "google_api_key@0-39"},
		{"HF_ in upper case is an environment name", "HF_" + strings.Repeat("AB12", 8) + "CD", ""},
	} {
		if got := find(c.text); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestREQ_PRIV_002_PercentEncodedForms(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"Bearer%20", "?h=Bearer%20" + alnum36, "bearer_token@12-48"},
		{"Bearer+", "?h=Bearer+" + alnum36, "bearer_token@10-46"},
		{"bearer%20 lower", "?h=bearer%20" + alnum36, "bearer_token@12-48"},
		{"password%3D", "?q=password%3DTr0ub4dor99", "password_value@14-25"},
		{"%3A form", "?q=password%3ATr0ub4dor99", "password_value@14-25"},
		{"escape inside the value", "?password=Tr0ub%40dor", "password_value@10-21"},
		{"encoded aws secret", "aws_secret_access_key=" + strings.Repeat("aB3%2F", 10), "aws_secret_access_key@22-82"},
		{"a lone percent sign", "100% sure password", ""},
	} {
		if got := find(c.text); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestREQ_PRIV_002_RealLengthsOnly(t *testing.T) {
	// One character fewer or more than the real format is not the format.
	for _, c := range []struct {
		name, text string
		found      bool
	}{
		{"aws 20", akia, true},
		{"aws 19", akia[:19], false},
		{"aws 21", akia + "Q", false},
		{"aws without a digit", "AKIA" + strings.Repeat("Q", 16), false},
		{"aws with base32-invalid 8", "AKIA" + b32x16[:15] + "8", false},
		{"github 36", ghp, true},
		{"github 35", ghp[:39], false},
		{"github 37", ghp + "x", false},
		{"npm 36", "npm_" + alnum36, true},
		{"npm 35", "npm_" + alnum36[:35], false},
		{"huggingface 34", "hf_" + alnum36[:34], true},
		{"huggingface 35", "hf_" + alnum36[:35], false},
		{"google 35", "AIza" + alnum36[:35], true},
		{"google 36", "AIza" + alnum36, false},
		{"twilio 32", "SK" + strings.Repeat("0a1b", 8), true},
		{"twilio 31", "SK" + strings.Repeat("0a1b", 8)[:31], false},
		{"twilio without letters", "SK" + strings.Repeat("0123", 8), false},
		{"twilio account sid", "AC" + strings.Repeat("0a1b", 8), false},
		{"stripe 24", "sk_live_" + alnum36[:24], true},
		{"stripe 23", "sk_live_" + alnum36[:23], false},
		{"stripe publishable", "pk_live_" + alnum36, false},
		{"sendgrid", "SG." + alnum36[:22] + "." + alnum36 + alnum36[:7], true},
		{"sendgrid short", "SG." + alnum36[:21] + "." + alnum36 + alnum36[:7], false},
		{"telegram 35", "123456789:AA" + alnum36[:33], true},
		{"telegram 34", "123456789:AA" + alnum36[:32], false},
		{"telegram 7 digits", "1234567:AA" + alnum36[:33], false},
		{"telegram 11 digits", "12345678901:AA" + alnum36[:33], false},
		{"anthropic 95", "sk-ant-api03-" + strings.Repeat("a1_-B", 18) + "xyzAA", true},
		{"anthropic without AA", "sk-ant-api03-" + strings.Repeat("a1_-B", 18) + "xyzAB", false},
		{"anthropic 96", "sk-ant-api03-" + strings.Repeat("a1_-B", 18) + "xyzwAA", false},
		{"openai legacy", "sk-" + alnum36[:20] + "T3BlbkFJ" + alnum36[:20], true},
		{"openai legacy without marker", "sk-" + alnum36[:20] + "X3BlbkFJ" + alnum36[:20], false},
		{"openai project 58/58", "sk-proj-" + strings.Repeat("a1_-B3", 10)[:58] + "T3BlbkFJ" + strings.Repeat("a1_-B3", 10)[:58], true},
		{"openai project 58/57", "sk-proj-" + strings.Repeat("a1_-B3", 10)[:58] + "T3BlbkFJ" + strings.Repeat("a1_-B3", 10)[:57], false},
		{"gitlab 20", "glpat-" + alnum36[:20], true},
		{"gitlab 19", "glpat-" + alnum36[:19], false},
		{"gitlab 21", "glpat-" + alnum36[:21], false},
		{"slack bot", "xoxb-123456789012-1234567890123-" + alnum36[:24], true},
		{"slack words", "xoxb-this-is-not-a-real-token-at-all", false},
		{"azure 88", "AccountKey=" + strings.Repeat("aB3+/x", 15)[:86] + "==", true},
		{"azure 87", "AccountKey=" + strings.Repeat("aB3+/x", 15)[:85] + "==", false},
		{"aws secret 40", "aws_secret_access_key=" + strings.Repeat("aB3/+", 8), true},
		{"aws secret 41", "aws_secret_access_key=" + strings.Repeat("aB3/+", 8) + "x", false},
	} {
		got := Scan(c.text) != nil
		if got != c.found {
			t.Errorf("%s: found %v, want %v (%s)", c.name, got, c.found, find(c.text))
		}
	}
}

func TestREQ_PRIV_002_LookAlikesPass(t *testing.T) {
	for _, text := range []string{
		"sk-learn-ensemble-random-forest-classifier-tutorial-for-beginners-2024",
		"bearer and a phrase",
		"bearer of good news for the 2024 season",
		"ASIAPACIFICREGIONALFORUM",
		"ASIA" + "PACIFICREGIONALF",
		"host.example:8080@mirror",
		"password=configuration",
		"password=correct-horse-battery",
		"3f786850e387550fdab836ed7e6dc881de23001b",
		"123e4567-e89b-12d3-a456-426614174000",
		"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		"v1.2.3-rc.1+build.5",
		base64.StdEncoding.EncodeToString([]byte("the quick brown fox jumps over the lazy dog")),
		"basic " + base64.StdEncoding.EncodeToString([]byte("no colon in here")),
		"Basic " + base64.StdEncoding.EncodeToString([]byte("a\x01:b")),
		"eyJmb28iOiJiYXIifQ.eyJmb28iOiJiYXIifQ.c2ln",
		"https://example.com:443@evil.example/",
		"https://user@example.com/",
		"docker pull nginx:1.25@sha256:abc",
	} {
		if got := find(text); got != "" {
			t.Errorf("%q: found %s", text, got)
		}
	}
}

func TestREQ_PRIV_002_OverlapsNameTheSpecificKind(t *testing.T) {
	jwt := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256"}`)) + "." +
		base64.RawURLEncoding.EncodeToString([]byte(`{"sub":"1"}`)) + "." + alnum36
	for _, c := range []struct {
		name, text, want string
	}{
		{"github in a password", "password=" + ghp, "github_token@9-49"},
		{"jwt after bearer", "Bearer " + jwt, fmt.Sprintf("jwt@7-%d", 7+len(jwt))},
		{"github as a url password", "https://u:" + ghp + "@github.com/", "github_token@10-50"},
		{"two findings", ghp + " and " + akia, "github_token@0-40 aws_access_key_id@45-65"},
		{"adjacent in a query", "?a=" + ghp + "&b=" + akia, "github_token@3-43 aws_access_key_id@46-66"},
	} {
		if got := find(c.text); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestREQ_PRIV_002_PrivateKeyBlockIsCoveredWhole(t *testing.T) {
	body := strings.Repeat("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 2)
	block := "-----BEGIN PRIVATE KEY-----\n" + body + "\n" + body[:20] + "==\n-----END PRIVATE KEY-----"
	text := "why does " + block + " fail to parse"
	masked, n := MaskText(text)
	if n != 1 || masked != "why does [redacted] fail to parse" {
		t.Errorf("MaskText = %q, %d", masked, n)
	}
	// Without an END line, the body is covered and the prose after it is not.
	masked, _ = MaskText("-----BEGIN RSA PRIVATE KEY-----\n" + body + " what is this")
	if masked != "[redacted] what is this" {
		t.Errorf("MaskText without END = %q", masked)
	}
}

func TestREQ_PRIV_002_FindingsNeverCarryTheValue(t *testing.T) {
	text := "password=Tr0ub4dor99 " + ghp
	fs := Scan(text)
	if len(fs) != 2 {
		t.Fatalf("got %v", fs)
	}
	for _, f := range fs {
		for _, v := range []string{"Tr0ub4dor99", ghp, alnum36[:8]} {
			if strings.Contains(fmt.Sprintf("%+v %#v", f, f), v) {
				t.Errorf("%+v shows the value", f)
			}
		}
	}
}

// TestREQ_PRIV_002_ScanIsLinear runs inputs that would take quadratic time
// if a rule re-read the same stretch from every start. The bound is
// generous: a linear scan takes milliseconds, a quadratic one minutes.
func TestREQ_PRIV_002_ScanIsLinear(t *testing.T) {
	const size = 1 << 18
	inputs := map[string]string{
		"bearer chain":       strings.Repeat("bearer+", size/7),
		"basic chain":        strings.Repeat("basic+", size/6),
		"secret chain":       strings.Repeat("secret=", size/7),
		"password run":       "password=" + strings.Repeat("a=", size/2),
		"jwt-like run":       strings.Repeat("eyJ-", size/4),
		"jwt dots":           strings.Repeat("eyJ.", size/4),
		"pem headers":        strings.Repeat("-----BEGIN PRIVATE KEY-----", size/27),
		"pem dashes":         strings.Repeat("-", size),
		"url authorities":    strings.Repeat("a://b:c", size/7),
		"long base64url":     "x " + strings.Repeat("aB3_-", size/5),
		"percent escapes":    strings.Repeat("%41", size/3),
		"invisible":          strings.Repeat("a\u200b", size/4),
		"digits and colons":  strings.Repeat("123456789:", size/10),
		"slack groups":       "xoxb-" + strings.Repeat("1-", size/2),
		"gitlab prefix runs": strings.Repeat("glpat-", size/6),
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, in := range inputs {
			Scan(in)
			MaskText(in)
		}
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("scanning 15 inputs of 256 KiB took over a minute")
	}
}

// TestFindingDocumentsEveryKind keeps the vocabulary in Finding's comment
// and the kinds Scan reports the same.
func TestFindingDocumentsEveryKind(t *testing.T) {
	src, err := os.ReadFile("scan.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(src)
	doc = doc[strings.Index(doc, "// The kinds are"):strings.Index(doc, "type Finding struct")]
	for k := kind(1); k < kindCount; k++ {
		if !strings.Contains(doc, " "+k.String()+",") && !strings.Contains(doc, " "+k.String()+" ") && !strings.Contains(doc, " "+k.String()+".") {
			t.Errorf("the comment of Finding does not name %s", k)
		}
	}
}
