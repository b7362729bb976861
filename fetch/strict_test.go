package fetch

import (
	"strconv"
	"sync"
	"testing"

	"rypsok/egress"
	"rypsok/tool"
)

func TestREQ_SEC_021_StrictMode(t *testing.T) {
	st := newSite(t, html(pageHTML))
	e := newEnv(t, func(s *Settings) {
		s.StrictMode = true
		s.Policy.Allow = append(s.Policy.Allow, mustRule(t, "docs.example.com"))
	}, st)
	known := st.url("a.example.com", "/known")

	_, terr := e.fetch(t, known, 3000, 0)
	wantError(t, terr, tool.KindDenied, tool.ReasonStrictMode)
	st.mustBeUntouched(t)

	e.svc.Remember(known)
	e.mustFetch(t, known, 3000, 0)
	// Exact strings but for the host: another path, query or fragment is
	// not known; the same host written in another spelling is the same
	// URL (egress's canonical form), so it neither fails nor needs a
	// second entry.
	for _, other := range []string{known + "/", known + "?", known + "#part", st.url("b.example.com", "/known")} {
		_, terr := e.fetch(t, other, 3000, 0)
		wantError(t, terr, tool.KindDenied, tool.ReasonStrictMode)
	}
	e.mustFetch(t, st.url("A.Example.COM.", "/known"), 3000, 0)
	// A host an allow rule names passes without being remembered.
	e.mustFetch(t, st.url("docs.example.com", "/any/page"), 3000, 0)
	// The strict-mode refusal comes before the network: only the three
	// admitted fetches reached the site (with one robots.txt read for each
	// of the two origins).
	if got := len(st.seen()); got != 5 {
		t.Fatalf("the site saw %v", st.seen())
	}
}

func TestREQ_SEC_021_RememberedURLsAreBounded(t *testing.T) {
	st := newSite(t, html(pageHTML))
	e := newEnv(t, func(s *Settings) { s.StrictMode = true; s.StrictModeURLs = 3 }, st)
	urls := make([]string, 5)
	for i := range urls {
		urls[i] = st.url("a.example.com", "/p"+strconv.Itoa(i))
		e.svc.Remember(urls[i])
	}
	if n := e.svc.strict.len(); n != 3 {
		t.Fatalf("%d URLs kept, want 3", n)
	}
	for i, u := range urls {
		_, terr := e.fetch(t, u, 3000, 0)
		if evicted := i < 2; evicted != (terr != nil) {
			t.Errorf("url %d: evicted %v, error %v", i, evicted, terr)
		}
	}
	// Remembering again makes a URL the newest.
	e.svc.Remember(urls[2])
	e.svc.Remember(urls[0])
	if !e.svc.strict.has(urls[2]) || e.svc.strict.has(urls[3]) {
		t.Fatal("the oldest was not evicted first")
	}
}

func TestREQ_SEC_021_NothingKeptOutsideStrictMode(t *testing.T) {
	e := newEnv(t, nil)
	e.svc.Remember("https://example.com/")
	if e.svc.strict.len() != 0 {
		t.Fatal("a URL was kept outside strict mode")
	}
}

func TestREQ_SEC_021_RememberIsSafeForConcurrentUse(t *testing.T) {
	set := newURLSet(50)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				u := "https://example.com/" + strconv.Itoa(g) + "/" + strconv.Itoa(i)
				set.add(u)
				set.has(u)
			}
		}()
	}
	wg.Wait()
	if set.len() != 50 {
		t.Fatalf("%d entries, want 50", set.len())
	}
	set.add("https://example.com/" + string(make([]byte, tool.MaxURLChars)))
	if set.len() != 50 || set.has("") {
		t.Fatal("an unusable URL was kept")
	}
}

var _ = egress.Policy{}
