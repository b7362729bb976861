package search

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"rypsok/secrets"
	"rypsok/tool"
)

// The Brave driver follows its admission record (book chapter 18): the web
// or news endpoint with X-Subscription-Token, 60 requests per minute, two at
// a time, 600 characters and 75 words, every language, every time range,
// never cacheable, 1 MiB a response.
var braveProperties = Properties{
	RatePerMinute: 60, Burst: 1, MaxInFlight: 2, MaxQueryChars: 600, MaxQueryWords: 75,
	TimeRanges: true, Cacheable: false, AttributionRequired: false, ResponseBytes: 1 << 20,
}

const braveOrigin = "https://api.search.brave.com"

type brave struct {
	key      secrets.Secret
	endpoint string // the full URL of the web or news endpoint
	client   *http.Client
	news     bool
	now      func() time.Time
}

func newBrave(cfg EngineConfig, s Settings, d Deps) (*brave, error) {
	return newBraveAt(cfg, s, d, braveOrigin)
}

// newBraveAt builds the driver against origin (tests pass a loopback one).
func newBraveAt(cfg EngineConfig, s Settings, d Deps, origin string) (*brave, error) {
	o, err := url.Parse(origin)
	if err != nil {
		return nil, err
	}
	c, err := engineClient(o, s, d)
	if err != nil {
		return nil, err
	}
	b := &brave{key: cfg.Key, client: c, now: clockOf(d), news: cfg.Endpoint == "news"}
	b.endpoint = origin + "/res/v1/web/search"
	if b.news {
		b.endpoint = origin + "/res/v1/news/search"
	}
	return b, nil
}

func (b *brave) Properties() Properties { return braveProperties }

// braveLanguage maps a language tag to Brave's search_lang codes, which
// mostly follow the primary subtag with a few of their own.
func braveLanguage(tag string) string {
	t := strings.ToLower(tag)
	switch {
	case t == "ja" || strings.HasPrefix(t, "ja-"):
		return "jp"
	case t == "zh-hant" || t == "zh-tw" || t == "zh-hk":
		return "zh-hant"
	case t == "zh" || strings.HasPrefix(t, "zh-"):
		return "zh-hans"
	case t == "pt-br":
		return "pt-br"
	case t == "pt" || strings.HasPrefix(t, "pt-"):
		return "pt-pt"
	case t == "en-gb":
		return "en-gb"
	case t == "no" || t == "nn" || strings.HasPrefix(t, "nb"):
		return "nb"
	}
	return primarySubtag(t)
}

var braveFreshness = map[tool.TimeRange]string{
	tool.TimeRangeDay: "pd", tool.TimeRangeWeek: "pw", tool.TimeRangeMonth: "pm", tool.TimeRangeYear: "py",
}

type braveResult struct {
	Title       string `json:"title"`
	URL         string `json:"url"`
	Description string `json:"description"`
	PageAge     string `json:"page_age"`
}

type braveAnswer struct {
	Web *struct {
		Results []braveResult `json:"results"`
	} `json:"web"`
	Results *[]braveResult `json:"results"`
	Type    string         `json:"type"`
}

func (b *brave) Search(ctx context.Context, req EngineRequest) ([]RawResult, error) {
	n := req.MaxResults
	if n < 1 || n > 20 {
		n = 20
	}
	q := "q=" + url.QueryEscape(req.Query) + "&count=" + strconv.Itoa(n)
	if req.Language != "" {
		q += "&search_lang=" + url.QueryEscape(braveLanguage(req.Language))
	}
	if req.Region != "" {
		q += "&country=" + url.QueryEscape(req.Region)
	}
	if req.SafeSearch != "" {
		q += "&safesearch=" + url.QueryEscape(req.SafeSearch)
	}
	if f, ok := braveFreshness[req.TimeRange]; ok {
		q += "&freshness=" + f
	}
	h := http.Header{"Accept": {"application/json"}, "X-Subscription-Token": {b.key.Reveal()}}
	status, rh, body, ferr := get(ctx, b.client, b.endpoint+"?"+q, h, braveProperties.ResponseBytes)
	if ferr != nil {
		return nil, ferr
	}
	switch {
	case status == http.StatusTooManyRequests:
		wait := retryAfter(rh, b.now())
		if wait == 0 {
			wait = rateLimitReset(rh.Get("X-RateLimit-Reset"))
		}
		return nil, rateLimited(wait)
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return nil, failure(tool.ReasonAuthFailure)
	case status != http.StatusOK:
		return nil, failure(tool.ReasonRequestFailure)
	}
	return parseBrave(body, b.news)
}

// parseBrave reads an answer of the web or the news endpoint; an answer of
// another shape is a parse_failure.
func parseBrave(body []byte, news bool) ([]RawResult, error) {
	var a braveAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, failure(tool.ReasonParseFailure)
	}
	var rs []braveResult
	switch {
	case news && a.Results != nil:
		rs = *a.Results
	case !news && a.Web != nil:
		rs = a.Web.Results
	case !news && a.Type == "search":
		rs = nil // an answer without web results: nothing found
	case news && a.Type == "news":
		rs = nil
	default:
		return nil, failure(tool.ReasonParseFailure)
	}
	out := make([]RawResult, 0, len(rs))
	for _, r := range rs {
		if r.URL == "" {
			continue
		}
		date := ""
		if len(r.PageAge) >= 10 {
			date = r.PageAge[:10]
		}
		out = append(out, RawResult{Title: r.Title, URL: r.URL, Snippet: r.Description, Date: date})
	}
	return out, nil
}

// rateLimitReset reads X-RateLimit-Reset, a list of seconds until each of
// the provider's windows resets; the shortest positive one is when a
// request can be tried again.
func rateLimitReset(v string) time.Duration {
	var best int64
	for _, part := range strings.Split(v, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
		if err != nil || n <= 0 {
			continue
		}
		if best == 0 || n < best {
			best = n
		}
	}
	if best > int64(maxRetryAfter/time.Second) {
		return maxRetryAfter
	}
	return time.Duration(best) * time.Second
}
