package search

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"rypsok/tool"
)

// The SearXNG driver follows its admission record (docs/engines/searxng.md):
// the operator's own instance, GET <base_url>/search with format=json;
// the instance's limits are the operator's, configured at 30 requests per
// minute with a burst of 5, two at a time; 400 characters; every language
// and the day, week, month and year ranges; never cacheable, because the
// instance may have asked engines that forbid storage; 2 MiB a response.
var searxngProperties = Properties{
	RatePerMinute: 30, Burst: 5, MaxInFlight: 2, MaxQueryChars: 400,
	TimeRanges: true, Cacheable: false, AttributionRequired: false, ResponseBytes: 2 << 20,
}

// searxngCategory maps the tool's categories to the instance's: SearXNG
// has no "code" tab; "it" is its category of developer sources.
var searxngCategory = map[tool.Category]string{
	tool.CategoryGeneral: "general", tool.CategoryNews: "news",
	tool.CategoryScience: "science", tool.CategoryCode: "it",
}

var searxngSafe = map[string]string{"off": "0", "moderate": "1", "strict": "2"}

type searxng struct {
	id       string
	endpoint string // <base_url>/search
	client   *http.Client
	now      func() time.Time
	log      *slog.Logger
	warnOnce sync.Once
}

func newSearXNG(cfg EngineConfig, s Settings, d Deps) (*searxng, error) {
	if cfg.BaseURL == nil {
		return nil, errNeedsBaseURL(cfg.ID)
	}
	base, err := apiBase(cfg, "")
	if err != nil {
		return nil, err
	}
	c, err := engineClientPlain(originOf(base), s, d)
	if err != nil {
		return nil, err
	}
	ep := base.String()
	if !strings.HasSuffix(strings.ToLower(base.Path), "/search") {
		ep += "/search"
	}
	log := d.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &searxng{id: cfg.ID, endpoint: ep, client: c, now: clockOf(d), log: log}, nil
}

func (x *searxng) Properties() Properties { return searxngProperties }

// limitKey: the instance counts per client address.
func (x *searxng) limitKey() string {
	u, _ := url.Parse(x.endpoint)
	return "searxng " + u.Host
}

type searxngAnswer struct {
	Results *[]struct {
		URL           string  `json:"url"`
		Title         string  `json:"title"`
		Content       string  `json:"content"`
		PublishedDate *string `json:"publishedDate"`
	} `json:"results"`
}

func (x *searxng) Search(ctx context.Context, req EngineRequest) ([]RawResult, error) {
	q := "q=" + url.QueryEscape(req.Query) + "&format=json&pageno=1"
	if c, ok := searxngCategory[req.Category]; ok {
		q += "&categories=" + c
	}
	if req.Language != "" {
		q += "&language=" + url.QueryEscape(req.Language)
	}
	if v, ok := searxngSafe[req.SafeSearch]; ok {
		q += "&safesearch=" + v
	}
	if req.TimeRange != tool.TimeRangeNone {
		q += "&time_range=" + url.QueryEscape(string(req.TimeRange))
	}
	status, h, body, ferr := get(ctx, x.client, x.endpoint+"?"+q, http.Header{"Accept": {"application/json"}}, searxngProperties.ResponseBytes)
	if ferr != nil {
		return nil, ferr
	}
	if status == http.StatusForbidden {
		// The instance answers 403 to a format that search.formats does
		// not list; the default lists html only.
		x.warnOnce.Do(func() {
			x.log.WarnContext(ctx, "engine_refused_format", "engine", x.id,
				"fix", "add json to search.formats in the instance's settings.yml")
		})
		return nil, failure(tool.ReasonRequestFailure)
	}
	if ee, ok := statusClass(status, h, x.now()); !ok {
		return nil, ee
	}
	return parseSearXNG(body, req.MaxResults)
}

// parseSearXNG reads the instance's JSON answer: its results list, or a
// parse_failure for anything else.
func parseSearXNG(body []byte, max int) ([]RawResult, error) {
	var a searxngAnswer
	if err := json.Unmarshal(body, &a); err != nil || a.Results == nil {
		return nil, failure(tool.ReasonParseFailure)
	}
	n := resultCount(max, 50)
	out := make([]RawResult, 0, min(len(*a.Results), n))
	for _, r := range *a.Results {
		if len(out) >= n {
			break
		}
		if r.URL == "" {
			continue
		}
		date := ""
		if r.PublishedDate != nil {
			date = isoDate(*r.PublishedDate)
		}
		// Titles and contents are the upstream engines' text, which may
		// carry markup or entities: cleaned as markup.
		out = append(out, RawResult{Title: r.Title, URL: r.URL, Snippet: r.Content, Date: date})
	}
	return out, nil
}
