package fetch

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"rypsok/tool"
)

const articleHTML = "<html><head><title>Moved here</title></head><body><article><p>The article that a redirect leads to, with enough words to be the main content.</p></article></body></html>"

// redirector answers /r/<n> with a redirect to /r/<n-1> and /r/0 with the
// article; /to answers a redirect to the ?loc= query.
func redirector(status int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasPrefix(r.URL.Path, "/r/"):
			n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/r/"))
			if n == 0 {
				html(articleHTML)(w, r)
				return
			}
			w.Header().Set("Location", "/r/"+strconv.Itoa(n-1))
			w.WriteHeader(status)
		case r.URL.Path == "/to":
			if loc, ok := r.URL.Query()["loc"]; ok {
				w.Header().Set("Location", loc[0])
			}
			w.WriteHeader(status)
		case r.URL.Path == "/long":
			w.Header().Set("Location", "/"+strings.Repeat("x", tool.MaxURLChars))
			w.WriteHeader(status)
		case r.URL.Path == "/article":
			html(articleHTML)(w, r)
		default:
			http.NotFound(w, r)
		}
	}
}

func TestREQ_FETCH_006_SameHostRedirectsAreFollowed(t *testing.T) {
	for _, status := range []int{301, 302, 303, 307, 308} {
		st := newSite(t, redirector(status))
		e := newEnv(t, func(s *Settings) { s.MaxRedirects = 3 }, st)
		resp := e.mustFetch(t, st.url("a.example.com", "/r/3"), 3000, 0)
		if resp.URL != st.url("a.example.com", "/r/0") || !strings.Contains(resp.Content, "redirect leads to") {
			t.Fatalf("%d: url %q content %q", status, resp.URL, resp.Content)
		}
		// Same host name in another case, with a root dot: still the host,
		// requested (and reported) in its canonical form.
		loc := "https://A.EXAMPLE.COM.:" + strconv.Itoa(st.port()) + "/article"
		resp = e.mustFetch(t, st.url("a.example.com", "/to?loc="+loc), 3000, 0)
		if resp.URL != st.url("a.example.com", "/article") {
			t.Fatalf("%d: url %q", status, resp.URL)
		}
		// One more than the limit: the page cannot be reached.
		_, terr := e.fetch(t, st.url("a.example.com", "/r/4"), 3000, 0)
		wantError(t, terr, tool.KindUnavailable, tool.ReasonNetwork)
		if n := st.count("/r/0"); n != 1 {
			t.Fatalf("%d: the end of the chain was read %d times", status, n)
		}
	}
}

func TestREQ_FETCH_006_NoRedirectFollowedWhenTheLimitIsZero(t *testing.T) {
	st := newSite(t, redirector(http.StatusFound))
	e := newEnv(t, func(s *Settings) { s.MaxRedirects = 0 }, st)
	_, terr := e.fetch(t, st.url("a.example.com", "/r/1"), 3000, 0)
	wantError(t, terr, tool.KindUnavailable, tool.ReasonNetwork)
	if st.count("/r/0") != 0 {
		t.Fatal("a redirect was followed")
	}
}

// TestREQ_FETCH_006_HTTPRedirectTargetIsUpgraded: a same-host redirect to
// http is requested as https.
func TestREQ_FETCH_006_HTTPRedirectTargetIsUpgraded(t *testing.T) {
	st := newSite(t, redirector(http.StatusMovedPermanently))
	e := newEnv(t, nil, st)
	loc := "http://a.example.com:" + strconv.Itoa(st.port()) + "/article"
	resp := e.mustFetch(t, st.url("a.example.com", "/to?loc="+loc), 3000, 0)
	if resp.URL != st.url("a.example.com", "/article") {
		t.Fatalf("url %q", resp.URL)
	}
}

func TestREQ_FETCH_006_CrossHostRedirectIsReported(t *testing.T) {
	st := newSite(t, redirector(http.StatusMovedPermanently))
	e := newEnv(t, nil, st)
	target := st.url("b.example.com", "/article")
	_, terr := e.fetch(t, st.url("a.example.com", "/to?loc="+target), 3000, 0)
	if terr == nil || terr.Kind != tool.KindRedirected || terr.Detail.Location != target {
		t.Fatalf("got %v, want redirected to %s", terr, target)
	}
	if st.count("/article") != 0 {
		t.Fatal("the cross-host target was requested")
	}
	// Another port of the same name is another host.
	other := newSite(t, html(articleHTML))
	e = newEnv(t, nil, st, other)
	target = other.url("a.example.com", "/article")
	_, terr = e.fetch(t, st.url("a.example.com", "/to?loc="+target), 3000, 0)
	if terr == nil || terr.Kind != tool.KindRedirected || terr.Detail.Location != target {
		t.Fatalf("got %v, want redirected to %s", terr, target)
	}
	if len(other.seen()) != 0 {
		t.Fatal("the other port was requested")
	}
}

func TestREQ_FETCH_006_CrossHostRedirectFollowedWhenConfigured(t *testing.T) {
	st := newSite(t, redirector(http.StatusFound))
	e := newEnv(t, func(s *Settings) { s.FollowCrossHostRedirects = true; s.MaxRedirects = 1 }, st)
	target := st.url("b.example.com", "/article")
	resp := e.mustFetch(t, st.url("a.example.com", "/to?loc="+target), 3000, 0)
	if resp.URL != target || resp.Title != "Moved here" {
		t.Fatalf("url %q title %q", resp.URL, resp.Title)
	}
	// Cross-host hops count against the limit.
	second := st.url("a.example.com", "/to?loc="+target)
	_, terr := e.fetch(t, st.url("b.example.com", "/to?loc="+strings.ReplaceAll(second, "?", "%3F")), 3000, 0)
	wantError(t, terr, tool.KindUnavailable, tool.ReasonNetwork)
}

func TestREQ_FETCH_006_UnusableLocationIsUnreachable(t *testing.T) {
	st := newSite(t, redirector(http.StatusFound))
	e := newEnv(t, nil, st)
	for _, path := range []string{
		"/to",                     // no Location
		"/to?loc=",                // empty Location
		"/to?loc=http://%5B::1",   // unparsable
		"/to?loc=https:///nohost", // no host
		"/long",                   // too long once resolved
	} {
		_, terr := e.fetch(t, st.url("a.example.com", path), 3000, 0)
		wantError(t, terr, tool.KindUnavailable, tool.ReasonNetwork)
	}
}

func TestREQ_FETCH_006_OtherRedirectStatusesAreNotFollowed(t *testing.T) {
	for _, status := range []int{300, 304, 305} {
		st := newSite(t, redirector(status))
		e := newEnv(t, nil, st)
		_, terr := e.fetch(t, st.url("a.example.com", "/to?loc=/article"), 3000, 0)
		wantError(t, terr, tool.KindUnavailable, tool.ReasonNetwork)
		if st.count("/article") != 0 {
			t.Fatalf("%d was followed", status)
		}
	}
}

func TestREQ_FETCH_006_SameHostRule(t *testing.T) {
	cases := []struct {
		cur, next string
		same      bool
	}{
		{"https://a.example.com/x", "https://a.example.com/y", true},
		{"https://a.example.com/x", "https://A.Example.COM./y", true},
		{"https://a.example.com/x", "https://a.example.com:443/y", true},
		{"http://a.example.com/x", "https://a.example.com/y", true},
		{"http://a.example.com:80/x", "https://a.example.com:443/y", true},
		{"https://bücher.example.com/", "https://xn--bcher-kva.example.com/", true},
		{"https://127.0.0.1/", "https://[::ffff:127.0.0.1]/", true},
		{"https://a.example.com/x", "https://b.example.com/x", false},
		{"https://a.example.com/x", "https://a.example.com:8443/x", false},
		{"https://a.example.com/x", "http://a.example.com/x", false},
		{"http://a.example.com:8080/x", "https://a.example.com:8080/x", false},
		{"https://example.com/", "https://www.example.com/", false},
	}
	for _, c := range cases {
		cur, _ := url.Parse(c.cur)
		next, _ := url.Parse(c.next)
		if got := sameHost(cur, next); got != c.same {
			t.Errorf("sameHost(%s, %s) = %v", c.cur, c.next, got)
		}
	}
}

func TestREQ_FETCH_010_UpgradeKeepsTheURL(t *testing.T) {
	svc := New(DefaultSettings(), Deps{})
	cases := map[string]string{
		"http://example.com/a?b=c#d": "https://example.com/a?b=c#d",
		"http://example.com:80/":     "https://example.com/",
		"http://[2001:db8::1]:80/":   "https://[2001:db8::1]/",
		"http://example.com:8080/x":  "https://example.com:8080/x",
		"https://example.com:8443/x": "https://example.com:8443/x",
	}
	for in, want := range cases {
		u, _ := url.Parse(in)
		got, upgraded := svc.upgrade(u)
		if got.String() != want || upgraded != strings.HasPrefix(in, "http:") {
			t.Errorf("upgrade(%s) = %s, %v", in, got, upgraded)
		}
	}
	allowHTTP := DefaultSettings()
	allowHTTP.Policy.AllowHTTP = true
	u, _ := url.Parse("http://example.com/")
	if got, upgraded := New(allowHTTP, Deps{}).upgrade(u); upgraded || got.Scheme != "http" {
		t.Error("an allowed http URL was upgraded")
	}
}

// TestREQ_SEC_008_RedirectToAnotherSchemeIsDeniedScheme: a Location whose
// scheme is not http or https — or that has an empty scheme — ends the call
// denied with reason scheme, not as a network failure, and nothing else is
// requested.
func TestREQ_SEC_008_RedirectToAnotherSchemeIsDeniedScheme(t *testing.T) {
	for _, follow := range []bool{false, true} {
		st := newSite(t, redirector(http.StatusFound))
		e := newEnv(t, func(s *Settings) { s.FollowCrossHostRedirects = follow }, st)
		for _, loc := range []string{
			"ftp://a.example.com/file",
			"file:///etc/passwd",
			"gopher://a.example.com:70/1",
			"data:text/html,<p>hi</p>",
			"javascript:alert(1)",
			"mailto:a@example.com",
			"FTP://a.example.com/",
			"://a.example.com/no-scheme",
			":no-scheme",
		} {
			_, terr := e.fetch(t, st.url("a.example.com", "/to?loc="+url.QueryEscape(loc)), 3000, 0)
			wantError(t, terr, tool.KindDenied, tool.ReasonScheme)
		}
		for _, seen := range st.seen() {
			if seen != "/robots.txt" && !strings.HasPrefix(seen, "/to?") {
				t.Fatalf("the site saw %s", seen)
			}
		}
	}
}
