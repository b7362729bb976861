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

// The GitHub driver follows its admission record (docs/engines/github.md):
// the REST search of repositories (endpoint = "repositories", the default)
// or of issues (endpoint = "issues", with is:issue), an optional token. The
// search limit is 10 a minute keyless (per address) and 30 with a token
// (per credential), across every search endpoint: configured at 5 a minute
// with a burst of 5 keyless and 15 with a burst of 15 with a token, so that
// no minute exceeds the limit; two at a time; 256 characters; every
// language; every time range (pushed: or updated:); not cacheable; 1 MiB a
// response.
var (
	gitHubProperties = Properties{
		RatePerMinute: 5, Burst: 5, MaxInFlight: 2, MaxQueryChars: 256,
		TimeRanges: true, Cacheable: false, AttributionRequired: false, ResponseBytes: 1 << 20,
	}
	gitHubKeyedProperties = Properties{
		RatePerMinute: 15, Burst: 15, MaxInFlight: 2, MaxQueryChars: 256,
		TimeRanges: true, Cacheable: false, AttributionRequired: false, ResponseBytes: 1 << 20,
	}
)

const gitHubOrigin = "https://api.github.com"

// gitHubSnippetChars bounds the first lines of an issue taken as its
// snippet, before the boundary's own cut.
const gitHubSnippetChars = 600

type gitHub struct {
	key      secrets.Secret
	issues   bool
	endpoint string
	origin   *url.URL
	client   *http.Client
	now      func() time.Time
}

func newGitHub(cfg EngineConfig, s Settings, d Deps) (*gitHub, error) {
	base, err := apiBase(cfg, gitHubOrigin)
	if err != nil {
		return nil, err
	}
	c, err := engineClient(originOf(base), s, d)
	if err != nil {
		return nil, err
	}
	g := &gitHub{key: cfg.Key, issues: cfg.Endpoint == "issues", origin: originOf(base), client: c, now: clockOf(d)}
	g.endpoint = base.String() + "/search/repositories"
	if g.issues {
		g.endpoint = base.String() + "/search/issues"
	}
	return g, nil
}

func (g *gitHub) Properties() Properties {
	if g.key.IsZero() {
		return gitHubProperties
	}
	return gitHubKeyedProperties
}

// limitKey: one search limit per credential, or per address keyless, for
// both endpoints together.
func (g *gitHub) limitKey() string { return limitKeyOf(g.origin, g.key) }

type gitHubAnswer struct {
	Items *[]struct {
		FullName    string  `json:"full_name"`
		Title       string  `json:"title"`
		HTMLURL     string  `json:"html_url"`
		Description *string `json:"description"`
		Body        *string `json:"body"`
		PushedAt    *string `json:"pushed_at"`
		UpdatedAt   *string `json:"updated_at"`
	} `json:"items"`
}

func (g *gitHub) Search(ctx context.Context, req EngineRequest) ([]RawResult, error) {
	q := req.Query
	if g.issues {
		q += " is:issue"
	}
	if from, ok := periodStart(req.TimeRange, g.now()); ok {
		field := "pushed"
		if g.issues {
			field = "updated"
		}
		q += " " + field + ":>=" + from.UTC().Format(time.DateOnly)
	}
	u := g.endpoint + "?q=" + url.QueryEscape(q) + "&per_page=" + strconv.Itoa(resultCount(req.MaxResults, 100))
	h := http.Header{"Accept": {"application/vnd.github+json"}, "X-Github-Api-Version": {"2022-11-28"}}
	if !g.key.IsZero() {
		h.Set("Authorization", "Bearer "+g.key.Reveal())
	}
	status, rh, body, ferr := get(ctx, g.client, u, h, g.Properties().ResponseBytes)
	if ferr != nil {
		return nil, ferr
	}
	if ee := g.classify(status, rh, body); ee != nil {
		return nil, ee
	}
	return parseGitHub(body, g.issues)
}

// classify reads the status: a 403 or 429 with no requests remaining, with
// Retry-After, or whose message says it is a rate limit (a secondary limit)
// is a rate limit that waits for Retry-After, else for X-RateLimit-Reset,
// else the minute the documentation asks for; 401, and 403 otherwise with
// a token, an authentication failure; 403 keyless otherwise is blocked;
// everything else other than 200 a request failure (422: the query was
// refused). The message is read for this classification only.
func (g *gitHub) classify(status int, h http.Header, body []byte) *EngineError {
	now := g.now()
	limited := h.Get("X-Ratelimit-Remaining") == "0" || h.Get("Retry-After") != "" || gitHubSaysRateLimit(body)
	switch {
	case status == http.StatusOK:
		return nil
	case status == http.StatusTooManyRequests || status == http.StatusForbidden && limited:
		wait := retryAfter(h, now)
		if wait == 0 {
			wait = epochReset(h.Get("X-Ratelimit-Reset"), now)
		}
		if wait == 0 {
			wait = time.Minute
		}
		return rateLimited(wait)
	case status == http.StatusUnauthorized, status == http.StatusForbidden && !g.key.IsZero():
		return failure(tool.ReasonAuthFailure)
	case status == http.StatusForbidden:
		return failure(tool.ReasonBlocked)
	}
	return failure(tool.ReasonRequestFailure)
}

// gitHubSaysRateLimit reports whether an error answer's message names a
// rate limit ("API rate limit exceeded", "You have exceeded a secondary
// rate limit").
func gitHubSaysRateLimit(body []byte) bool {
	var e struct {
		Message string `json:"message"`
	}
	if len(body) > 64<<10 || json.Unmarshal(body, &e) != nil {
		return false
	}
	return strings.Contains(strings.ToLower(e.Message), "rate limit")
}

// parseGitHub reads a search answer: repositories (full name, description,
// last push) or issues (title, first lines, last update); the URL is the
// item's html_url.
func parseGitHub(body []byte, issues bool) ([]RawResult, error) {
	var a gitHubAnswer
	if err := json.Unmarshal(body, &a); err != nil || a.Items == nil {
		return nil, failure(tool.ReasonParseFailure)
	}
	out := make([]RawResult, 0, len(*a.Items))
	for _, it := range *a.Items {
		if it.HTMLURL == "" {
			continue
		}
		// Titles, descriptions and Markdown bodies are user text that may
		// carry markup: cleaned as markup, on the safe side.
		r := RawResult{URL: it.HTMLURL}
		if issues {
			r.Title = it.Title
			if it.Body != nil {
				r.Snippet = firstLines(*it.Body, gitHubSnippetChars)
			}
			if it.UpdatedAt != nil {
				r.Date = isoDate(*it.UpdatedAt)
			}
		} else {
			r.Title = it.FullName
			if it.Description != nil {
				r.Snippet = *it.Description
			}
			if it.PushedAt != nil {
				r.Date = isoDate(*it.PushedAt)
			}
		}
		if r.Title == "" {
			continue
		}
		out = append(out, r)
	}
	return out, nil
}

// firstLines is the first non-empty lines of a text, joined by spaces, up
// to about maxChars characters.
func firstLines(text string, maxChars int) string {
	if len(text) > 4*maxChars {
		text = strings.ToValidUTF8(text[:4*maxChars], "")
	}
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(line)
		if b.Len() >= maxChars {
			break
		}
	}
	return b.String()
}
