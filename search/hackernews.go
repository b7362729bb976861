package search

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"rypsok/secrets"
	"rypsok/tool"
)

// The Hacker News driver follows its admission record
// (docs/engines/hackernews.md): the Algolia search API, stories only,
// keyless. The provider allows 10,000 requests an hour per address:
// configured at 100 a minute with a burst of 10; two at a time; 250
// characters; every language; every time range (created_at_i); not
// cacheable; 1 MiB a response.
var hackerNewsProperties = Properties{
	RatePerMinute: 100, Burst: 10, MaxInFlight: 2, MaxQueryChars: 250,
	TimeRanges: true, Cacheable: false, AttributionRequired: false, ResponseBytes: 1 << 20,
}

const (
	hackerNewsOrigin = "https://hn.algolia.com"
	hackerNewsItem   = "https://news.ycombinator.com/item?id="
)

type hackerNews struct {
	endpoint string
	origin   *url.URL
	client   *http.Client
	now      func() time.Time
}

func newHackerNews(cfg EngineConfig, s Settings, d Deps) (*hackerNews, error) {
	base, err := apiBase(cfg, hackerNewsOrigin)
	if err != nil {
		return nil, err
	}
	c, err := engineClient(originOf(base), s, d)
	if err != nil {
		return nil, err
	}
	return &hackerNews{endpoint: base.String() + "/api/v1/search", origin: originOf(base), client: c, now: clockOf(d)}, nil
}

func (x *hackerNews) Properties() Properties { return hackerNewsProperties }

func (x *hackerNews) limitKey() string { return limitKeyOf(x.origin, secrets.Secret{}) }

type hackerNewsAnswer struct {
	Hits *[]struct {
		ObjectID  string  `json:"objectID"`
		Title     *string `json:"title"`
		URL       *string `json:"url"`
		StoryText *string `json:"story_text"`
		CreatedAt string  `json:"created_at"`
	} `json:"hits"`
}

func (x *hackerNews) Search(ctx context.Context, req EngineRequest) ([]RawResult, error) {
	q := "query=" + url.QueryEscape(req.Query) + "&tags=story&hitsPerPage=" + strconv.Itoa(resultCount(req.MaxResults, 50))
	if from, ok := periodStart(req.TimeRange, x.now()); ok {
		q += "&numericFilters=" + url.QueryEscape("created_at_i>"+strconv.FormatInt(from.Unix(), 10))
	}
	status, h, body, ferr := get(ctx, x.client, x.endpoint+"?"+q, http.Header{"Accept": {"application/json"}}, hackerNewsProperties.ResponseBytes)
	if ferr != nil {
		return nil, ferr
	}
	switch {
	case status == http.StatusForbidden:
		return nil, failure(tool.ReasonBlocked)
	case status != http.StatusOK:
		ee, _ := statusClass(status, h, x.now())
		return nil, ee
	}
	return parseHackerNews(body)
}

// parseHackerNews reads the hits of a story search: the story's link, or
// its item page when it has none (Ask HN and the like); the snippet is the
// story's own text when it has one.
func parseHackerNews(body []byte) ([]RawResult, error) {
	var a hackerNewsAnswer
	if err := json.Unmarshal(body, &a); err != nil || a.Hits == nil {
		return nil, failure(tool.ReasonParseFailure)
	}
	out := make([]RawResult, 0, len(*a.Hits))
	for _, h := range *a.Hits {
		if h.Title == nil || *h.Title == "" || !numericID(h.ObjectID) {
			continue
		}
		// A submitter's title may carry markup or entities: cleaned as
		// markup, on the safe side.
		r := RawResult{Title: *h.Title, URL: hackerNewsItem + h.ObjectID, Date: isoDate(h.CreatedAt)}
		if h.URL != nil && *h.URL != "" {
			r.URL = *h.URL
		}
		if h.StoryText != nil {
			r.Snippet = *h.StoryText // the item's HTML: cleaned as markup
		}
		out = append(out, r)
	}
	return out, nil
}

// numericID: 1 to 20 ASCII digits.
func numericID(s string) bool {
	if s == "" || len(s) > 20 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
