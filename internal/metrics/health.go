package metrics

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// The bounds of the metrics listener against a hostile client, as the MCP
// listener has them: connections (LIM-H1), header block (LIM-H7), header
// time and idle time (LIM-H3). A scrape is one small GET.
const (
	maxConnections = 16
	maxHeaderBlock = 16384 // LIM-H7
	headerTimeout  = 5 * time.Second
	writeTimeout   = 10 * time.Second
	idleTimeout    = 60 * time.Second
)

// Paths served.
const (
	PathMetrics = "/metrics"
	PathHealthz = "/healthz"
	PathReadyz  = "/readyz"
)

// Listening records that the MCP listener is bound (network mode), or
// that there is none to wait for (stdio).
func (m *Metrics) Listening() { m.bound.Store(true) }

// PluginsReady records that every RSP plugin passed its handshake (or that
// none is configured).
func (m *Metrics) PluginsReady() { m.pluginsReady.Store(true) }

// Drain returns a context that ends when parent ends, after the process
// was marked not ready: whatever serves on the returned context stops
// accepting only once /readyz answers 503.
func (m *Metrics) Drain(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
	stop := context.AfterFunc(parent, func() {
		m.draining.Store(true)
		cancel()
	})
	return ctx, func() { stop(); cancel() }
}

// Listener is the bound metrics listener.
type Listener struct {
	ln *limitListener
	hs *http.Server
}

// Listen binds the metrics listener on bind (host:port).
func (m *Metrics) Listen(bind string) (*Listener, error) {
	ln, err := net.Listen("tcp", bind)
	if err != nil {
		return nil, err
	}
	l := &Listener{
		ln: &limitListener{Listener: ln, max: maxConnections},
		hs: &http.Server{
			Handler:           m,
			ReadHeaderTimeout: headerTimeout,
			ReadTimeout:       headerTimeout,
			WriteTimeout:      writeTimeout,
			IdleTimeout:       idleTimeout,
			// net/http allows 4096 bytes above MaxHeaderBytes: the sum
			// is LIM-H7.
			MaxHeaderBytes: maxHeaderBlock - 4096,
			ErrorLog:       log.New(io.Discard, "", 0),
		},
	}
	return l, nil
}

// Addr is the bound address.
func (l *Listener) Addr() net.Addr { return l.ln.Addr() }

// Serve serves until Close; it returns nil then.
func (l *Listener) Serve() error {
	err := l.hs.Serve(l.ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Close stops the listener and closes its connections.
func (l *Listener) Close() error { return l.hs.Close() }

// ServeHTTP answers /metrics, /healthz and /readyz to GET and HEAD: 404 for
// another path, 405 with Allow for another method. It never reads a body;
// a request that declares one closes its connection, so that the server
// does not read it either.
func (m *Metrics) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	if r.ContentLength != 0 {
		h.Set("Connection", "close")
	}
	switch r.URL.Path {
	case PathMetrics, PathHealthz, PathReadyz:
	default:
		plain(w, http.StatusNotFound, "not found: the paths are /metrics, /healthz and /readyz\n")
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		plain(w, http.StatusMethodNotAllowed, "method not allowed: use GET\n")
		return
	}
	switch r.URL.Path {
	case PathMetrics:
		h.Set("Content-Type", ContentType)
		if r.Method == http.MethodHead {
			return
		}
		m.WriteTo(w)
	case PathHealthz:
		plain(w, http.StatusOK, "ok\n")
	case PathReadyz:
		switch {
		case m.draining.Load():
			plain(w, http.StatusServiceUnavailable, "not ready: stopping\n")
		case !m.pluginsReady.Load():
			plain(w, http.StatusServiceUnavailable, "not ready: the RSP plugins' handshake has not passed\n")
		case !m.bound.Load():
			plain(w, http.StatusServiceUnavailable, "not ready: the MCP listener is not bound yet\n")
		default:
			plain(w, http.StatusOK, "ready\n")
		}
	}
}

func plain(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	io.WriteString(w, text)
}

// limitListener closes a connection beyond max open ones at once.
type limitListener struct {
	net.Listener
	max  int
	open atomic.Int64
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.open.Add(1) > int64(l.max) {
			l.open.Add(-1)
			c.Close()
			continue
		}
		return &countedConn{Conn: c, l: l}, nil
	}
}

type countedConn struct {
	net.Conn
	l    *limitListener
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.l.open.Add(-1) })
	return c.Conn.Close()
}
