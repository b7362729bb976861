package mcp

import (
	"bytes"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// The gate in front of net/http: it bounds the connections accepted at
// once (LIM-H1), closes a connection that does not show its protocol
// within LIM-H3 of its accept, and backs off when accept fails.

const (
	// h2Preface is what an HTTP/2 connection without TLS starts with.
	h2Preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
	// logEvery: too_many_connections and accept_failed are logged at most
	// this often; the counters event has every occurrence.
	logEvery = 10 * time.Second
	// acceptBackoff is the wait after a failed accept (descriptors out).
	acceptBackoff = 100 * time.Millisecond
)

type gateListener struct {
	inner   net.Listener
	srv     *Server
	maxConn int
	idle    time.Duration

	live  atomic.Int64
	ready chan net.Conn

	// sniffing are the connections whose protocol is not known yet:
	// closed by Close, so that shutdown does not wait for LIM-H3.
	mu       sync.Mutex
	sniffing map[*gateConn]struct{}
	stopped  bool

	done   chan struct{}
	closed sync.Once
	wg     sync.WaitGroup // the accept loop and the sniffers

	tooMany    throttle
	acceptFail throttle
}

func newGateListener(inner net.Listener, srv *Server, maxConn int, idle time.Duration) *gateListener {
	g := &gateListener{
		inner:      inner,
		srv:        srv,
		maxConn:    maxConn,
		idle:       idle,
		ready:      make(chan net.Conn),
		sniffing:   map[*gateConn]struct{}{},
		done:       make(chan struct{}),
		tooMany:    throttle{now: srv.now, every: logEvery},
		acceptFail: throttle{now: srv.now, every: logEvery},
	}
	g.wg.Add(1)
	go g.acceptLoop()
	return g
}

// throttle lets an event through at most once per every, on the injected
// clock.
type throttle struct {
	mu    sync.Mutex
	now   func() time.Time
	every time.Duration
	last  time.Time
	any   bool
}

func (t *throttle) allow() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := t.now()
	if t.any && n.Sub(t.last) < t.every {
		return false
	}
	t.any, t.last = true, n
	return true
}

func (g *gateListener) acceptLoop() {
	defer g.wg.Done()
	for {
		c, err := g.inner.Accept()
		if err != nil {
			select {
			case <-g.done:
				return
			default:
			}
			if errors.Is(err, net.ErrClosed) {
				return
			}
			if g.acceptFail.allow() {
				g.srv.log.Warn(eventAcceptFailed)
			}
			backoff, stop := g.srv.waits.timer(acceptBackoff)
			select {
			case <-backoff:
			case <-g.done:
				stop()
				return
			}
			continue
		}
		if g.live.Load() >= int64(g.maxConn) {
			c.Close()
			g.srv.refused.add(httpCounters, reasonTooManyConnections)
			if g.tooMany.allow() {
				g.srv.log.Warn(eventHTTPRefused, "reason", reasonTooManyConnections, "family", addrFamily(c.RemoteAddr()))
			}
			continue
		}
		g.live.Add(1)
		gc := &gateConn{Conn: c, g: g}
		g.mu.Lock()
		if g.stopped {
			g.mu.Unlock()
			gc.Close()
			return
		}
		g.sniffing[gc] = struct{}{}
		g.mu.Unlock()
		g.wg.Add(1)
		go g.sniff(gc)
	}
}

// sniff reads the first bytes of a connection under one deadline, until
// they show HTTP/1 (anything but the start of the HTTP/2 preface) or
// HTTP/2 (the whole preface), and hands the connection on with those bytes
// put back. A connection that shows nothing within LIM-H3 is closed and
// counted as idle_connection, with no log line.
func (g *gateListener) sniff(c *gateConn) {
	defer g.wg.Done()
	defer func() {
		g.mu.Lock()
		delete(g.sniffing, c)
		g.mu.Unlock()
	}()
	c.SetReadDeadline(deadlineIn(g.idle))
	buf := make([]byte, 0, len(h2Preface))
	known := false
	for !known {
		n, err := c.Conn.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if !bytes.HasPrefix([]byte(h2Preface), buf) || len(buf) == len(h2Preface) {
			known = true
			break
		}
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() && !g.isStopped() {
				g.srv.refused.add(httpCounters, reasonIdleConnection)
			}
			c.Close()
			return
		}
	}
	c.SetReadDeadline(time.Time{})
	c.prefix = buf
	// Off the list before it is handed on: from then on the connection is
	// net/http's, and Close must not cut a request that is being served.
	g.mu.Lock()
	delete(g.sniffing, c)
	g.mu.Unlock()
	select {
	case g.ready <- c:
	case <-g.done:
		// Stopped before net/http took it.
		c.Close()
	}
}

// Accept returns the next connection that showed its protocol.
func (g *gateListener) Accept() (net.Conn, error) {
	select {
	case c := <-g.ready:
		return c, nil
	case <-g.done:
		return nil, net.ErrClosed
	}
}

// Close stops accepting; connections already handed on are net/http's.
func (g *gateListener) Close() error {
	var err error
	g.closed.Do(func() {
		close(g.done)
		err = g.inner.Close()
		g.mu.Lock()
		g.stopped = true
		for c := range g.sniffing {
			c.Conn.Close()
		}
		g.mu.Unlock()
	})
	return err
}

func (g *gateListener) isStopped() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stopped
}

func (g *gateListener) Addr() net.Addr { return g.inner.Addr() }

// wait waits for the accept loop and the sniffers to end after Close.
func (g *gateListener) wait() { g.wg.Wait() }

// gateConn gives back the bytes the gate read and releases its place in
// LIM-H1 when closed.
type gateConn struct {
	net.Conn
	g      *gateListener
	mu     sync.Mutex
	prefix []byte
	once   sync.Once
}

func (c *gateConn) Read(p []byte) (int, error) {
	c.mu.Lock()
	if len(c.prefix) > 0 {
		n := copy(p, c.prefix)
		c.prefix = c.prefix[n:]
		c.mu.Unlock()
		return n, nil
	}
	c.mu.Unlock()
	return c.Conn.Read(p)
}

func (c *gateConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.g.live.Add(-1) })
	return err
}

// addrFamily names the family of a peer address for a log line, never the
// address.
func addrFamily(a net.Addr) string {
	if ta, ok := a.(*net.TCPAddr); ok {
		if ta.IP.To4() != nil {
			return "ipv4"
		}
		return "ipv6"
	}
	return "other"
}

// discardWriter takes the error log of net/http: its lines would carry
// peer addresses, so they are dropped.
type discardWriter struct{}

func (discardWriter) Write(p []byte) (int, error) { return len(p), nil }
