package mcp

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The Streamable HTTP transport (REQ-MCP-003): one path, /mcp, over
// HTTP/1.1 and HTTP/2 without TLS, behind the gate of httpgate.go. The
// contract is the status table of the book's §2: what each status means is
// in the comment of the check that answers it.

// HTTPSettings are the listener's settings: [service.http] and its callers.
// A zero limit takes the default of LIM-H1 to LIM-H6.
type HTTPSettings struct {
	Bind           string   // host:port; "127.0.0.1:8737" when empty
	AllowedHosts   []string // Host values accepted besides the loopback names on a loopback bind
	AllowedOrigins []string // Origin values accepted ("scheme://host:*" for any port, "null"); empty: none
	// NoLegacyRevisions: the handshake-based revisions are not served
	// (legacy_revisions = false): initialize gets -32022 and discovery
	// lists 2026-07-28 alone.
	NoLegacyRevisions bool
	Callers           []HTTPCaller // empty: every request is the caller local (loopback only)

	MaxConnections  int           // LIM-H1
	MaxRequestBytes int           // LIM-H2
	IdleTimeout     time.Duration // LIM-H3
	MaxStreams      int           // LIM-H4
	RequestTimeout  time.Duration // LIM-H5
	MaxSessions     int           // LIM-H6
}

// HTTPCaller is one caller of [[service.http.auth.callers]]: its id (in
// logs and rate limits, never in an answer) and its token.
type HTTPCaller struct {
	ID    string
	Token []byte
}

// codeHeaderMismatch is HeaderMismatch of 2026-07-28: a protocol header
// missing or disagreeing with the body.
const codeHeaderMismatch = -32020

// Listener is a bound HTTP listener; Serve serves it.
type Listener struct {
	srv      *Server
	set      HTTPSettings
	loopback bool
	port     string
	gate     *gateListener
	hs       *http.Server
	sessions *httpSessions
	callers  []HTTPCaller
	digests  [][sha256.Size]byte // of the callers' tokens

	// calls in flight of the stateless revision, for shutdown
	mu       sync.Mutex
	oneShots map[*session]struct{}
}

// ListenHTTP checks the settings and binds the listener. A bind off
// loopback without callers or without allowed hosts, a caller without an
// id or with a token under 32 bytes, or an address that cannot be bound is
// an error that names the setting.
func (s *Server) ListenHTTP(set HTTPSettings) (*Listener, error) {
	set = httpDefaults(set)
	host, port, err := net.SplitHostPort(set.Bind)
	if err != nil {
		return nil, &SettingError{Key: "service.http.bind", Err: err}
	}
	loopback := isLoopbackHost(host)
	if !loopback && len(set.Callers) == 0 {
		return nil, &SettingError{Key: "service.http.auth.callers", Err: errors.New("a bind off loopback requires callers")}
	}
	if !loopback && len(set.AllowedHosts) == 0 {
		return nil, &SettingError{Key: "service.http.allowed_hosts", Err: errors.New("a bind off loopback requires allowed hosts")}
	}
	seen := map[string]bool{}
	for i, c := range set.Callers {
		if c.ID == "" || seen[c.ID] {
			return nil, &SettingError{Key: fmt.Sprintf("service.http.auth.callers[%d].id", i), Err: errors.New("missing or not unique")}
		}
		seen[c.ID] = true
		if len(c.Token) < minTokenBytes {
			return nil, &SettingError{Key: fmt.Sprintf("service.http.auth.callers[%d]", i), Err: fmt.Errorf("the token of %q is shorter than %d bytes", c.ID, minTokenBytes)}
		}
	}
	ln, err := net.Listen("tcp", set.Bind)
	if err != nil {
		return nil, &SettingError{Key: "service.http.bind", Err: err}
	}
	if port == "0" {
		_, port, _ = net.SplitHostPort(ln.Addr().String())
	}
	l := &Listener{
		srv:      s,
		set:      set,
		loopback: loopback,
		port:     port,
		sessions: newHTTPSessions(s, set.MaxSessions),
		oneShots: map[*session]struct{}{},
	}
	for _, c := range set.Callers {
		l.callers = append(l.callers, HTTPCaller{ID: c.ID})
		l.digests = append(l.digests, sha256.Sum256(c.Token))
	}
	l.gate = newGateListener(ln, s, set.MaxConnections, set.IdleTimeout)
	var protocols http.Protocols
	protocols.SetHTTP1(true)
	protocols.SetUnencryptedHTTP2(true)
	l.hs = &http.Server{
		Handler:           l,
		Protocols:         &protocols,
		ReadHeaderTimeout: set.RequestTimeout,
		IdleTimeout:       set.IdleTimeout,
		// net/http allows 4096 bytes above MaxHeaderBytes for the request
		// line and its buffer: the sum is LIM-H7.
		MaxHeaderBytes: maxHeaderBlock - 4096,
		HTTP2: &http.HTTP2Config{
			MaxConcurrentStreams: set.MaxStreams,
			SendPingTimeout:      set.IdleTimeout,
		},
		ErrorLog: log.New(discardWriter{}, "", 0),
	}
	// Bound is listening: the kernel queues connections from here on.
	s.log.Info(eventListening, "address", l.Addr().String(), "callers", len(l.callers))
	return l, nil
}

// SettingError is a setting the listener refuses, or a bind that failed:
// Key names the setting as the configuration does ("service.http.bind"),
// Err says why and wraps the cause (a *net.OpError with the system's
// errno for a bind), so that main tells the causes apart with errors.Is
// and errors.As.
type SettingError struct {
	Key string
	Err error
}

func (e *SettingError) Error() string { return e.Key + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *SettingError) Unwrap() error { return e.Err }

// DefaultHTTPSettings are the book's defaults of [service.http]: a
// loopback bind, no callers, the legacy revisions served, LIM-H1 to LIM-H6.
func DefaultHTTPSettings() HTTPSettings {
	return httpDefaults(HTTPSettings{})
}

func httpDefaults(set HTTPSettings) HTTPSettings {
	if set.Bind == "" {
		set.Bind = defaultBind
	}
	set.MaxConnections = orDefault(set.MaxConnections, defaultMaxConnections)
	set.MaxRequestBytes = orDefault(set.MaxRequestBytes, defaultMaxRequestBytes)
	set.MaxStreams = orDefault(set.MaxStreams, defaultMaxStreams)
	set.MaxSessions = orDefault(set.MaxSessions, defaultMaxSessions)
	if set.IdleTimeout <= 0 {
		set.IdleTimeout = defaultIdleTimeout
	}
	if set.RequestTimeout <= 0 {
		set.RequestTimeout = defaultRequestTimeout
	}
	return set
}

func isLoopbackHost(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// Addr is the bound address.
func (l *Listener) Addr() net.Addr { return l.gate.Addr() }

// Serve serves until ctx is cancelled (SIGTERM), then stops accepting,
// lets the requests in flight finish until Settings.Shutdown, cancels what
// is left and returns nil. ListenHTTP logged listening when it bound.
func (l *Listener) Serve(ctx context.Context) error {
	end := l.srv.startServing()
	defer end()
	errc := make(chan error, 1)
	go func() { errc <- l.hs.Serve(l.gate) }()
	select {
	case err := <-errc:
		l.gate.Close()
		l.gate.wait()
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	case <-ctx.Done():
	}
	margin := shutdownMargin(l.srv.set.Shutdown)
	sctx, cancel := context.WithTimeout(context.Background(), l.srv.set.Shutdown-margin)
	defer cancel()
	err := l.hs.Shutdown(sctx)
	if err != nil {
		// Calls still running: cancelled, unanswered; connections closed.
		l.cancelAll()
		l.hs.Close()
	}
	l.gate.Close()
	l.gate.wait()
	<-errc
	return nil
}

func (l *Listener) cancelAll() {
	l.sessions.cancelAll()
	l.mu.Lock()
	for ss := range l.oneShots {
		ss.stopAccepting()
		ss.cancelAll()
	}
	l.mu.Unlock()
}

// refuse answers a refusal of the gate, counts it, and logs it when the
// table says so; nothing of the request is in the line.
func (l *Listener) refuse(w http.ResponseWriter, r *http.Request, status int, reason string, logged bool) {
	l.srv.refused.add(httpCounters, reason)
	if logged {
		l.srv.log.Warn(eventHTTPRefused, "reason", reason, "family", familyOf(r.RemoteAddr))
	}
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	io.WriteString(w, http.StatusText(status)+"\n")
}

func familyOf(remote string) string {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		return "other"
	}
	if ip := net.ParseIP(host); ip != nil && ip.To4() != nil {
		return "ipv4"
	}
	return "ipv6"
}

// rpcRefusal answers a JSON-RPC error with an HTTP status (400, 404, 415).
func rpcRefusal(w http.ResponseWriter, status int, id []byte, e *rpcError) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(errorLine(id, e))
}

// ServeHTTP is the handler of every request, in the order of the table:
// path (404), token (401, before the Host check), declared body (413),
// Host and Origin (403), method (405), Accept (406), Content-Type (415),
// body (413 streamed, 408), message (415), protocol headers and session
// (400, 404, 503), then the answer (200, 202).
func (l *Listener) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// LIM-H5: the whole request, body and handler included.
	ctx, cancel := context.WithTimeout(r.Context(), l.set.RequestTimeout)
	defer cancel()
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(deadlineIn(l.set.RequestTimeout))
	// A client that does not read its answer is bounded too.
	rc.SetWriteDeadline(deadlineIn(l.set.RequestTimeout + time.Second))

	if r.URL.Path != mcpPath {
		l.refuse(w, r, http.StatusNotFound, reasonNotFound, false)
		return
	}
	caller, ok := l.authenticate(r)
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="rypsok"`)
		l.refuse(w, r, http.StatusUnauthorized, reasonUnauthorized, true)
		return
	}
	if r.ContentLength > int64(l.set.MaxRequestBytes) {
		w.Header().Set("Connection", "close")
		l.refuse(w, r, http.StatusRequestEntityTooLarge, reasonBodyTooLarge, true)
		return
	}
	if !l.hostAllowed(r.Host) || !l.originAllowed(r.Header.Values("Origin")) {
		l.refuse(w, r, http.StatusForbidden, reasonForbidden, true)
		return
	}
	switch r.Method {
	case http.MethodPost:
	case http.MethodDelete:
		l.deleteSession(w, r, caller)
		return
	default:
		// No standalone stream of server messages (GET) in any revision
		// served: 405, as both revisions allow.
		w.Header().Set("Allow", "POST, DELETE")
		l.refuse(w, r, http.StatusMethodNotAllowed, reasonMethodNotAllowed, false)
		return
	}
	if !acceptsBoth(r.Header.Values("Accept")) {
		l.refuse(w, r, http.StatusNotAcceptable, reasonNotAcceptable, false)
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || !strings.EqualFold(mt, "application/json") {
		l.refuse(w, r, http.StatusUnsupportedMediaType, "unsupported_media_type", false)
		return
	}
	body, status := readBody(ctx, r, l.set.MaxRequestBytes)
	switch status {
	case http.StatusRequestEntityTooLarge:
		w.Header().Set("Connection", "close")
		l.refuse(w, r, status, reasonBodyTooLarge, false)
		return
	case http.StatusRequestTimeout:
		w.Header().Set("Connection", "close")
		l.refuse(w, r, status, reasonRequestTimeout, true)
		return
	case statusClientClosed:
		// Nobody reads this answer; the reason is what counts.
		w.Header().Set("Connection", "close")
		l.refuse(w, r, http.StatusBadRequest, reasonClientClosed, true)
		return
	case http.StatusBadRequest:
		l.refuse(w, r, status, reasonBadRequest, false)
		return
	}
	m, id, rerr := decodeMessage(body)
	if rerr != nil {
		if rerr.code == codeParseError || rerr.code == codeInvalidRequest {
			// Not a JSON-RPC message (an id of null, a batch, no JSON).
			rpcRefusal(w, http.StatusUnsupportedMediaType, id, rerr)
			return
		}
		rpcRefusal(w, http.StatusOK, id, rerr)
		return
	}
	if m == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	l.serveMessage(ctx, w, r, caller, m)
}

// statusClientClosed is readBody's word for a client that closed its
// connection or stream partway through the body; it is never sent.
const statusClientClosed = 499

// readBody reads the body up to limit bytes: 413 above, 408 when LIM-H5
// ends first, statusClientClosed when the client went away, 400 when the
// body breaks off otherwise. A read that fails cancels the request's
// context (net/http does so when the connection fails), so a cancelled
// context alone is not a timeout: only a read deadline or LIM-H5's own
// deadline, with the client still there, is.
func readBody(ctx context.Context, r *http.Request, limit int) ([]byte, int) {
	buf := make([]byte, 0, min(max(r.ContentLength, 512), int64(limit)+1))
	lr := io.LimitReader(r.Body, int64(limit)+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if len(buf) > limit {
			return nil, http.StatusRequestEntityTooLarge
		}
		if err == io.EOF {
			return buf, 0
		}
		if err != nil {
			gone := r.Context().Err() != nil
			switch {
			case isTimeout(err), !gone && ctx.Err() != nil:
				return nil, http.StatusRequestTimeout
			case gone:
				return nil, statusClientClosed
			}
			return nil, http.StatusBadRequest
		}
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout() || errors.Is(err, context.DeadlineExceeded)
}

// authenticate finds the caller of the bearer token: every token is
// compared in constant time, whether or not an earlier one matched. With
// no callers configured (loopback only) every request is local.
func (l *Listener) authenticate(r *http.Request) (string, bool) {
	if len(l.callers) == 0 {
		return callerLocal, true
	}
	vals := r.Header.Values("Authorization")
	if len(vals) != 1 {
		return "", false
	}
	scheme, token, found := strings.Cut(vals[0], " ")
	if !found || !strings.EqualFold(scheme, "bearer") {
		return "", false
	}
	// Digests first, so that the comparison takes the same time whatever
	// the length of the token presented.
	got := sha256.Sum256([]byte(strings.TrimLeft(token, " ")))
	caller := ""
	for i, c := range l.callers {
		if subtle.ConstantTimeCompare(got[:], l.digests[i][:]) == 1 {
			caller = c.ID
		}
	}
	return caller, caller != ""
}

// hostAllowed: a listed Host, or on a loopback bind localhost, 127.0.0.1
// or [::1] with the bound port; names compare without regard to case.
func (l *Listener) hostAllowed(host string) bool {
	for _, h := range l.set.AllowedHosts {
		if strings.EqualFold(h, host) {
			return true
		}
	}
	if l.loopback {
		for _, h := range []string{"localhost", "127.0.0.1", "[::1]"} {
			if strings.EqualFold(host, h+":"+l.port) {
				return true
			}
		}
		if len(l.set.AllowedHosts) == 0 {
			bindHost, _, _ := net.SplitHostPort(l.set.Bind)
			if strings.EqualFold(host, net.JoinHostPort(bindHost, l.port)) {
				return true
			}
		}
	}
	return false
}

// originAllowed: no Origin, the listener's own loopback origin on a
// loopback bind, or one that is listed ("scheme://host:*" matches every
// port of the host).
func (l *Listener) originAllowed(origins []string) bool {
	if len(origins) == 0 {
		return true
	}
	if len(origins) > 1 {
		return false
	}
	o := origins[0]
	if l.loopback {
		// On a loopback bind the listener's own loopback origins are its
		// own: a DNS-rebinding page has a foreign one.
		for _, h := range []string{"localhost", "127.0.0.1", "[::1]"} {
			if strings.EqualFold(o, "http://"+h+":"+l.port) {
				return true
			}
		}
	}
	for _, a := range l.set.AllowedOrigins {
		if strings.EqualFold(a, o) {
			return true
		}
		if base, ok := strings.CutSuffix(a, ":*"); ok {
			rest, cut := strings.CutPrefix(strings.ToLower(o), strings.ToLower(base)+":")
			if cut && rest != "" && strings.Trim(rest, "0123456789") == "" {
				return true
			}
		}
	}
	return false
}

// acceptsBoth: the Accept values list application/json and
// text/event-stream, each with a q above 0; types compare without regard
// to case.
func acceptsBoth(vals []string) bool {
	jsonOK, sseOK := false, false
	for _, v := range vals {
		for _, part := range strings.Split(v, ",") {
			mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err != nil {
				continue
			}
			if q, ok := params["q"]; ok {
				if f, err := strconv.ParseFloat(q, 64); err != nil || f <= 0 {
					continue
				}
			}
			switch mt { // ParseMediaType lowers the case
			case "application/json":
				jsonOK = true
			case "text/event-stream":
				sseOK = true
			}
		}
	}
	return jsonOK && sseOK
}

// headerValue decodes a header that may carry the Base64 sentinel form
// =?base64?...?=.
func headerValue(v string) (string, bool) {
	if inner, ok := strings.CutPrefix(v, "=?base64?"); ok {
		if inner, ok = strings.CutSuffix(inner, "?="); ok {
			b, err := base64.StdEncoding.DecodeString(inner)
			if err != nil {
				return "", false
			}
			return string(b), true
		}
	}
	return v, true
}

func headerMismatch(what string) *rpcError {
	return &rpcError{code: codeHeaderMismatch, message: "Header mismatch: " + what}
}

// serveMessage serves one decoded message: the stateless revision as a
// session of one request, a handshake revision in its session.
func (l *Listener) serveMessage(ctx context.Context, w http.ResponseWriter, r *http.Request, caller string, m *message) {
	headerVersion := r.Header.Get("MCP-Protocol-Version")
	meta, hasMeta := metaOf(m)
	var bodyVersion json.RawMessage
	stateless := false
	if hasMeta {
		bodyVersion, stateless = meta[metaProtocolVersion]
	}
	if m.kind == kindResponse {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if stateless {
		l.serveStateless(ctx, w, r, caller, m, meta, headerVersion, bodyVersion)
		return
	}
	if headerVersion != "" {
		if rev := revisionOf(headerVersion); rev != nil && rev.stateless {
			// The header names the stateless revision and the body lacks
			// its required _meta field: a malformed request (-32602).
			l.srv.refused.add(httpCounters, reasonBadRequest)
			rpcRefusal(w, http.StatusBadRequest, m.id, &rpcError{code: codeInvalidParams,
				message: "Invalid params: _meta must carry " + metaProtocolVersion + " (a string)"})
			return
		}
	}
	l.serveHandshake(ctx, w, r, caller, m, headerVersion)
}

// serveStateless checks the protocol headers against the body and answers
// the request in a session of its own.
func (l *Listener) serveStateless(ctx context.Context, w http.ResponseWriter, r *http.Request, caller string, m *message, meta map[string]json.RawMessage, headerVersion string, bodyVersion json.RawMessage) {
	bad := func(e *rpcError) {
		l.srv.refused.add(httpCounters, reasonBadRequest)
		rpcRefusal(w, http.StatusBadRequest, m.id, e)
	}
	v, isStr := stringArg(bodyVersion)
	switch {
	case headerVersion == "":
		bad(headerMismatch("the MCP-Protocol-Version header is missing"))
		return
	case !isStr || headerVersion != v:
		bad(headerMismatch("MCP-Protocol-Version does not match _meta " + metaProtocolVersion))
		return
	}
	method := r.Header.Get("Mcp-Method")
	if m.kind == kindRequest {
		if method == "" {
			bad(headerMismatch("the Mcp-Method header is missing"))
			return
		}
		if method != m.method {
			bad(headerMismatch("Mcp-Method does not match the method"))
			return
		}
		if m.method == "tools/call" {
			name, _ := stringArg(m.params["name"])
			hv := r.Header.Get("Mcp-Name")
			dec, ok := headerValue(hv)
			if hv == "" {
				bad(headerMismatch("the Mcp-Name header is missing"))
				return
			}
			if !ok || dec != name {
				bad(headerMismatch("Mcp-Name does not match params.name"))
				return
			}
		}
	}
	ss := newSession(l.srv, caller, nil)
	ss.legacyOff = l.set.NoLegacyRevisions
	if _, rerr := ss.modernRevision(meta); rerr != nil {
		// Unsupported version (-32022) and missing capabilities: 400.
		if m.kind == kindNotification {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		bad(rerr)
		return
	}
	if m.kind == kindNotification {
		// No client notification exists over HTTP in this revision; a
		// notification is accepted and changes nothing.
		w.WriteHeader(http.StatusAccepted)
		return
	}
	switch m.method {
	case "server/discover", "tools/list", "tools/call", "prompts/list", "resources/list", "resources/templates/list":
	default:
		rpcRefusal(w, http.StatusNotFound, m.id, methodNotFound())
		return
	}
	out := newOneAnswer()
	ss.out = out
	l.mu.Lock()
	l.oneShots[ss] = struct{}{}
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		delete(l.oneShots, ss)
		l.mu.Unlock()
	}()
	ss.handleDecoded(m)
	l.await(ctx, w, r, ss, m, out.ch)
}

// await writes the answer of one request, or cancels its call when the
// response stream closes (REQ-MCP-007) or LIM-H5 ends (408).
func (l *Listener) await(ctx context.Context, w http.ResponseWriter, r *http.Request, ss *session, m *message, ch <-chan []byte) {
	select {
	case b := <-ch:
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(http.StatusOK)
		w.Write(b)
	case <-ctx.Done():
		key, _ := idKey(m.id)
		ss.cancelCall(key)
		if r.Context().Err() == nil {
			// LIM-H5 ended, not the client: 408.
			w.Header().Set("Connection", "close")
			l.refuse(w, r, http.StatusRequestTimeout, reasonRequestTimeout, true)
		}
	}
}

// oneAnswer is the answer writer of a session of one request.
type oneAnswer struct {
	mu   sync.Mutex
	ch   chan []byte
	done bool
}

func newOneAnswer() *oneAnswer { return &oneAnswer{ch: make(chan []byte, 1)} }

func (o *oneAnswer) write(_ []byte, gate answerGate, head, tail []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.done || !gate.keep() {
		return
	}
	o.done = true
	o.ch <- append(append(make([]byte, 0, len(head)+len(tail)), head...), tail...)
}

const headerSessionID = "Mcp-Session-Id"

// serveHandshake serves a message of a handshake revision: initialize
// opens a session, anything else needs one.
func (l *Listener) serveHandshake(ctx context.Context, w http.ResponseWriter, r *http.Request, caller string, m *message, headerVersion string) {
	sid := r.Header.Get(headerSessionID)
	if m.kind == kindRequest && m.method == "initialize" && sid == "" {
		l.initializeSession(ctx, w, r, caller, m)
		return
	}
	if sid == "" {
		l.srv.refused.add(httpCounters, reasonBadRequest)
		if m.kind == kindRequest {
			rpcRefusal(w, http.StatusBadRequest, m.id, &rpcError{code: codeInvalidRequest,
				message: "Bad Request: Session ID is required; send initialize first, or give _meta " + metaProtocolVersion})
			return
		}
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	s := l.sessions.get(sid, caller)
	if s == nil {
		// Unknown, expired or terminated: the client starts again.
		l.srv.refused.add(httpCounters, reasonNotFound)
		if m.kind == kindRequest {
			rpcRefusal(w, http.StatusNotFound, m.id, &rpcError{code: codeInvalidRequest, message: "Session not found"})
			return
		}
		w.WriteHeader(http.StatusNotFound)
		return
	}
	defer l.sessions.release(s)
	if rev := s.ss.negotiated.Load(); rev != nil && headerVersion != "" && headerVersion != rev.version {
		l.srv.refused.add(httpCounters, reasonBadRequest)
		rpcRefusal(w, http.StatusBadRequest, m.id, headerMismatch("MCP-Protocol-Version does not match the negotiated revision"))
		return
	}
	w.Header().Set(headerSessionID, s.id)
	if m.kind != kindRequest {
		s.ss.handleDecoded(m)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	key, _ := idKey(m.id)
	ch, ok := s.routes.route(key)
	if !ok {
		rpcRefusal(w, http.StatusOK, m.id, &rpcError{code: codeInvalidRequest, message: "Invalid Request: this id is already used by a call in flight"})
		return
	}
	defer s.routes.unroute(key)
	s.ss.handleDecoded(m)
	l.await(ctx, w, r, s.ss, m, ch)
}

// initializeSession opens a session for an initialize (503 at LIM-H6) and
// keeps it when the handshake succeeded.
func (l *Listener) initializeSession(ctx context.Context, w http.ResponseWriter, r *http.Request, caller string, m *message) {
	if l.set.NoLegacyRevisions {
		ss := newSession(l.srv, caller, nil)
		ss.legacyOff = true
		v, _ := stringArg(m.params["protocolVersion"])
		l.srv.refused.add(httpCounters, reasonBadRequest)
		rpcRefusal(w, http.StatusBadRequest, m.id, ss.unsupportedVersion(v))
		return
	}
	s, ok := l.sessions.open(l.srv, caller)
	if !ok {
		w.Header().Set("Retry-After", retryAfterSessions)
		l.refuse(w, r, http.StatusServiceUnavailable, reasonSessionLimit, true)
		return
	}
	key, _ := idKey(m.id)
	ch, _ := s.routes.route(key)
	s.ss.handleDecoded(m)
	select {
	case b := <-ch:
		l.sessions.release(s)
		if s.ss.negotiated.Load() == nil {
			// The handshake failed (no protocolVersion): no session.
			l.sessions.drop(s.id, caller)
		} else {
			w.Header().Set(headerSessionID, s.id)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		w.Write(b)
	case <-ctx.Done():
		l.sessions.release(s)
		l.sessions.drop(s.id, caller)
	}
}

// deleteSession ends a session (DELETE with its Mcp-Session-Id).
func (l *Listener) deleteSession(w http.ResponseWriter, r *http.Request, caller string) {
	sid := r.Header.Get(headerSessionID)
	if sid == "" {
		l.refuse(w, r, http.StatusBadRequest, reasonBadRequest, false)
		return
	}
	if !l.sessions.drop(sid, caller) {
		l.refuse(w, r, http.StatusNotFound, reasonNotFound, false)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
