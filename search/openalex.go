package search

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"rypsok/secrets"
	"rypsok/tool"
)

// The OpenAlex driver follows its admission record
// (docs/engines/openalex.md): /works?search= with the operator's API key
// (required since 2026-02-13; inactive without one, like Brave), 10 requests
// a minute with a burst of 5 and two at a time (the provider allows 100 a
// second; the daily budget of about 1,000 searches a key is what the rate
// protects), queries of at most 300 characters (unknown; chosen), every
// language, time ranges through from_publication_date, cacheable (the data
// is CC0), 1 MiB a response.
var openAlexProperties = Properties{
	RatePerMinute: 10, Burst: 5, MaxInFlight: 2, MaxQueryChars: 300,
	TimeRanges: true, Cacheable: true, AttributionRequired: false, ResponseBytes: 1 << 20,
}

const (
	openAlexEndpoint = "https://api.openalex.org/works"
	// openAlexSpacing is the provider's 100 requests a second per key.
	openAlexSpacing = 10 * time.Millisecond
	openAlexMaxRows = 25
	openAlexSelect  = "id,doi,title,display_name,publication_date,primary_location,abstract_inverted_index"
	// The bounds of rebuilding an abstract: the words read, the positions
	// read in all, and the highest position kept.
	openAlexMaxWords     = 2000
	openAlexMaxPositions = 4000
)

type openAlex struct {
	endpoint *url.URL
	client   *http.Client
	key      secrets.Secret
	gate     *providerGate
	now      func() time.Time
}

func newOpenAlex(cfg EngineConfig, s Settings, d Deps) (*openAlex, error) {
	ep := endpointOf(cfg.BaseURL, openAlexEndpoint)
	c, err := engineClient(originOf(ep), s, d)
	if err != nil {
		return nil, err
	}
	// OpenAlex counts per key: the engines of one key share the provider's
	// 100 requests a second and the record's concurrency. The gate's name
	// holds a digest of the key, never the key.
	sum := sha256.Sum256([]byte(cfg.Key.Reveal()))
	g := d.gates.gateFor("openalex "+originOf(ep).String()+" "+hex.EncodeToString(sum[:8]), openAlexSpacing, openAlexProperties.MaxInFlight, clockOf(d))
	return &openAlex{endpoint: ep, client: c, key: cfg.Key, gate: g, now: clockOf(d)}, nil
}

func (o *openAlex) Properties() Properties { return openAlexProperties }

func (o *openAlex) Search(ctx context.Context, req EngineRequest) ([]RawResult, error) {
	n := req.MaxResults
	if n < 1 {
		n = 10
	}
	if n > openAlexMaxRows {
		n = openAlexMaxRows
	}
	q := "search=" + url.QueryEscape(req.Query) + "&per_page=" + strconv.Itoa(n) + "&select=" + url.QueryEscape(openAlexSelect)
	if from := fromDate(req.TimeRange, o.now()); from != "" {
		q += "&filter=" + url.QueryEscape("from_publication_date:"+from)
	}
	// The documented way to send the key is the api_key parameter; the URL
	// is never logged and never leaves the driver.
	q += "&api_key=" + url.QueryEscape(o.key.Reveal())
	u := *o.endpoint
	u.RawQuery = q
	release, gerr := o.gate.enter(ctx)
	if gerr != nil {
		return nil, gerr
	}
	defer release()
	status, h, body, ferr := get(ctx, o.client, u.String(), http.Header{"Accept": {"application/json"}}, openAlexProperties.ResponseBytes)
	if ferr != nil {
		return nil, ferr
	}
	switch {
	case status == http.StatusTooManyRequests || status == http.StatusForbidden:
		// 403 is OpenAlex's documented answer to too many requests; 429
		// means the day's budget is spent.
		return nil, rateLimited(retryAfter(h, o.now()))
	case status == http.StatusUnauthorized:
		return nil, failure(tool.ReasonAuthFailure)
	case status != http.StatusOK:
		return nil, failure(tool.ReasonRequestFailure)
	}
	rs, err := parseOpenAlex(body)
	if err != nil {
		return nil, err
	}
	return withoutKey(rs, o.key.Reveal()), nil
}

// withoutKey removes the key from what a provider echoed into results: a
// result whose URL carries it is dropped, and it is cut out of titles and
// snippets, so that the credential never reaches the caller.
func withoutKey(rs []RawResult, key string) []RawResult {
	if key == "" {
		return rs
	}
	out := rs[:0]
	for _, r := range rs {
		if strings.Contains(r.URL, key) || strings.Contains(r.URL, url.QueryEscape(key)) {
			continue
		}
		r.Title = strings.ReplaceAll(r.Title, key, "")
		r.Snippet = strings.ReplaceAll(r.Snippet, key, "")
		out = append(out, r)
	}
	return out
}

type openAlexAnswer struct {
	Results *[]json.RawMessage `json:"results"`
}

type openAlexWork struct {
	DOI             string `json:"doi"`
	Title           string `json:"title"`
	DisplayName     string `json:"display_name"`
	PublicationDate string `json:"publication_date"`
	PrimaryLocation *struct {
		LandingPageURL string `json:"landing_page_url"`
	} `json:"primary_location"`
	Abstract map[string][]int `json:"abstract_inverted_index"`
}

// parseOpenAlex reads a list of works. An answer of another shape is a
// parse_failure; a work of the wrong shape is skipped, and an answer whose
// every work is malformed is a parse_failure.
func parseOpenAlex(body []byte) ([]RawResult, error) {
	var a openAlexAnswer
	if err := json.Unmarshal(body, &a); err != nil || a.Results == nil {
		return nil, failure(tool.ReasonParseFailure)
	}
	return eachItem(*a.Results, openAlexResult)
}

// openAlexResult is the result of one work: its title (or display name),
// its http(s) landing page or else its DOI URL, the rebuilt abstract and
// the publication date.
func openAlexResult(w openAlexWork) (RawResult, bool) {
	title := w.Title
	if strings.TrimSpace(title) == "" {
		title = w.DisplayName
	}
	u := ""
	if w.PrimaryLocation != nil {
		u = httpURL(w.PrimaryLocation.LandingPageURL)
	}
	if u == "" {
		u = doiURL(w.DOI)
	}
	if title = oneLine(title, 4096); title == "" || u == "" {
		return RawResult{}, false
	}
	date := ""
	if d := w.PublicationDate; len(d) == 10 {
		date = d
	}
	return RawResult{Title: title, URL: u, Snippet: invertedAbstract(w.Abstract), Date: date}, true
}

// httpURL is s when it is an absolute http(s) URL, else "".
func httpURL(s string) string {
	s = strings.TrimSpace(s)
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return s
}

// invertedAbstract rebuilds an abstract from OpenAlex's inverted index
// (word → positions), reading at most openAlexMaxWords words and
// openAlexMaxPositions positions, and keeping positions below
// openAlexMaxPositions: a hostile index costs a bounded amount of work and
// memory, whatever its numbers.
func invertedAbstract(idx map[string][]int) string {
	if len(idx) == 0 {
		return ""
	}
	var slots [openAlexMaxPositions]string
	// In the words' order, so that a hostile index (two words at one
	// position, more than the bounds) gives one answer every time.
	keys := make([]string, 0, len(idx))
	for w := range idx {
		keys = append(keys, w)
	}
	sort.Strings(keys)
	if len(keys) > openAlexMaxWords {
		keys = keys[:openAlexMaxWords]
	}
	high, read := -1, 0
	for _, w := range keys {
		ps := idx[w]
		for _, p := range ps {
			if read++; read > openAlexMaxPositions {
				break
			}
			if p >= 0 && p < openAlexMaxPositions && slots[p] == "" {
				slots[p] = w
				if p > high {
					high = p
				}
			}
		}
		if read > openAlexMaxPositions {
			break
		}
	}
	var b strings.Builder
	for _, w := range slots[:high+1] {
		if w != "" {
			b.WriteString(w)
			b.WriteByte(' ')
		}
	}
	return oneLine(b.String(), 4096)
}
