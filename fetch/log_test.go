package fetch

import (
	"net/http"
	"strings"
	"testing"

	"rypsok/tool"
)

// TestREQ_PRIV_004_NoPathQueryOrContentInLogs runs fetches that end in
// every way and checks that the log holds no path, query, content, title
// or refused host, and the host of a fetch only after it passed the policy.
func TestREQ_PRIV_004_NoPathQueryOrContentInLogs(t *testing.T) {
	const (
		pathMarker    = "secret-path-xyz"
		queryMarker   = "private-query-abc"
		contentMarker = "CONTENT-MARKER-123"
		titleMarker   = "TITLE-MARKER-456"
	)
	page := "<html><head><title>" + titleMarker + "</title></head><body><article><p>" + contentMarker +
		" is in a paragraph long enough to be the main content of this page.</p></article></body></html>"
	st := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/missing"):
			http.Error(w, contentMarker, http.StatusNotFound)
		case strings.HasSuffix(r.URL.Path, "/away"):
			http.Redirect(w, r, "https://10.0.0.1/"+pathMarker, http.StatusFound)
		default:
			html(page)(w, r)
		}
	})
	e := newEnv(t, nil, st)
	e.resolver.set("internal-name.example.com", "10.1.2.3")
	q := "?q=" + queryMarker
	e.mustFetch(t, st.url("a.example.com", "/"+pathMarker+q), 3000, 0)
	e.fetch(t, st.url("a.example.com", "/"+pathMarker+"/missing"+q), 3000, 0)
	e.fetch(t, st.url("a.example.com", "/"+pathMarker+"/away"+q), 3000, 0)
	e.fetch(t, st.url("internal-name.example.com", "/"+pathMarker+q), 3000, 0)
	e.fetch(t, "https://192.168.7.7/"+pathMarker+q, 3000, 0)
	e.fetch(t, "https://gone.example.org/"+pathMarker+q, 3000, 0)

	logs := e.logs.String()
	for _, s := range []string{pathMarker, queryMarker, contentMarker, titleMarker, "internal-name", "10.1.2.3", "10.0.0.1", "192.168.7.7", "gone.example.org"} {
		if strings.Contains(logs, s) {
			t.Errorf("the log holds %q", s)
		}
	}
	fetched := e.logs.events(t, "fetched")
	if len(fetched) != 2 {
		t.Fatalf("fetched lines %v", fetched)
	}
	for _, f := range fetched {
		if f["host"] != "a.example.com" || f["latency_ms"] == nil || f["bytes"] == nil || f["status"] == nil {
			t.Errorf("fetched line %v", f)
		}
	}
	if fetched[0]["media"] != "html" || fetched[0]["status"] != float64(200) || fetched[1]["status"] != float64(404) {
		t.Errorf("fetched lines %v", fetched)
	}
	refused := e.logs.events(t, "refused")
	if len(refused) != 3 {
		t.Fatalf("refused lines %v", refused)
	}
	for _, r := range refused {
		if r["host"] != nil || r["reason"] != string(tool.ReasonEgress) || r["class"] != "private" {
			t.Errorf("refused line %v", r)
		}
	}
}
