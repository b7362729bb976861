package robots

import (
	"context"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"sync/atomic"
)

// ReadError is a robots.txt read that got no complete answer. Connected
// tells whether a connection to the site had been established (the HTTP
// client had one for the request, after the TLS handshake for https) when
// the read failed: a failure after that point (the connection closed or
// reset before a status line, a response cut short, a read error in the
// body) makes the file unreachable, and the Checker disallows everything
// for the origin (RFC 9309 §2.3.1.4). A failure before it (no address, a
// refused connection, a failed handshake) is the site's network failure,
// which the fetch pipeline may rather report as such.
//
// Its message names neither the URL nor the cause; Unwrap gives the cause,
// which may name the URL and must not be logged.
type ReadError struct {
	Connected bool
	Err       error
}

func (e *ReadError) Error() string {
	if e.Connected {
		return "robots: the robots.txt read failed after the connection was established"
	}
	return "robots: no connection for the robots.txt read"
}

func (e *ReadError) Unwrap() error { return e.Err }

// Get performs one GET of the robots.txt at u with do, and reads the
// answer as a Getter must: the status, the Location header, and for a 2xx
// status the first MaxBytes of the body (the rest is never read). do is
// the fetch pipeline's client (so that the agent-directed egress profile
// judges the request) and must not follow redirects: the Checker follows
// them itself, each one judged again.
//
// Every failure is a *ReadError, except the error of an ended ctx, which
// the Checker reports as it is. A 2xx answer whose body cannot be read to
// its end or to MaxBytes is a failure, never a shorter file: a body cut
// short would be read as fewer rules than the site wrote.
func Get(ctx context.Context, do func(*http.Request) (*http.Response, error), u *url.URL) (Response, error) {
	var connected atomic.Bool
	trace := &httptrace.ClientTrace{GotConn: func(httptrace.GotConnInfo) { connected.Store(true) }}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), http.MethodGet, u.String(), nil)
	if err != nil {
		return Response{}, &ReadError{Err: err}
	}
	resp, err := do(req)
	if err != nil {
		return Response{}, readFailure(ctx, connected.Load(), err)
	}
	defer resp.Body.Close()
	out := Response{Status: resp.StatusCode, Location: resp.Header.Get("Location")}
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		out.Body, err = io.ReadAll(io.LimitReader(resp.Body, MaxBytes))
		if err != nil {
			return Response{}, readFailure(ctx, true, err)
		}
	}
	return out, nil
}

// readFailure is the error of a failed read: the context's own when it
// has ended, a *ReadError otherwise.
func readFailure(ctx context.Context, connected bool, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	return &ReadError{Connected: connected, Err: err}
}
