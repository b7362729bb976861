package fetch

import (
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"rypsok/egress"
	"rypsok/secrets"
	"rypsok/tool"
)

// productionEnv is a service with the production policy (no allow rule)
// that lists the canary's port, so that only the address decides.
func productionEnv(t *testing.T, canary *site, set func(*Settings)) *env {
	t.Helper()
	return newEnv(t, func(s *Settings) {
		s.Policy.Allow = nil
		if set != nil {
			set(s)
		}
	}, canary)
}

func TestREQ_SEC_006_RefusedURLsAreDenied(t *testing.T) {
	canary := newSite(t, html("<p>canary</p>"))
	p := strconv.Itoa(canary.port())
	e := productionEnv(t, canary, nil)
	e.resolver.set("canary.example.com", "127.0.0.1")
	long := "https://example.com/" + strings.Repeat("a", tool.MaxURLChars)
	cases := []struct {
		url    string
		kind   tool.Kind
		reason tool.Reason
		class  string // the class of the refused log line, "" when none
	}{
		{"https://127.0.0.1:" + p + "/", tool.KindDenied, tool.ReasonEgress, "loopback"},
		{"https://2130706433:" + p + "/", tool.KindDenied, tool.ReasonEgress, "loopback"},
		{"https://0x7f000001:" + p + "/", tool.KindDenied, tool.ReasonEgress, "loopback"},
		{"https://0x7f.1:" + p + "/", tool.KindDenied, tool.ReasonEgress, "loopback"},
		{"https://0177.0.0.1:" + p + "/", tool.KindDenied, tool.ReasonEgress, "loopback"},
		{"https://127.1:" + p + "/", tool.KindDenied, tool.ReasonEgress, "loopback"},
		{"https://[::1]:" + p + "/", tool.KindDenied, tool.ReasonEgress, "loopback"},
		{"https://[::ffff:127.0.0.1]:" + p + "/", tool.KindDenied, tool.ReasonEgress, "loopback"},
		{"https://[::ffff:7f00:1]:" + p + "/", tool.KindDenied, tool.ReasonEgress, "loopback"},
		{"https://10.0.0.1/", tool.KindDenied, tool.ReasonEgress, "private"},
		{"http://192.168.1.10/admin", tool.KindDenied, tool.ReasonEgress, "private"},
		{"https://169.254.169.254/latest/meta-data/", tool.KindDenied, tool.ReasonEgress, ""},
		{"https://[fd00::1]/", tool.KindDenied, tool.ReasonEgress, ""},
		{"https://[fe80::1]/", tool.KindDenied, tool.ReasonEgress, ""},
		{"https://100.64.0.1/", tool.KindDenied, tool.ReasonEgress, ""},
		{"https://[64:ff9b::a00:1]/", tool.KindDenied, tool.ReasonEgress, ""},
		{"https://0.0.0.0/", tool.KindDenied, tool.ReasonEgress, ""},
		{"https://224.0.0.1/", tool.KindDenied, tool.ReasonEgress, ""},
		{"https://255.255.255.255/", tool.KindDenied, tool.ReasonEgress, ""},
		{"https://localhost:" + p + "/", tool.KindDenied, tool.ReasonEgress, ""},
		{"https://LOCALHOST./", tool.KindDenied, tool.ReasonEgress, ""},
		{"https://foo.internal/", tool.KindDenied, tool.ReasonEgress, ""},
		{"https://printer.local/", tool.KindDenied, tool.ReasonEgress, ""},
		{"https://intranet/", tool.KindDenied, tool.ReasonEgress, ""},
		{"https://canary.example.com:22/", tool.KindDenied, tool.ReasonEgress, "port"},
		{"ftp://example.com/file", tool.KindDenied, tool.ReasonScheme, ""},
		{"file:///etc/passwd", tool.KindDenied, tool.ReasonScheme, ""},
		{"gopher://example.com/", tool.KindDenied, tool.ReasonScheme, ""},
		{"javascript:alert(1)", tool.KindDenied, tool.ReasonScheme, ""},
		{"https://user:pass@canary.example.com:" + p + "/", tool.KindDenied, tool.ReasonSecretInURL, ""},
		{"https://user@canary.example.com:" + p + "/", tool.KindDenied, tool.ReasonCredentialInURL, ""},
		{"not a url", tool.KindInvalidRequest, "", ""},
		{"/relative/path", tool.KindInvalidRequest, "", ""},
		{"https:///no-host", tool.KindInvalidRequest, "", ""},
		{"https://:443/", tool.KindInvalidRequest, "", ""},
		{"https://exa mple.com/", tool.KindInvalidRequest, "", ""},
		{long, tool.KindInvalidRequest, "", ""},
	}
	for _, c := range cases {
		before := len(e.logs.events(t, "refused"))
		_, terr := e.fetch(t, c.url, 3000, 0)
		if terr == nil || terr.Kind != c.kind || terr.Detail.Reason != c.reason {
			t.Errorf("%.60s: got %v, want %s/%s", c.url, terr, c.kind, c.reason)
			continue
		}
		if c.class != "" {
			refused := e.logs.events(t, "refused")
			if len(refused) != before+1 || refused[before]["class"] != c.class || refused[before]["reason"] != string(c.reason) {
				t.Errorf("%.60s: refused log lines %v, want class %s", c.url, refused[before:], c.class)
			}
		}
	}
	if terr := tool.URLTooLong(); !reflect.DeepEqual(mustErr(e.fetch(t, long, 3000, 0)), terr) {
		t.Errorf("a long URL is not refused with the bound")
	}
	if n := e.resolver.count("canary.example.com"); n != 0 {
		t.Errorf("a refused URL was resolved %d times", n)
	}
	canary.mustBeUntouched(t)
}

func mustErr(_ *tool.FetchResponse, terr *tool.Error) *tool.Error { return terr }

// TestREQ_FETCH_007_CredentialsRefusedInEveryMode: whatever the secret
// check's mode, user:password is secret_in_url and user@ credential_in_url;
// in refuse mode the secret check names the kind and position first.
func TestREQ_FETCH_007_CredentialsRefusedInEveryMode(t *testing.T) {
	canary := newSite(t, html("<p>canary</p>"))
	p := strconv.Itoa(canary.port())
	for _, mode := range []secrets.Mode{secrets.Refuse, secrets.Mask, secrets.Warn, secrets.Off} {
		e := newEnv(t, func(s *Settings) { s.SecretDetection = mode }, canary)
		_, terr := e.fetch(t, "https://alice:S3cretPass@example.com:"+p+"/", 3000, 0)
		wantError(t, terr, tool.KindDenied, tool.ReasonSecretInURL)
		if mode == secrets.Refuse && (terr.Detail.Kind != "url_password" || terr.Detail.Position == nil || *terr.Detail.Position != 14) {
			t.Errorf("refuse: detail %+v, want url_password at 14", terr.Detail)
		}
		_, terr = e.fetch(t, "https://alice@example.com:"+p+"/", 3000, 0)
		wantError(t, terr, tool.KindDenied, tool.ReasonCredentialInURL)
		for _, s := range []string{"alice", "S3cretPass"} {
			if strings.Contains(e.logs.String(), s) {
				t.Errorf("%s: the log carries the credential", mode)
			}
		}
	}
	canary.mustBeUntouched(t)
}

// TestREQ_TEST_005_RebindingIsAnsweredAsUnreachable: the name first
// resolves to the admitted address (the robots.txt read connects there),
// then to a loopback address the policy refuses; the page request is never
// made and the answer is the one of a name that does not exist.
func TestREQ_TEST_005_RebindingIsAnsweredAsUnreachable(t *testing.T) {
	st := newSite(t, html("<p>the page</p>"))
	st.setRobots(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		http.NotFound(w, r)
	})
	e := newEnv(t, nil, st)
	e.resolver.set("rebind.example.com", "127.0.0.1", "127.0.0.2")
	_, terr := e.fetch(t, st.url("rebind.example.com", "/page"), 3000, 0)
	wantError(t, terr, tool.KindUnavailable, tool.ReasonNetwork)
	if st.count("/robots.txt") != 1 || st.count("/page") != 0 {
		t.Fatalf("the site saw %v", st.seen())
	}
	refused := e.logs.events(t, "refused")
	if len(refused) != 1 || refused[0]["class"] != "loopback" || refused[0]["reason"] != "egress" {
		t.Fatalf("refused log lines %v", refused)
	}
	if strings.Contains(e.logs.String(), "rebind") {
		t.Fatal("the refused host is in the log")
	}
	_, unknown := e.fetch(t, "https://gone.example.org/page", 3000, 0)
	if !reflect.DeepEqual(terr, unknown) {
		t.Fatalf("refused name answered %s, unknown name %s", errorJSON(t, terr), errorJSON(t, unknown))
	}
}

func TestREQ_TEST_005_NameWithOnlyRefusedAddressesIsUnreachable(t *testing.T) {
	st := newSite(t, html("<p>the page</p>"))
	for _, robotsTxt := range []bool{true, false} {
		e := newEnv(t, func(s *Settings) { s.IgnoreRobotsTxt = !robotsTxt }, st)
		e.resolver.set("mixed.example.com", "127.0.0.2,10.0.0.1,169.254.169.254,::1,fd00::1")
		_, terr := e.fetch(t, st.url("mixed.example.com", "/page"), 3000, 0)
		wantError(t, terr, tool.KindUnavailable, tool.ReasonNetwork)
		refused := e.logs.events(t, "refused")
		if len(refused) != 1 || refused[0]["reason"] != "egress" || refused[0]["class"] == "" || refused[0]["host"] != nil {
			t.Fatalf("robots %v: refused log lines %v", robotsTxt, refused)
		}
	}
	st.mustBeUntouched(t)
}

// TestREQ_SEC_007_MixedAnswersReachOnlyTheAdmittedAddress: a name with a
// refused and an admitted address is fetched from the admitted one; a
// canary listening on the refused address with the same port is never
// reached.
func TestREQ_SEC_007_MixedAnswersReachOnlyTheAdmittedAddress(t *testing.T) {
	st := newSite(t, html("<p>the public page, long enough to be read as the main content of this page.</p>"))
	var canaryHits atomic.Int32
	canary := canaryOn(t, "127.0.0.2:"+strconv.Itoa(st.port()), &canaryHits)
	e := newEnv(t, nil, st)
	e.resolver.set("mixed.example.com", "127.0.0.2,127.0.0.1")
	resp := e.mustFetch(t, st.url("mixed.example.com", "/page"), 3000, 0)
	if !strings.Contains(resp.Content, "public page") {
		t.Fatalf("content %q", resp.Content)
	}
	if canary != nil && canaryHits.Load() != 0 {
		t.Fatal("the refused address was connected to")
	}
}

// canaryOn listens on addr and counts connections; nil when the platform
// cannot listen there (127.0.0.2 is not configured everywhere).
func canaryOn(t *testing.T, addr string, hits *atomic.Int32) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Logf("no canary on %s: %v", addr, err)
		return nil
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			hits.Add(1)
			c.Close()
		}
	}()
	return ln
}

func TestREQ_SEC_008_RedirectsToRefusedTargetsAreDenied(t *testing.T) {
	var target string
	st := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/moved" {
			http.Redirect(w, r, target, http.StatusFound)
			return
		}
		html("<p>should not be read</p>")(w, r)
	})
	p := strconv.Itoa(st.port())
	targets := []string{
		"https://a.example.com:1/same-host-other-port",
		"https://10.0.0.1/internal",
		"http://169.254.169.254/latest/meta-data/",
		"https://[::1]:" + p + "/",
		"https://127.0.0.2:" + p + "/",
		"https://localhost:" + p + "/",
		"https://printer.local/",
		"https://user:pw@b.example.com:" + p + "/",
		"https://b.example.com:22/",
	}
	for _, follow := range []bool{false, true} {
		e := newEnv(t, func(s *Settings) { s.FollowCrossHostRedirects = follow }, st)
		for _, target = range targets {
			_, terr := e.fetch(t, st.url("a.example.com", "/moved"), 3000, 0)
			wantError(t, terr, tool.KindDenied, tool.ReasonEgress)
			if terr.Detail.Location != "" || strings.Contains(errorJSON(t, terr), strings.TrimPrefix(strings.TrimPrefix(target, "https://"), "http://")) {
				t.Errorf("follow %v: the refused target %s is disclosed: %s", follow, target, errorJSON(t, terr))
			}
		}
		if strings.Contains(e.logs.String(), "10.0.0.1") || strings.Contains(e.logs.String(), "meta-data") {
			t.Fatal("the refused target is in the log")
		}
	}
	for _, seen := range st.seen() {
		if seen != "/robots.txt" && seen != "/moved" {
			t.Fatalf("the site saw %s", seen)
		}
	}
}

// TestREQ_TEST_005_CanaryNeedsTheAllowRule: the same loopback server is
// refused under the production policy and read with an allow rule injected
// in code.
func TestREQ_TEST_005_CanaryNeedsTheAllowRule(t *testing.T) {
	canary := newSite(t, html("<p>The canary page has enough words to count as its main content.</p>"))
	u := "https://127.0.0.1:" + strconv.Itoa(canary.port()) + "/"
	_, terr := productionEnv(t, canary, nil).fetch(t, u, 3000, 0)
	wantError(t, terr, tool.KindDenied, tool.ReasonEgress)
	canary.mustBeUntouched(t)
	if resp := newEnv(t, nil, canary).mustFetch(t, u, 3000, 0); !strings.Contains(resp.Content, "canary page") {
		t.Fatalf("content %q", resp.Content)
	}
}

// TestREQ_SEC_009_OnlyGETWithRypsokHeaders: the request carries rypsok's
// User-Agent and no cookie or authorization, and a cookie set by the site
// is not sent back.
func TestREQ_SEC_009_OnlyGETWithRypsokHeaders(t *testing.T) {
	var got []http.Header
	var methods []string
	st := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Header.Clone())
		methods = append(methods, r.Method)
		http.SetCookie(w, &http.Cookie{Name: "session", Value: "abc"})
		html("<p>A page that sets a cookie and shows enough text to be read.</p>")(w, r)
	})
	e := newEnv(t, func(s *Settings) { s.IgnoreRobotsTxt = true }, st)
	for range 2 {
		e.mustFetch(t, st.url("a.example.com", "/page"), 3000, 0)
	}
	for i, h := range got {
		if methods[i] != http.MethodGet || h.Get("User-Agent") != "rypsok/test" || h.Get("Cookie") != "" || h.Get("Authorization") != "" {
			t.Fatalf("request %d: %s %v", i, methods[i], h)
		}
	}
}

// TestREQ_FETCH_010_HTTPIsUpgraded: an http URL is read over https and
// the answer names the https URL; when the https request fails the call is
// denied with scheme; with plain HTTP allowed it is read as given.
func TestREQ_FETCH_010_HTTPIsUpgraded(t *testing.T) {
	body := "<p>This page is served over https only and has enough text to be read.</p>"
	secure := newSite(t, html(body))
	plain := newPlainSite(t, html(body))
	for _, robotsTxt := range []bool{true, false} {
		e := newEnv(t, func(s *Settings) { s.IgnoreRobotsTxt = !robotsTxt }, secure, plain)
		u := "http://a.example.com:" + strconv.Itoa(secure.port()) + "/page"
		resp := e.mustFetch(t, u, 3000, 0)
		if want := "https" + strings.TrimPrefix(u, "http"); resp.URL != want {
			t.Fatalf("url %q, want %q", resp.URL, want)
		}
		_, terr := e.fetch(t, "http://a.example.com:"+strconv.Itoa(plain.port())+"/page", 3000, 0)
		wantError(t, terr, tool.KindDenied, tool.ReasonScheme)
		if terr.Message != tool.DeniedSchemeRetry().Message {
			t.Fatalf("message %q", terr.Message)
		}
		_, terr = e.fetch(t, "http://gone.example.org/page", 3000, 0)
		if !reflect.DeepEqual(terr, tool.DeniedSchemeRetry()) {
			t.Fatalf("an unreachable upgraded URL answered %s", errorJSON(t, terr))
		}
	}
	if n := plain.count("/page"); n != 0 {
		t.Fatal("plain http was used without the operator's permission")
	}
	e := newEnv(t, func(s *Settings) { s.Policy.AllowHTTP = true }, plain)
	u := "http://a.example.com:" + strconv.Itoa(plain.port()) + "/page"
	if resp := e.mustFetch(t, u, 3000, 0); resp.URL != u {
		t.Fatalf("url %q, want %q", resp.URL, u)
	}
}

// TestREQ_SEC_007_NoProxyFromTheEnvironment: a proxy named by the
// environment is never used.
func TestREQ_SEC_007_NoProxyFromTheEnvironment(t *testing.T) {
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the proxy was used")
	}))
	defer proxy.Close()
	t.Setenv("HTTPS_PROXY", proxy.URL)
	t.Setenv("HTTP_PROXY", proxy.URL)
	st := newSite(t, html("<p>Direct connections only, with enough text to be read.</p>"))
	e := newEnv(t, nil, st)
	e.mustFetch(t, st.url("a.example.com", "/"), 3000, 0)
}

var _ egress.Resolver = (*fakeResolver)(nil)
