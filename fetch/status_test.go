package fetch

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"rypsok/tool"
)

const bodyMarker = "BODY-OF-AN-ERROR-PAGE"

func TestREQ_FETCH_011_ErrorStatusesAreUnavailable(t *testing.T) {
	i64 := func(v int64) *int64 { return &v }
	cases := []struct {
		status     int
		retryAfter string
		wantRetry  *int64
		willHelp   bool
	}{
		{404, "", nil, false},
		{403, "120", nil, false},
		{410, "", nil, false},
		{400, "", nil, false},
		{408, "5", i64(5000), true},
		{425, "", nil, true},
		{429, "30", i64(30000), true},
		{500, "", nil, true},
		{503, "120", i64(120000), true},
		{503, "3600", i64(3600000), true},
		{503, "99999", nil, true},
		{503, "3601", nil, true},
		{503, "-1", nil, true},
		{503, "1.5", nil, true},
		{503, "Wed, 21 Oct 2026 07:28:00 GMT", nil, true},
		{503, "0", nil, true},
		{599, "", nil, true},
	}
	st := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if ra := q.Get("retry_after"); ra != "" {
			w.Header().Set("Retry-After", ra)
		}
		status, _ := strconv.Atoi(q.Get("status"))
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(status)
		_, _ = w.Write([]byte("<p>" + bodyMarker + "</p>"))
	})
	for _, c := range cases {
		e := newEnv(t, nil, st)
		q := url.Values{"status": {strconv.Itoa(c.status)}, "retry_after": {c.retryAfter}}
		_, terr := e.fetch(t, st.url("a.example.com", "/page?"+q.Encode()), 3000, 0)
		wantError(t, terr, tool.KindUnavailable, tool.ReasonHTTPStatus)
		if terr.Detail.Status != c.status {
			t.Errorf("%d: status %d", c.status, terr.Detail.Status)
		}
		if (terr.Detail.RetryAfterMs == nil) != (c.wantRetry == nil) || c.wantRetry != nil && *terr.Detail.RetryAfterMs != *c.wantRetry {
			t.Errorf("%d Retry-After %q: retry_after_ms %v, want %v", c.status, c.retryAfter, terr.Detail.RetryAfterMs, c.wantRetry)
		}
		if c.willHelp != strings.HasSuffix(terr.Message, "retry later") || !c.willHelp && !strings.Contains(terr.Message, "will not help") {
			t.Errorf("%d: message %q", c.status, terr.Message)
		}
		if strings.Contains(errorJSON(t, terr), bodyMarker) || strings.Contains(e.logs.String(), bodyMarker) {
			t.Errorf("%d: the body reached the answer or the log", c.status)
		}
		fetched := e.logs.events(t, "fetched")
		if len(fetched) != 1 || fetched[0]["status"] != float64(c.status) {
			t.Errorf("%d: fetched log lines %v", c.status, fetched)
		}
	}
}
