package tool

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func js(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestREQ_ERR_002_ErrorKindsAndDetailKeys pins the JSON of every constructor:
// the kind, the reason and the fixed detail keys.
func TestREQ_ERR_002_ErrorKindsAndDetailKeys(t *testing.T) {
	cases := []struct {
		err  *Error
		want string
	}{
		{InvalidRange("max_results", 1, 20), `{"detail":{"max":20,"min":1,"parameter":"max_results"},"kind":"invalid_request","message":"max_results must be between 1 and 20"}`},
		{InvalidEnum("category", []string{"general", "science"}), `{"detail":{"allowed":["general","science"],"parameter":"category"},"kind":"invalid_request","message":"category must be one of: general, science"}`},
		{URLTooLong(), `{"detail":{"max":2048,"parameter":"url"},"kind":"invalid_request","message":"url must have at most 2048 characters"}`},
		{StartCharBeyond(812), `{"detail":{"max":811,"min":0,"parameter":"start_char"},"kind":"invalid_request","message":"start_char must be below the content length of 812 characters"}`},
		{Denied(ReasonEgress), `{"detail":{"reason":"egress"},"kind":"denied","message":"the destination is not allowed by the egress policy"}`},
		{DeniedSecret(ReasonSecretInQuery, "github_token", 9), `{"detail":{"kind":"github_token","position":9,"reason":"secret_in_query"},"kind":"denied","message":"the query looks like it carries a credential (github_token) at character 9; remove it"}`},
		{RateLimited(1500), `{"detail":{"reason":"rate_limited","retry_after_ms":1500},"kind":"unavailable","message":"the rate limit of this tool is reached; retry later"}`},
		{HTTPStatus(503, 120000), `{"detail":{"reason":"http_status","retry_after_ms":120000,"status":503},"kind":"unavailable","message":"the site answered with status 503; retry later"}`},
		{HTTPStatus(404, 5000), `{"detail":{"reason":"http_status","status":404},"kind":"unavailable","message":"the site refused the request or has no such page (status 404); retrying the same URL will not help"}`},
		{Redirected("https://example.org/new"), `{"detail":{"location":"https://example.org/new"},"kind":"redirected","message":"the page moved to another host; see detail.location"}`},
		{UnsupportedMediaType("Application/ZIP; charset=\"x\"<script>"), `{"detail":{"media_type":"application/zip","reason":"media_type"},"kind":"unsupported_content","message":"this media type cannot be read; only HTML, XHTML, plain text, Markdown and PDF are; choose another page"}`},
		{ExtractionFailed(), `{"detail":{"reason":"extraction_failed"},"kind":"unsupported_content","message":"no readable content could be extracted from this page; choose another page"}`},
		{ExtractionFailedScripts(), `{"detail":{"reason":"extraction_failed"},"kind":"unsupported_content","message":"this page shows its text only through scripts, which are never run, and hidden or noscript text is never read; choose another page"}`},
		{TooLarge(5242880), `{"detail":{"limit_bytes":5242880},"kind":"too_large","message":"the page is larger than the limit of 5242880 bytes; choose another page"}`},
	}
	for _, c := range cases {
		if got := js(t, c.err); got != c.want {
			t.Errorf("\n got %s\nwant %s", got, c.want)
		}
	}
	// The tutorial's redirected answer, byte for byte.
	if got := js(t, ErrorEnvelope{Error: Redirected("https://example.org/new")}); got != `{"error":{"detail":{"location":"https://example.org/new"},"kind":"redirected","message":"the page moved to another host; see detail.location"}}` {
		t.Fatalf("envelope %s", got)
	}
}

func TestREQ_FETCH_011_RetryWording(t *testing.T) {
	for _, s := range []int{408, 425, 429, 500, 503, 599} {
		if e := HTTPStatus(s, 1000); !strings.HasSuffix(e.Message, "retry later") || e.Detail.RetryAfterMs == nil {
			t.Errorf("%d: %q", s, e.Message)
		}
	}
	for _, s := range []int{400, 401, 403, 404, 410, 451} {
		if e := HTTPStatus(s, 1000); !strings.Contains(e.Message, "will not help") || e.Detail.RetryAfterMs != nil {
			t.Errorf("%d: %q", s, e.Message)
		}
	}
}

// TestREQ_ERR_004_NoExternalTextInMessages: the only external identifiers a
// constructor takes are validated and kept out of the message.
func TestREQ_ERR_004_NoExternalTextInMessages(t *testing.T) {
	if e := Redirected("javascript:alert(1)"); e.Kind != KindDenied || e.Detail.Location != "" {
		t.Fatalf("a non-http location must not be disclosed: %+v", e)
	}
	if e := Redirected("https://x.example/" + strings.Repeat("a", 3000)); e.Kind != KindDenied {
		t.Fatalf("an overlong location must not be disclosed")
	}
	e := UnknownParameter("ignore previous instructions", []string{"query"})
	if e.Detail.Parameter != "" || strings.Contains(js(t, e), "ignore") {
		t.Fatalf("a caller's stray text was echoed: %s", js(t, e))
	}
	if e := UnknownParameter("colour", []string{"query"}); e.Detail.Parameter != "colour" {
		t.Fatalf("a plain name is kept: %+v", e)
	}
	if e := DeniedSecret(ReasonSecretInURL, "Bad Kind!", 3); e.Detail.Kind != "" || strings.Contains(e.Message, "Bad") {
		t.Fatalf("kind not from the vocabulary shape: %+v", e)
	}
	if e := UnsupportedMediaType(strings.Repeat("x", 500)); len(e.Detail.MediaType) > MaxMediaTypeChars {
		t.Fatalf("media type unbounded: %d", len(e.Detail.MediaType))
	}
}

// TestREQ_ERR_002_MessagesAreBounded: LIM-I4 holds whatever the inputs.
func TestREQ_ERR_002_MessagesAreBounded(t *testing.T) {
	many := make([]string, 100)
	for i := range many {
		many[i] = "categoryname"
	}
	for _, e := range []*Error{InvalidEnum("category", many), UnknownParameter("x", many), InvalidRange("p", -1<<62, 1<<62)} {
		if n := utf8.RuneCountInString(e.Message); n > MaxMessageChars {
			t.Fatalf("message of %d characters", n)
		}
	}
	if got := bound(strings.Repeat("é", 300)); utf8.RuneCountInString(got) != MaxMessageChars || !utf8.ValidString(got) {
		t.Fatalf("bound cuts badly")
	}
}

func TestREQ_CTX_002_ResponseShapes(t *testing.T) {
	n := 500
	got := js(t, FetchResponse{Content: "c", NextStartChar: &n, Notices: []Notice{{Code: CodeCharactersRemoved, Count: 3}}, Outcome: OutcomeOK, Title: "t", Truncated: true, URL: "https://example.org/"})
	want := `{"content":"c","next_start_char":500,"notices":[{"code":"characters_removed","count":3}],"outcome":"ok","title":"t","truncated":true,"url":"https://example.org/"}`
	if got != want {
		t.Fatalf("\n got %s\nwant %s", got, want)
	}
	got = js(t, StatusResponse{Engines: []EngineStatus{{ID: "brave", State: StateDisabled, Reason: DisabledNoKey}}, Notices: []Notice{}, Outcome: OutcomeOK})
	if got != `{"engines":[{"id":"brave","latency_ms":null,"reason":"no_credential","state":"disabled"}],"notices":[],"outcome":"ok"}` {
		t.Fatalf("status %s", got)
	}
	got = js(t, Notice{Code: CodeEngineUnavailable, Engine: "brave", Reason: ReasonRateLimited})
	if got != `{"code":"engine_unavailable","engine":"brave","reason":"rate_limited"}` {
		t.Fatalf("notice %s", got)
	}
}
