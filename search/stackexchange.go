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

	"rypsok/secrets"
	"rypsok/tool"
)

// The Stack Exchange driver follows its admission record
// (docs/engines/stackexchange.md): /2.3/search/excerpts on one site, an
// optional key in the key parameter. The provider counts a daily quota per
// address (300 keyless, 10,000 with a key): configured at 290 and 9,990 a
// day with a burst of 10, so that no 24 hours exceed the quota; two at a
// time; 250 characters; every language (the site's own); every time range
// (fromdate); not cacheable and attributed, the record's conservative
// reading of the content licence; 1 MiB a response.
var (
	stackExchangeProperties = Properties{
		RatePerDay: 290, Burst: 10, MaxInFlight: 2, MaxQueryChars: 250,
		TimeRanges: true, Cacheable: false, AttributionRequired: true, ResponseBytes: 1 << 20,
	}
	stackExchangeKeyedProperties = Properties{
		RatePerDay: 9990, Burst: 10, MaxInFlight: 2, MaxQueryChars: 250,
		TimeRanges: true, Cacheable: false, AttributionRequired: true, ResponseBytes: 1 << 20,
	}
)

const (
	stackExchangeOrigin = "https://api.stackexchange.com"
	// defaultStackExchangeSite is the site asked when engines.<id>.site is
	// not given.
	defaultStackExchangeSite = "stackoverflow"
	// maxBackoff bounds the provider's backoff field.
	maxBackoff = 10 * time.Minute
)

type stackExchange struct {
	key      secrets.Secret
	site     string
	siteHost string // where the questions' pages are
	endpoint string
	origin   *url.URL
	client   *http.Client
	now      func() time.Time

	mu    sync.Mutex
	ready time.Time // the provider's backoff: no request before then
}

func newStackExchange(cfg EngineConfig, s Settings, d Deps) (*stackExchange, error) {
	base, err := apiBase(cfg, stackExchangeOrigin)
	if err != nil {
		return nil, err
	}
	c, err := engineClient(originOf(base), s, d)
	if err != nil {
		return nil, err
	}
	site := cfg.Site
	if site == "" {
		site = defaultStackExchangeSite
	}
	return &stackExchange{
		key: cfg.Key, site: site, siteHost: stackExchangeSiteHost(site), endpoint: base.String() + "/2.3/search/excerpts",
		origin: originOf(base), client: c, now: clockOf(d),
	}, nil
}

// stackExchangeSiteHost is the host of a site's pages: a domain given as
// the site is itself; the network's sites with a domain of their own are
// <site>.com; the others are <site>.stackexchange.com.
func stackExchangeSiteHost(site string) string {
	switch {
	case strings.Contains(site, "."):
		return site
	case site == "stackoverflow" || site == "superuser" || site == "serverfault" || site == "askubuntu" || site == "stackapps":
		return site + ".com"
	case site == "mathoverflow":
		return "mathoverflow.net"
	}
	return site + ".stackexchange.com"
}

// ValidStackExchangeSite: 1 to 64 of [a-z0-9.-], not starting or ending
// with a dot or a hyphen.
func ValidStackExchangeSite(s string) bool {
	if s == "" || len(s) > 64 || strings.Trim(s, ".-") != s {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

func (x *stackExchange) Properties() Properties {
	if x.key.IsZero() {
		return stackExchangeProperties
	}
	return stackExchangeKeyedProperties
}

func (x *stackExchange) limitKey() string { return limitKeyOf(x.origin, x.key) }

func (x *stackExchange) readyAt() time.Time {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.ready
}

// holdUntil records the provider's backoff for the next request.
func (x *stackExchange) holdUntil(t time.Time) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if t.After(x.ready) {
		x.ready = t
	}
}

type stackExchangeAnswer struct {
	Items *[]struct {
		ItemType     string `json:"item_type"`
		QuestionID   int64  `json:"question_id"`
		Title        string `json:"title"`
		Excerpt      string `json:"excerpt"`
		CreationDate int64  `json:"creation_date"`
	} `json:"items"`
	Backoff      int    `json:"backoff"`
	ErrorID      int    `json:"error_id"`
	ErrorName    string `json:"error_name"`
	ErrorMessage string `json:"error_message"`
}

func (x *stackExchange) Search(ctx context.Context, req EngineRequest) ([]RawResult, error) {
	n := resultCount(req.MaxResults, 100)
	q := "order=desc&sort=relevance&q=" + url.QueryEscape(req.Query) + "&site=" + url.QueryEscape(x.site) +
		"&pagesize=" + strconv.Itoa(n)
	if from, ok := periodStart(req.TimeRange, x.now()); ok {
		q += "&fromdate=" + strconv.FormatInt(from.Unix(), 10)
	}
	if !x.key.IsZero() {
		q += "&key=" + url.QueryEscape(x.key.Reveal())
	}
	status, h, body, ferr := get(ctx, x.client, x.endpoint+"?"+q, http.Header{"Accept": {"application/json"}}, x.Properties().ResponseBytes)
	if ferr != nil {
		return nil, ferr
	}
	rs, backoff, ee := parseStackExchange(body, status, x.siteHost)
	if backoff > 0 {
		x.holdUntil(x.now().Add(backoff))
	}
	if ee != nil {
		if ee.Class == tool.ReasonRateLimited && ee.RetryAfter == 0 {
			ee.RetryAfter = retryAfter(h, x.now())
		}
		return nil, ee
	}
	return rs, nil
}

// parseStackExchange reads an answer of any status: the items of a 200,
// the error of the wrapper (every error is a 400 with error_id), and the
// backoff the provider asked for in either.
func parseStackExchange(body []byte, status int, siteHost string) ([]RawResult, time.Duration, *EngineError) {
	var a stackExchangeAnswer
	err := json.Unmarshal(body, &a)
	var backoff time.Duration
	if err == nil && a.Backoff > 0 {
		backoff = min(time.Duration(a.Backoff)*time.Second, maxBackoff)
	}
	switch {
	case status == http.StatusTooManyRequests:
		return nil, backoff, rateLimited(0)
	case err != nil && status == http.StatusOK:
		return nil, backoff, failure(tool.ReasonParseFailure)
	case err != nil:
		return nil, backoff, failure(tool.ReasonRequestFailure)
	case a.ErrorID != 0 || status != http.StatusOK:
		return nil, backoff, stackExchangeError(a.ErrorID, a.ErrorName, a.ErrorMessage)
	case a.Items == nil:
		return nil, backoff, failure(tool.ReasonParseFailure)
	}
	out := make([]RawResult, 0, len(*a.Items))
	seen := map[int64]bool{}
	for _, it := range *a.Items {
		// An answer's item carries its question's id and title: the result
		// is the question's page, once per question.
		if it.QuestionID <= 0 || seen[it.QuestionID] || it.Title == "" {
			continue
		}
		seen[it.QuestionID] = true
		date := ""
		if it.ItemType == "question" {
			date = unixDate(it.CreationDate) // an answer's date is not the question's
		}
		out = append(out, RawResult{
			Title:   it.Title, // HTML-encoded by the API: cleaned as markup
			URL:     "https://" + siteHost + "/questions/" + strconv.FormatInt(it.QuestionID, 10),
			Snippet: it.Excerpt, // carries the highlight markup: cleaned as markup
			Date:    date,
		})
	}
	return out, backoff, nil
}

// stackExchangeError classifies the wrapper's error_id (the API's error
// handling page): the throttle violation is a rate limit whose wait is
// stated only in the message; key and token errors are authentication
// failures; the rest are request failures.
func stackExchangeError(id int, name, message string) *EngineError {
	switch {
	case id == 502 || name == "throttle_violation":
		return rateLimited(throttleWait(message))
	case id == 401 || id == 402 || id == 403 || id == 405 || id == 406:
		return failure(tool.ReasonAuthFailure)
	}
	return failure(tool.ReasonRequestFailure)
}

// throttleWait reads the wait of a throttle violation's message ("... more
// requests available in 3600 seconds"): the first number followed by
// "second", bounded by maxRetryAfter; 0 when there is none.
func throttleWait(message string) time.Duration {
	if len(message) > 512 {
		message = message[:512]
	}
	fields := strings.Fields(message)
	for i, f := range fields {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil || n <= 0 || i+1 >= len(fields) || !strings.HasPrefix(fields[i+1], "second") {
			continue
		}
		if n > int64(maxRetryAfter/time.Second) {
			return maxRetryAfter
		}
		return time.Duration(n) * time.Second
	}
	return 0
}
