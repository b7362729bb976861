package search

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"rypsok/egress"
	"rypsok/tool"
)

// engineClient is the client of one engine origin under the engine egress
// profile, with the process's proxy, roots and User-Agent.
func engineClient(origin *url.URL, s Settings, d Deps) (*http.Client, error) {
	return egress.NewEngineClient(egress.EngineClientOptions{
		Origin: origin, Proxy: d.Proxy, ConnectTimeout: s.ConnectTimeout, Roots: d.Roots, UserAgent: d.UserAgent,
	})
}

// engineClientPlain is engineClient for an instance the operator runs
// (searxng), whose origin may be plain http on any host.
func engineClientPlain(origin *url.URL, s Settings, d Deps) (*http.Client, error) {
	return egress.NewEngineClient(egress.EngineClientOptions{
		Origin: origin, Proxy: d.Proxy, ConnectTimeout: s.ConnectTimeout, Roots: d.Roots, UserAgent: d.UserAgent, PlainHTTP: true,
	})
}

// errNeedsBaseURL: a driver built without the base_url it requires (the
// configuration refuses such a file first).
func errNeedsBaseURL(id string) error {
	return errors.New("engines." + id + ".base_url: required for this type")
}

// clockOf is the clock of the drivers: Deps.Now, or the system clock.
func clockOf(d Deps) func() time.Time { return clockOr(d.Now) }

// maxRetryAfter bounds what a provider may ask us to wait; the circuit caps
// it again at LIM-B3.
const maxRetryAfter = time.Hour

// get performs one GET through an engine's client and returns the status,
// the headers and the body read under limitBytes. Failures are classified
// here so that no transport or provider text leaves the driver.
func get(ctx context.Context, c *http.Client, rawURL string, header http.Header, limitBytes int64) (int, http.Header, []byte, *EngineError) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return 0, nil, nil, failure(tool.ReasonRequestFailure)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := c.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return 0, nil, nil, failure(tool.ReasonTimeout)
		}
		return 0, nil, nil, failure(tool.ReasonRequestFailure)
	}
	defer resp.Body.Close()
	body, err := egress.ReadBody(resp.Body, limitBytes)
	switch {
	case err == nil && ctx.Err() != nil:
		// Ended once the deadline had passed: the end may be the
		// cancellation's, so the body is not known to be whole.
		return resp.StatusCode, resp.Header, nil, failure(tool.ReasonTimeout)
	case err == nil:
	case errors.Is(err, egress.ErrTooLarge):
		return resp.StatusCode, resp.Header, nil, failure(tool.ReasonParseFailure)
	case ctx.Err() != nil:
		return resp.StatusCode, resp.Header, nil, failure(tool.ReasonTimeout)
	default:
		return resp.StatusCode, resp.Header, nil, failure(tool.ReasonRequestFailure)
	}
	return resp.StatusCode, resp.Header, body, nil
}

// retryAfter reads a Retry-After header: seconds, or an HTTP date.
func retryAfter(h http.Header, now time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n <= 0 {
			return 0
		}
		if n > int64(maxRetryAfter/time.Second) {
			return maxRetryAfter
		}
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		d := t.Sub(now)
		if d <= 0 {
			return 0
		}
		if d > maxRetryAfter {
			return maxRetryAfter
		}
		return d
	}
	return 0
}

// rateLimited is the classification of a 429 with the provider's wait.
func rateLimited(wait time.Duration) *EngineError {
	return &EngineError{Class: tool.ReasonRateLimited, RetryAfter: wait}
}
