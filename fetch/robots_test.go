package fetch

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"rypsok/tool"
)

const pageHTML = "<html><head><title>A page</title></head><body><article><p>A page with enough words in it to be taken as the main content of the document.</p></article></body></html>"

func robotsText(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte(body))
	}
}

func robotsStatus(status int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(status) }
}

func TestREQ_CMP_005_RobotsTxtIsHonored(t *testing.T) {
	cases := []struct {
		name    string
		robots  http.HandlerFunc
		path    string
		allowed bool
	}{
		{"disallowed for rypsok", robotsText("User-agent: rypsok\nDisallow: /private\n"), "/private/page", false},
		{"allowed for rypsok", robotsText("User-agent: rypsok\nDisallow: /private\n"), "/public", true},
		{"disallowed for *", robotsText("User-agent: *\nDisallow: /\n"), "/page", false},
		{"other agent only", robotsText("User-agent: otherbot\nDisallow: /\n"), "/page", true},
		{"query matched", robotsText("User-agent: *\nDisallow: /*?session=\n"), "/page?session=1", false},
		{"server error", robotsStatus(http.StatusServiceUnavailable), "/page", false},
		{"500", robotsStatus(http.StatusInternalServerError), "/page", false},
		{"not found", robotsStatus(http.StatusNotFound), "/page", true},
		{"forbidden", robotsStatus(http.StatusForbidden), "/page", true},
	}
	for _, c := range cases {
		st := newSite(t, html(pageHTML))
		st.setRobots(c.robots)
		e := newEnv(t, nil, st)
		_, terr := e.fetch(t, st.url("a.example.com", c.path), 3000, 0)
		if c.allowed {
			if terr != nil {
				t.Errorf("%s: %v", c.name, terr)
			}
			continue
		}
		wantError(t, terr, tool.KindDenied, tool.ReasonRobotsTxt)
		for _, seen := range st.seen() {
			if seen != "/robots.txt" {
				t.Errorf("%s: a disallowed page was requested: %s", c.name, seen)
			}
		}
	}
}

func TestREQ_CMP_005_OneRobotsReadPerOrigin(t *testing.T) {
	st := newSite(t, html(pageHTML))
	st.setRobots(robotsText("User-agent: *\nDisallow: /private\n"))
	e := newEnv(t, nil, st)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.fetch(t, st.url("a.example.com", "/page/"+strconv.Itoa(i)), 3000, 0)
		}()
	}
	wg.Wait()
	for i := range 4 {
		e.mustFetch(t, st.url("a.example.com", "/page/"+strconv.Itoa(i)), 3000, 0)
	}
	_, terr := e.fetch(t, st.url("a.example.com", "/private"), 3000, 0)
	wantError(t, terr, tool.KindDenied, tool.ReasonRobotsTxt)
	if n := st.count("/robots.txt"); n != 1 {
		t.Fatalf("robots.txt was read %d times for 13 fetches", n)
	}
	// Another origin (another host name) has its own robots.txt.
	e.mustFetch(t, st.url("b.example.com", "/page"), 3000, 0)
	if n := st.count("/robots.txt"); n != 2 {
		t.Fatalf("robots.txt was read %d times for two origins", n)
	}
}

func TestREQ_CMP_005_CheckCanBeTurnedOff(t *testing.T) {
	st := newSite(t, html(pageHTML))
	st.setRobots(robotsText("User-agent: *\nDisallow: /\n"))
	e := newEnv(t, func(s *Settings) { s.IgnoreRobotsTxt = true }, st)
	e.mustFetch(t, st.url("a.example.com", "/page"), 3000, 0)
	if n := st.count("/robots.txt"); n != 0 {
		t.Fatalf("robots.txt was read %d times", n)
	}
}

func TestREQ_CMP_005_RedirectTargetsAreChecked(t *testing.T) {
	st := newSite(t, redirector(http.StatusFound))
	st.setRobots(robotsText("User-agent: *\nDisallow: /article\n"))
	for _, follow := range []bool{false, true} {
		e := newEnv(t, func(s *Settings) { s.FollowCrossHostRedirects = follow }, st)
		_, terr := e.fetch(t, st.url("a.example.com", "/to?loc=/article"), 3000, 0)
		wantError(t, terr, tool.KindDenied, tool.ReasonRobotsTxt)
		if follow {
			_, terr = e.fetch(t, st.url("a.example.com", "/to?loc="+st.url("b.example.com", "/article")), 3000, 0)
			wantError(t, terr, tool.KindDenied, tool.ReasonRobotsTxt)
		}
	}
	if st.count("/article") != 0 {
		t.Fatal("a disallowed redirect target was requested")
	}
}

// TestREQ_CMP_005_LargeRobotsTxtIsReadInPart: only the first 512 KiB count;
// a rule after them is not seen.
func TestREQ_CMP_005_LargeRobotsTxtIsReadInPart(t *testing.T) {
	st := newSite(t, html(pageHTML))
	filler := strings.Repeat("# a comment line that fills the file\n", (600<<10)/37)
	st.setRobots(robotsText("User-agent: *\nDisallow: /early\n" + filler + "Disallow: /late\n"))
	e := newEnv(t, nil, st)
	_, terr := e.fetch(t, st.url("a.example.com", "/early"), 3000, 0)
	wantError(t, terr, tool.KindDenied, tool.ReasonRobotsTxt)
	e.mustFetch(t, st.url("a.example.com", "/late"), 3000, 0)
}

// TestREQ_CMP_005_UnreachableSiteIsNotCachedAsDisallowed: a robots.txt read
// that fails for a network reason ends the call as unreachable, not as
// robots_txt, and the next call reads again.
func TestREQ_CMP_005_UnreachableSiteIsNotCachedAsDisallowed(t *testing.T) {
	st := newSite(t, html(pageHTML))
	e := newEnv(t, nil, st)
	e.resolver.set("flaky.example.com", "127.0.0.2", "127.0.0.1")
	_, terr := e.fetch(t, st.url("flaky.example.com", "/page"), 3000, 0)
	wantError(t, terr, tool.KindUnavailable, tool.ReasonNetwork)
	e.mustFetch(t, st.url("flaky.example.com", "/page"), 3000, 0)
	if n := st.count("/robots.txt"); n != 1 {
		t.Fatalf("robots.txt was read %d times", n)
	}
}

// TestREQ_CMP_005_RobotsTxtBrokenAfterConnectingDisallows: a robots.txt
// whose connection fails after it was established (reset before the status
// line, a body shorter than its Content-Length) is unreachable: the page
// ends denied robots_txt, is never requested, and the verdict is kept.
func TestREQ_CMP_005_RobotsTxtBrokenAfterConnectingDisallows(t *testing.T) {
	for name, h := range map[string]http.HandlerFunc{
		"reset before the status line": func(w http.ResponseWriter, r *http.Request) { panic(http.ErrAbortHandler) },
		"body shorter than declared": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "100")
			_, _ = w.Write([]byte("User-agent: *\nAllow: /\n"))
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		},
	} {
		t.Run(name, func(t *testing.T) {
			st := newSite(t, html(pageHTML))
			st.setRobots(h)
			e := newEnv(t, nil, st)
			for range 2 {
				_, terr := e.fetch(t, st.url("a.example.com", "/page"), 3000, 0)
				wantError(t, terr, tool.KindDenied, tool.ReasonRobotsTxt)
			}
			if st.count("/page") != 0 || st.count("/robots.txt") != 1 {
				t.Fatalf("page read %d times, robots.txt %d times", st.count("/page"), st.count("/robots.txt"))
			}
		})
	}
}

// TestREQ_CMP_005_ZeroSettingsHonourRobotsTxt: a Settings left zero (but for
// the test's allow rule) is safe: robots.txt is read and obeyed, and a
// credential in the URL is refused.
func TestREQ_CMP_005_ZeroSettingsHonourRobotsTxt(t *testing.T) {
	st := newSite(t, html(pageHTML))
	st.setRobots(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("User-agent: *\nDisallow: /private\n"))
	})
	e := newEnv(t, func(s *Settings) { *s = Settings{Policy: s.Policy} }, st)
	_, terr := e.fetch(t, st.url("a.example.com", "/private/page"), 3000, 0)
	wantError(t, terr, tool.KindDenied, tool.ReasonRobotsTxt)
	if st.count("/private/page") != 0 {
		t.Fatal("the disallowed page was requested")
	}
	_, terr = e.fetch(t, st.url("a.example.com", "/page?key=sk_live_"+strings.Repeat("a1B2", 6)), 3000, 0)
	if terr == nil || terr.Kind != tool.KindDenied {
		t.Fatalf("a credential in the URL: %v, want denied", terr)
	}
}
