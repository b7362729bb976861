package search

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"rypsok/tool"
)

// The Wikipedia driver follows its admission record (book chapter 18): the
// Action API's list=search, keyless, 100 requests per minute with a burst
// of 10, one request at a time, queries of at most 250 characters, every
// language edition through its subdomain, no time range, cacheable, 1 MiB a
// response.
var wikipediaProperties = Properties{
	RatePerMinute: 100, Burst: 10, MaxInFlight: 1, MaxQueryChars: 250,
	TimeRanges: false, Cacheable: true, AttributionRequired: false, ResponseBytes: 1 << 20,
}

type wikipedia struct {
	base    *url.URL // a private MediaWiki mirror's api.php; nil for the public API
	client  func(origin *url.URL) (*http.Client, error)
	mu      sync.Mutex
	clients map[string]*http.Client // per origin: one per language edition
	now     func() time.Time
}

func newWikipedia(cfg EngineConfig, s Settings, d Deps) (*wikipedia, error) {
	w := &wikipedia{base: cfg.BaseURL, clients: map[string]*http.Client{}, now: clockOf(d)}
	w.client = func(origin *url.URL) (*http.Client, error) { return engineClient(origin, s, d) }
	return w, nil
}

func (w *wikipedia) Properties() Properties { return wikipediaProperties }

// endpoint is the api.php of the language edition, or the mirror's.
func (w *wikipedia) endpoint(lang string) *url.URL {
	if w.base != nil {
		u := *w.base
		return &u
	}
	sub := primarySubtag(lang)
	if !validSubdomain(sub) {
		sub = "en"
	}
	return &url.URL{Scheme: "https", Host: sub + ".wikipedia.org", Path: "/w/api.php"}
}

func validSubdomain(s string) bool {
	if len(s) < 2 || len(s) > 12 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r == '-') {
			return false
		}
	}
	return true
}

func (w *wikipedia) clientFor(u *url.URL) (*http.Client, error) {
	origin := &url.URL{Scheme: u.Scheme, Host: u.Host}
	w.mu.Lock()
	defer w.mu.Unlock()
	if c, ok := w.clients[origin.String()]; ok {
		return c, nil
	}
	c, err := w.client(origin)
	if err != nil {
		return nil, err
	}
	w.clients[origin.String()] = c
	return c, nil
}

type wikipediaAnswer struct {
	Error *struct {
		Code string `json:"code"`
	} `json:"error"`
	Query *struct {
		Search []struct {
			Title     string `json:"title"`
			Snippet   string `json:"snippet"`
			Timestamp string `json:"timestamp"`
		} `json:"search"`
	} `json:"query"`
}

func (w *wikipedia) Search(ctx context.Context, req EngineRequest) ([]RawResult, error) {
	ep := w.endpoint(req.Language)
	c, err := w.clientFor(ep)
	if err != nil {
		return nil, failure(tool.ReasonRequestFailure)
	}
	n := req.MaxResults
	if n < 1 {
		n = 10
	}
	// The parameters of the admission record, in a fixed order.
	q := "action=query&list=search&srsearch=" + url.QueryEscape(req.Query) +
		"&srlimit=" + strconv.Itoa(n) + "&srprop=snippet%7Ctimestamp&format=json"
	ep.RawQuery = q
	status, h, body, ferr := get(ctx, c, ep.String(), http.Header{"Accept": {"application/json"}}, wikipediaProperties.ResponseBytes)
	if ferr != nil {
		return nil, ferr
	}
	switch {
	case status == http.StatusTooManyRequests:
		return nil, rateLimited(retryAfter(h, w.now()))
	case status == http.StatusForbidden:
		return nil, failure(tool.ReasonBlocked)
	case status != http.StatusOK:
		return nil, failure(tool.ReasonRequestFailure)
	}
	return w.parse(body, ep)
}

// parse reads the Action API's answer: the search list, or an error object
// (request_failure), or anything else (parse_failure).
func (w *wikipedia) parse(body []byte, ep *url.URL) ([]RawResult, error) {
	var a wikipediaAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, failure(tool.ReasonParseFailure)
	}
	if a.Error != nil {
		return nil, failure(tool.ReasonRequestFailure)
	}
	if a.Query == nil {
		return nil, failure(tool.ReasonParseFailure)
	}
	out := make([]RawResult, 0, len(a.Query.Search))
	for _, r := range a.Query.Search {
		if r.Title == "" {
			continue
		}
		date := ""
		if len(r.Timestamp) >= 10 {
			date = r.Timestamp[:10]
		}
		out = append(out, RawResult{
			Title:        r.Title,
			TitleDecoded: true, // page titles are plain text in the API's JSON
			Snippet:      r.Snippet,
			URL:          w.articleURL(ep, r.Title),
			Date:         date,
		})
	}
	return out, nil
}

// articleURL is https://<lang>.wikipedia.org/wiki/<Title_with_underscores>,
// percent-encoded as a path (the mirror's host for a base_url).
func (w *wikipedia) articleURL(ep *url.URL, title string) string {
	return ep.Scheme + "://" + ep.Host + "/wiki/" + escapeTitle(strings.ReplaceAll(title, " ", "_"))
}

// escapeTitle percent-encodes everything a path segment may not carry as is:
// unreserved characters and the sub-delimiters, ':' and '@' stay.
func escapeTitle(t string) string {
	const hexDigits = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(t); i++ {
		c := t[i]
		if unreserved(c) || strings.IndexByte("!$&'()*+,;=:@", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hexDigits[c>>4])
		b.WriteByte(hexDigits[c&15])
	}
	return b.String()
}
