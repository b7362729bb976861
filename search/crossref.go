package search

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"rypsok/tool"
)

// The Crossref driver follows its admission record
// (docs/engines/crossref.md): /works?query= in the polite pool (mailto from
// the operator's user_agent_contact), keyless, at most one request a second
// and one at a time unless the provider advertises less (x-rate-limit-limit,
// x-rate-limit-interval, x-concurrency-limit), queries of at most 300
// characters (unknown; chosen), every language, time ranges through
// from-pub-date, cacheable (Crossref claims no rights in the metadata),
// 1 MiB a response.
var crossrefProperties = Properties{
	RatePerMinute: 60, Burst: 1, MaxInFlight: 1, MaxQueryChars: 300,
	TimeRanges: true, Cacheable: true, AttributionRequired: false, ResponseBytes: 1 << 20,
}

const (
	crossrefEndpoint = "https://api.crossref.org/works"
	crossrefSpacing  = time.Second
	crossrefMaxRows  = 20
	// crossrefSelect asks only for the fields the driver reads.
	crossrefSelect = "DOI,URL,title,abstract,published,issued"
	// The bound of an abstract kept before cleaning.
	crossrefMaxAbstract = 16384
)

type crossref struct {
	endpoint *url.URL
	client   *http.Client
	gate     *providerGate
	mailto   string
	now      func() time.Time
}

func newCrossref(cfg EngineConfig, s Settings, d Deps) (*crossref, error) {
	ep := endpointOf(cfg.BaseURL, crossrefEndpoint)
	c, err := engineClient(originOf(ep), s, d)
	if err != nil {
		return nil, err
	}
	mailto := contactEmail(d.UserAgent)
	// Crossref counts per pool and user: one gate per origin and identity.
	g := d.gates.gateFor("crossref "+originOf(ep).String()+" "+mailto, crossrefSpacing, crossrefProperties.MaxInFlight, clockOf(d))
	return &crossref{endpoint: ep, client: c, gate: g, mailto: mailto, now: clockOf(d)}, nil
}

func (c *crossref) Properties() Properties { return crossrefProperties }

func (c *crossref) Search(ctx context.Context, req EngineRequest) ([]RawResult, error) {
	n := req.MaxResults
	if n < 1 {
		n = 10
	}
	if n > crossrefMaxRows {
		n = crossrefMaxRows
	}
	q := "query=" + url.QueryEscape(req.Query) + "&rows=" + strconv.Itoa(n) + "&select=" + url.QueryEscape(crossrefSelect)
	if from := fromDate(req.TimeRange, c.now()); from != "" {
		q += "&filter=" + url.QueryEscape("from-pub-date:"+from)
	}
	if c.mailto != "" {
		q += "&mailto=" + url.QueryEscape(c.mailto)
	}
	u := *c.endpoint
	u.RawQuery = q
	release, gerr := c.gate.enter(ctx)
	if gerr != nil {
		return nil, gerr
	}
	defer release()
	status, h, body, ferr := get(ctx, c.client, u.String(), http.Header{"Accept": {"application/json"}}, crossrefProperties.ResponseBytes)
	if h != nil {
		c.gate.advertise(crossrefLimits(h))
	}
	if ferr != nil {
		return nil, ferr
	}
	switch {
	case status == http.StatusTooManyRequests:
		wait := retryAfter(h, c.now())
		if wait == 0 {
			wait, _ = c.gate.limits()
		}
		return nil, rateLimited(wait)
	case status == http.StatusUnauthorized:
		return nil, failure(tool.ReasonAuthFailure)
	case status == http.StatusForbidden:
		return nil, failure(tool.ReasonBlocked)
	case status != http.StatusOK:
		return nil, failure(tool.ReasonRequestFailure)
	}
	return parseCrossref(body)
}

// crossrefLimits reads the limits Crossref advertises: requests per
// interval (x-rate-limit-limit, x-rate-limit-interval such as "1s") and
// the concurrency (x-concurrency-limit). Values out of a plausible range
// count as not announced.
func crossrefLimits(h http.Header) (limit int, interval time.Duration, concurrency int) {
	if n, err := strconv.Atoi(strings.TrimSpace(h.Get("X-Rate-Limit-Limit"))); err == nil && n >= 1 && n <= 100000 {
		limit = n
	}
	iv := strings.TrimSpace(h.Get("X-Rate-Limit-Interval"))
	if d, err := time.ParseDuration(iv); err == nil && d >= time.Millisecond && d <= 24*time.Hour {
		interval = d
	} else if n, err := strconv.Atoi(iv); err == nil && n >= 1 && n <= 86400 {
		interval = time.Duration(n) * time.Second
	}
	if n, err := strconv.Atoi(strings.TrimSpace(h.Get("X-Concurrency-Limit"))); err == nil && n >= 1 && n <= 1000 {
		concurrency = n
	}
	return limit, interval, concurrency
}

type crossrefAnswer struct {
	Status  string          `json:"status"`
	Message json.RawMessage `json:"message"`
}

type crossrefList struct {
	Items *[]json.RawMessage `json:"items"`
}

type crossrefDate struct {
	// Parts of any kind: a part that is not a number makes the date
	// unknown, never the work unreadable.
	DateParts [][]any `json:"date-parts"`
}

type crossrefItem struct {
	DOI       string        `json:"DOI"`
	Title     []string      `json:"title"`
	Abstract  string        `json:"abstract"`
	Published *crossrefDate `json:"published"`
	Issued    *crossrefDate `json:"issued"`
}

// parseCrossref reads a work-list. An answer of another shape is a
// parse_failure; an item of the wrong shape is skipped, and an answer whose
// every item is malformed is a parse_failure.
func parseCrossref(body []byte) ([]RawResult, error) {
	var a crossrefAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, failure(tool.ReasonParseFailure)
	}
	if a.Status != "" && a.Status != "ok" {
		// "failed": the message is the provider's complaint, never read.
		return nil, failure(tool.ReasonRequestFailure)
	}
	var list crossrefList
	if err := json.Unmarshal(a.Message, &list); err != nil || list.Items == nil {
		return nil, failure(tool.ReasonParseFailure)
	}
	return eachItem(*list.Items, crossrefResult)
}

// crossrefResult is the result of one work: its DOI URL, the first
// non-empty title, the abstract as text and the published or issued date.
func crossrefResult(it crossrefItem) (RawResult, bool) {
	u := doiURL(it.DOI)
	title := ""
	for _, t := range it.Title {
		if t = strings.TrimSpace(t); t != "" {
			title = t
			break
		}
	}
	if u == "" || title == "" {
		return RawResult{}, false
	}
	date := crossrefDay(it.Published)
	if date == "" {
		date = crossrefDay(it.Issued)
	}
	return RawResult{Title: oneLine(title, 4096), URL: u, Snippet: jatsText(it.Abstract), Date: date}, true
}

// crossrefDay is the date of date-parts [[Y, M, D]] when all three are
// given.
func crossrefDay(d *crossrefDate) string {
	if d == nil || len(d.DateParts) == 0 {
		return ""
	}
	var parts []int
	for _, p := range d.DateParts[0] {
		f, ok := p.(float64)
		if !ok || f != float64(int(f)) {
			return ""
		}
		parts = append(parts, int(f))
	}
	return datePart(parts)
}

// jatsText turns a JATS abstract into text: the section titles (such as
// "Abstract") are dropped, every tag becomes a space, white space is
// collapsed. Entities are left for the result boundary to decode once.
func jatsText(s string) string {
	s = cutAt(s, crossrefMaxAbstract)
	var b strings.Builder
	skip := 0 // inside a title element
	for len(s) > 0 {
		lt := strings.IndexByte(s, '<')
		if lt < 0 {
			if skip == 0 {
				b.WriteString(s)
			}
			break
		}
		if skip == 0 {
			b.WriteString(s[:lt])
		}
		gt := strings.IndexByte(s[lt:], '>')
		if gt < 0 {
			break // an unfinished tag: the rest is not text
		}
		tag := strings.ToLower(s[lt+1 : lt+gt])
		s = s[lt+gt+1:]
		name := strings.TrimPrefix(tag, "/")
		if i := strings.IndexAny(name, " \t\r\n/"); i >= 0 {
			name = name[:i]
		}
		name = strings.TrimPrefix(name, "jats:")
		switch {
		case name == "title" && !strings.HasPrefix(tag, "/"):
			skip++
		case name == "title" && skip > 0:
			skip--
		}
		b.WriteByte(' ')
	}
	return oneLine(b.String(), crossrefMaxAbstract)
}
