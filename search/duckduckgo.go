package search

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/html"

	"rypsok/tool"
)

// The DuckDuckGo driver scrapes the human-facing HTML endpoint (a scraping
// driver, book chapter 18): it runs only with [scraping] enabled = true,
// sends rypsok's own User-Agent and nothing that imitates a browser, never
// follows a redirect, reports a challenge as blocked and never works around
// it. 10 requests a minute, one at a time, 500 characters, 256 KiB a page,
// never cacheable.
var duckDuckGoProperties = Properties{
	RatePerMinute: 10, Burst: 1, MaxInFlight: 1, MaxQueryChars: 500,
	TimeRanges: true, Cacheable: false, ResponseBytes: 256 << 10,
}

const (
	duckDuckGoOrigin = "https://html.duckduckgo.com"
	// duckDuckGoMaxTokens bounds the parse like web_fetch's LIM-F10.
	duckDuckGoMaxTokens = 100000
)

type duckDuckGo struct {
	endpoint string
	client   *http.Client
	now      func() time.Time
}

func newDuckDuckGo(cfg EngineConfig, s Settings, d Deps) (*duckDuckGo, error) {
	return newDuckDuckGoAt(cfg, s, d, duckDuckGoOrigin)
}

func newDuckDuckGoAt(cfg EngineConfig, s Settings, d Deps, origin string) (*duckDuckGo, error) {
	o, err := url.Parse(origin)
	if err != nil {
		return nil, err
	}
	c, err := engineClient(o, s, d)
	if err != nil {
		return nil, err
	}
	// A redirect is never followed, not even on the provider's host.
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	e := &duckDuckGo{endpoint: origin + "/html/", client: c, now: clockOf(d)}
	return e, nil
}

func (e *duckDuckGo) Properties() Properties { return duckDuckGoProperties }

var duckDuckGoSafe = map[string]string{"strict": "1", "moderate": "-1", "off": "-2"}
var duckDuckGoPeriod = map[tool.TimeRange]string{tool.TimeRangeDay: "d", tool.TimeRangeWeek: "w", tool.TimeRangeMonth: "m", tool.TimeRangeYear: "y"}

func (e *duckDuckGo) Search(ctx context.Context, req EngineRequest) ([]RawResult, error) {
	q := "q=" + url.QueryEscape(req.Query)
	if req.Region != "" && req.Language != "" {
		q += "&kl=" + url.QueryEscape(strings.ToLower(req.Region)+"-"+primarySubtag(req.Language))
	}
	if v, ok := duckDuckGoSafe[req.SafeSearch]; ok {
		q += "&kp=" + v
	}
	if v, ok := duckDuckGoPeriod[req.TimeRange]; ok {
		q += "&df=" + v
	}
	status, h, body, ferr := get(ctx, e.client, e.endpoint+"?"+q, http.Header{"Accept": {"text/html"}}, duckDuckGoProperties.ResponseBytes)
	if ferr != nil {
		return nil, ferr
	}
	switch {
	case status == http.StatusForbidden:
		return nil, failure(tool.ReasonBlocked)
	case status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable:
		return nil, rateLimited(retryAfter(h, e.now()))
	case status != http.StatusOK:
		return nil, failure(tool.ReasonRequestFailure)
	}
	return parseDuckDuckGo(body)
}

// parseDuckDuckGo reads the results page with a streaming tokenizer under a
// token bound: div.result's a.result__a (title and target) and
// .result__snippet, the no-results marker, and the challenge markers.
func parseDuckDuckGo(body []byte) ([]RawResult, error) {
	if bytes.Contains(body, []byte("bots use DuckDuckGo too")) {
		return nil, failure(tool.ReasonBlocked)
	}
	z := html.NewTokenizer(bytes.NewReader(body))
	var (
		out        []RawResult
		noResults  bool
		tokens     int
		inTitle    int // depth inside a.result__a, 0 when outside
		inSnippet  int
		title      strings.Builder
		snippet    strings.Builder
		pendingURL string
		havePend   bool
		// lastKept says whether the latest a.result__a became a result, so
		// that an advertisement's snippet never lands on another result.
		lastKept bool
	)
	flushSnippet := func() {
		if lastKept && out[len(out)-1].Snippet == "" {
			out[len(out)-1].Snippet = strings.TrimSpace(snippet.String())
		}
		snippet.Reset()
	}
	for {
		tt := z.Next()
		tokens++
		if tokens > duckDuckGoMaxTokens {
			return nil, failure(tool.ReasonParseFailure)
		}
		switch tt {
		case html.ErrorToken:
			if z.Err() != io.EOF {
				return nil, failure(tool.ReasonParseFailure)
			}
			if len(out) == 0 && !noResults {
				// Neither results nor the no-results marker: the page
				// changed shape (REQ-ENG-015).
				return nil, failure(tool.ReasonParseFailure)
			}
			return out, nil
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			var class, href, action string
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				switch string(k) {
				case "class":
					class = string(v)
				case "href":
					href = string(v)
				case "action":
					action = string(v)
				}
			}
			classes := " " + class + " "
			switch {
			case strings.Contains(classes, " anomaly-modal__title "), string(name) == "form" && strings.HasPrefix(action, "/html/anomaly"):
				return nil, failure(tool.ReasonBlocked)
			case strings.Contains(classes, " no-results "):
				noResults = true
			}
			if tt == html.SelfClosingTagToken {
				continue
			}
			switch {
			case inTitle > 0:
				inTitle++
			case inSnippet > 0:
				inSnippet++
			case string(name) == "a" && strings.Contains(classes, " result__a "):
				pendingURL, havePend = unwrapDuckDuckGo(href)
				lastKept = false
				title.Reset()
				inTitle = 1
			case strings.Contains(classes, " result__snippet "):
				snippet.Reset()
				inSnippet = 1
			}
		case html.EndTagToken:
			switch {
			case inTitle > 0:
				inTitle--
				if inTitle == 0 && havePend {
					out = append(out, RawResult{Title: strings.TrimSpace(title.String()), URL: pendingURL, TitleDecoded: true, SnippetDecoded: true})
					havePend, lastKept = false, true
				}
			case inSnippet > 0:
				inSnippet--
				if inSnippet == 0 {
					flushSnippet()
				}
			}
		case html.TextToken:
			switch {
			case inTitle > 0:
				title.Write(z.Text())
			case inSnippet > 0:
				snippet.Write(z.Text())
			}
		}
	}
}

// unwrapDuckDuckGo turns the result link into the target: the uddg
// parameter of the provider's redirect wrapper, or an absolute http(s) link.
func unwrapDuckDuckGo(href string) (string, bool) {
	if strings.HasPrefix(href, "//") {
		href = "https:" + href
	}
	u, err := url.Parse(href)
	if err != nil {
		return "", false
	}
	host := strings.ToLower(u.Hostname())
	if (host == "duckduckgo.com" || strings.HasSuffix(host, ".duckduckgo.com")) && u.Path == "/l/" {
		target := u.Query().Get("uddg")
		t, err := url.Parse(target)
		if err != nil || (t.Scheme != "http" && t.Scheme != "https") || t.Host == "" {
			return "", false
		}
		return target, true
	}
	if (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && !(host == "duckduckgo.com" || strings.HasSuffix(host, ".duckduckgo.com")) {
		return href, true
	}
	return "", false
}
