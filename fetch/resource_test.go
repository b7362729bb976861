package fetch

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"rypsok/tool"
)

const smallLimit = 64 << 10

// gzipBomb is a gzip stream of n MiB of zero bytes: one member of 1 MiB
// repeated (a reader reads concatenated members as one stream).
func gzipBomb(t testing.TB, n int) []byte {
	t.Helper()
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if _, err := zw.Write(make([]byte, 1<<20)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return bytes.Repeat(b.Bytes(), n)
}

func TestREQ_SEC_013_GzipBombIsTooLarge(t *testing.T) {
	bomb := gzipBomb(t, 256)
	st := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			t.Errorf("gzip was not negotiated")
		}
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(bomb)
	})
	e := newEnv(t, func(s *Settings) { s.MaxBytes = smallLimit; s.IgnoreRobotsTxt = true }, st)
	e.mustFetchErr(t, st.url("a.example.com", "/bomb"), tool.KindTooLarge, "")

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, terr := e.fetch(t, st.url("a.example.com", "/bomb"), 3000, 0)
	runtime.ReadMemStats(&after)
	if terr == nil || terr.Kind != tool.KindTooLarge || terr.Detail.LimitBytes != smallLimit {
		t.Fatalf("got %v, want too_large with the limit", terr)
	}
	// 256 MiB of page would be needed to hold it; the call allocates a
	// small multiple of the limit (plus the TLS and gzip buffers).
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Fatalf("the call allocated %d bytes for a limit of %d", grew, smallLimit)
	}
}

func TestREQ_PAGE_003_EndlessBodyIsTooLarge(t *testing.T) {
	st := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		chunk := bytes.Repeat([]byte("endless text "), 1000)
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	e := newEnv(t, func(s *Settings) { s.MaxBytes = smallLimit }, st)
	e.mustFetchErr(t, st.url("a.example.com", "/endless"), tool.KindTooLarge, "")
}

func TestREQ_PAGE_003_BodyAtTheLimitIsRead(t *testing.T) {
	text := strings.Repeat("x", smallLimit-1) + "\n"
	st := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte(text + r.URL.Query().Get("more")))
	})
	e := newEnv(t, func(s *Settings) { s.MaxBytes = smallLimit }, st)
	resp := e.mustFetch(t, st.url("a.example.com", "/exact"), 20000, 0)
	if !resp.Truncated || resp.Content != strings.Repeat("x", 20000) {
		t.Fatalf("a body of exactly the limit was not read")
	}
	e.mustFetchErr(t, st.url("a.example.com", "/over?more=y"), tool.KindTooLarge, "")
}

// TestREQ_PAGE_003_ContentLengthIsNotTrusted: a Content-Length that
// understates the body (the body is framed by chunks or by the end of the
// connection) does not lift the limit, and one that overstates it does not
// refuse a small page.
func TestREQ_PAGE_003_ContentLengthIsNotTrusted(t *testing.T) {
	big := bytes.Repeat([]byte("lying length "), 2*smallLimit/13)
	st := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Errorf("hijack: %v", err)
			return
		}
		defer conn.Close()
		switch r.URL.Path {
		case "/chunked-with-length":
			_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 10\r\nTransfer-Encoding: chunked\r\n\r\n")
			for off := 0; off < len(big); off += 4096 {
				chunk := big[off:min(off+4096, len(big))]
				_, _ = buf.WriteString(strings.ToUpper(strconvHex(len(chunk))) + "\r\n")
				_, _ = buf.Write(chunk)
				_, _ = buf.WriteString("\r\n")
			}
			_, _ = buf.WriteString("0\r\n\r\n")
		case "/close-delimited":
			_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n")
			_, _ = buf.Write(big)
		case "/overstated":
			_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000000000\r\nConnection: close\r\n\r\nshort page")
		}
		_ = buf.Flush()
	})
	e := newEnv(t, func(s *Settings) { s.MaxBytes = smallLimit; s.IgnoreRobotsTxt = true }, st)
	for _, path := range []string{"/chunked-with-length", "/close-delimited"} {
		e.mustFetchErr(t, st.url("a.example.com", path), tool.KindTooLarge, "")
	}
	// The body ends before the declared length: a broken response.
	_, terr := e.fetch(t, st.url("a.example.com", "/overstated"), 3000, 0)
	wantError(t, terr, tool.KindUnavailable, tool.ReasonNetwork)
}

func strconvHex(n int) string {
	const digits = "0123456789abcdef"
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 16 {
		b = append([]byte{digits[n%16]}, b...)
	}
	return string(b)
}

// TestREQ_SEC_011_SlowBodyEndsAtTheDeadline: a body that trickles one byte
// a second is cut at the fetch deadline, and the call ends within LIM-F5.
func TestREQ_SEC_011_SlowBodyEndsAtTheDeadline(t *testing.T) {
	st := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		rc := http.NewResponseController(w)
		for r.Context().Err() == nil {
			_, _ = w.Write([]byte("x"))
			_ = rc.Flush()
			select {
			case <-r.Context().Done():
			case <-time.After(time.Second):
			}
		}
	})
	const deadline = time.Second
	e := newEnv(t, func(s *Settings) { s.Deadline = deadline; s.IgnoreRobotsTxt = true }, st)
	start := time.Now()
	_, terr := e.fetch(t, st.url("a.example.com", "/slow"), 3000, 0)
	took := time.Since(start)
	wantError(t, terr, tool.KindUnavailable, tool.ReasonDeadline)
	// LIM-F5 is the deadline plus 1 s; a loaded machine gets another second.
	if took > deadline+extractionReserve+time.Second {
		t.Fatalf("the call took %v", took)
	}
}

// TestREQ_SEC_011_SilentServerEndsAtTheDeadline: a server that accepts and
// never answers (robots.txt included) ends the call at the deadline.
func TestREQ_SEC_011_SilentServerEndsAtTheDeadline(t *testing.T) {
	release := make(chan struct{})
	st := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	st.setRobots(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	const deadline = time.Second
	for _, robotsTxt := range []bool{true, false} {
		e := newEnv(t, func(s *Settings) { s.Deadline = deadline; s.IgnoreRobotsTxt = !robotsTxt }, st)
		start := time.Now()
		_, terr := e.fetch(t, st.url("a.example.com", "/page"), 3000, 0)
		wantError(t, terr, tool.KindUnavailable, tool.ReasonDeadline)
		if took := time.Since(start); took > deadline+extractionReserve+time.Second {
			t.Fatalf("robots %v: the call took %v", robotsTxt, took)
		}
	}
}

func TestREQ_PAGE_006_BoundsOfTheDocument(t *testing.T) {
	text := "<p>The text before the deep part of the document, long enough to be the main content.</p>"
	nested := func(depth int) string {
		return "<html><body>" + text + strings.Repeat("<div>", depth) + "<p>deep text</p>" + strings.Repeat("</div>", depth) + "</body></html>"
	}
	var flat strings.Builder
	flat.WriteString("<html><body>" + text)
	for range 75000 {
		flat.WriteString("<p>x</p>") // an element and a text node: 150 000 nodes
	}
	flat.WriteString("</body></html>")
	pages := map[string]string{
		"/shallow":    nested(100),
		"/deep":       nested(300),
		"/very-deep":  nested(100000),
		"/many-nodes": flat.String(),
	}
	st := newSite(t, func(w http.ResponseWriter, r *http.Request) { html(pages[r.URL.Path])(w, r) })
	e := newEnv(t, nil, st)
	for path, partial := range map[string]bool{"/shallow": false, "/deep": true, "/very-deep": true, "/many-nodes": true} {
		resp := e.mustFetch(t, st.url("a.example.com", path), 3000, 0)
		if got := hasNotice(resp, tool.CodeExtractionPartial); got != partial {
			t.Errorf("%s: extraction_partial %v, want %v (notices %v)", path, got, partial, resp.Notices)
		}
		if !strings.Contains(resp.Content, "before the deep part") {
			t.Errorf("%s: the content before the cut is missing: %.80q", path, resp.Content)
		}
	}
}

func hasNotice(resp *tool.FetchResponse, code tool.Code) bool {
	for _, n := range resp.Notices {
		if n.Code == code {
			return true
		}
	}
	return false
}

// TestREQ_PAGE_007_HostileCharsets: declared, missing, wrong and unknown
// charsets all give valid UTF-8 content and never fail the call.
func TestREQ_PAGE_007_HostileCharsets(t *testing.T) {
	para := "<p>Zürich, Ελλάδα and 東京 are names in a page with enough text to be read as its content.</p>"
	utf16 := func(s string, bom bool) string {
		var b []byte
		if bom {
			b = append(b, 0xFF, 0xFE)
		}
		for _, r := range s {
			if r > 0xFFFF {
				r = '?'
			}
			b = append(b, byte(r), byte(r>>8))
		}
		return string(b)
	}
	cases := []struct {
		name, contentType, body, want string
	}{
		{"utf-8 declared", "text/html; charset=utf-8", para, "Zürich"},
		{"bom utf-16le", "text/html", utf16(para, true), "東京"},
		{"bom beats header", "text/html; charset=iso-8859-1", "\xef\xbb\xbf" + para, "Ελλάδα"},
		{"utf-7 label", "text/html; charset=utf-7", para, "Zürich"},
		{"unknown label", "text/html; charset=no-such-charset", para, "Zürich"},
		{"replacement label", "text/html; charset=iso-2022-kr", para, "Zürich"},
		{"meta latin1", "text/html", "<meta charset=\"iso-8859-1\">" + "<p>Z\xfcrich is a city and this paragraph is long enough to be read.</p>", "Zürich"},
		{"wrong label utf-16", "text/html; charset=utf-16", para, ""}, // mojibake, but valid UTF-8
		{"invalid utf-8", "text/html; charset=utf-8", "<p>broken \xff\xfe\xc3 bytes in a paragraph that is long enough to be read.</p>", "broken"},
		{"shift_jis undeclared", "text/plain", "\x93\x8c\x8b\x9e\x82\xcd\x93\xfa\x96\x7b\x82\xcc\x8e\xf1\x93\x73\x82\xc5\x82\xb7\x81\x42", "東京"},
		{"text with NUL", "text/plain; charset=utf-8", "a\x00b text", "a"},
	}
	st := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		for _, c := range cases {
			if r.URL.Query().Get("case") == c.name {
				w.Header().Set("Content-Type", c.contentType)
				_, _ = w.Write([]byte(c.body))
			}
		}
	})
	e := newEnv(t, nil, st)
	for _, c := range cases {
		resp := e.mustFetch(t, st.url("a.example.com", "/?case="+url.QueryEscape(c.name)), 3000, 0)
		if !utf8.ValidString(resp.Content) || !utf8.ValidString(resp.Title) || !strings.Contains(resp.Content, c.want) {
			t.Errorf("%s: content %q", c.name, resp.Content)
		}
	}
}

// TestREQ_SEC_014_PanickingExtractionIsContained: a panic in extraction is
// the error extraction_failed, logged without its value, and the service
// goes on.
func TestREQ_SEC_014_PanickingExtractionIsContained(t *testing.T) {
	st := newSite(t, html(pageHTML))
	e := newEnv(t, nil, st)
	e.svc.process = func([]byte, string, mediaKind, *url.URL, int, bool) (page, error) {
		panic("PANIC-VALUE-FROM-A-PAGE")
	}
	e.mustFetchErr(t, st.url("a.example.com", "/page"), tool.KindUnsupportedContent, tool.ReasonExtractionFailed)
	if strings.Contains(e.logs.String(), "PANIC-VALUE") {
		t.Fatal("the panic value is in the log")
	}
	if len(e.logs.events(t, "extraction_panic")) != 1 {
		t.Fatal("the panic was not logged")
	}
	e.svc.process = process
	e.mustFetch(t, st.url("a.example.com", "/page"), 3000, 0)
}

// TestREQ_PAGE_008_ExtractionDoesNotExtendTheCall: an extraction that does
// not finish ends the call with deadline within LIM-F5; its permit is held
// until it returns.
func TestREQ_PAGE_008_ExtractionDoesNotExtendTheCall(t *testing.T) {
	st := newSite(t, html(pageHTML))
	const deadline = time.Second
	e := newEnv(t, func(s *Settings) { s.Deadline = deadline; s.ParsingInFlight = 1 }, st)
	release := make(chan struct{})
	finished := make(chan struct{})
	e.svc.process = func(b []byte, ct string, k mediaKind, u *url.URL, n int, strict bool) (page, error) {
		<-release
		defer close(finished)
		return process(b, ct, k, u, n, strict)
	}
	start := time.Now()
	_, terr := e.fetch(t, st.url("a.example.com", "/page"), 3000, 0)
	wantError(t, terr, tool.KindUnavailable, tool.ReasonDeadline)
	if took := time.Since(start); took > deadline+extractionReserve+time.Second {
		t.Fatalf("the call took %v", took)
	}
	if len(e.svc.parsing) != 1 {
		t.Fatal("the unfinished extraction gave back its permit")
	}
	close(release)
	<-finished
	waitFor(t, "the permit", func() bool { return len(e.svc.parsing) == 0 })
}

// mustFetchErr fetches and checks the error's kind and reason.
func (e *env) mustFetchErr(t testing.TB, u string, kind tool.Kind, reason tool.Reason) *tool.Error {
	t.Helper()
	_, terr := e.fetch(t, u, 3000, 0)
	wantError(t, terr, kind, reason)
	return terr
}

// TestREQ_PAGE_006_PageShownByScriptsSaysSo: a page whose text is only in
// a noscript fallback, or hidden until a script shows it, ends in
// extraction_failed with a message that says why; an empty page keeps
// the plain message. Under the amended REQ-CTX-005 (read_collapsed, the
// default) the noscript fallback of such a page is what a browser with
// scripting off shows, and is returned (opened).
func TestREQ_PAGE_006_PageShownByScriptsSaysSo(t *testing.T) {
	post := strings.Repeat("The first post of the thread asks which telescope suits a beginner who lives in a city. ", 6)
	cases := []struct {
		name, page string
		scripts    bool
		opened     bool
	}{
		{"noscript fallback", "<html><body><div id=app></div><noscript><div class=post><p>" + post + "</p></div></noscript></body></html>", true, true},
		{"hidden until a script shows it", "<html><body><div style=\"visibility:hidden\"><p>" + post + "</p></div></body></html>", true, false},
		{"empty", "<html><body><div id=app></div></body></html>", false, false},
	}
	for _, strict := range []bool{true, false} {
		for _, c := range cases {
			st := newSite(t, html(c.page))
			e := newEnv(t, func(s *Settings) { s.StrictHidden = strict }, st)
			if c.opened && !strict {
				resp := e.mustFetch(t, st.url("a.example.com", "/page"), 3000, 0)
				if !strings.Contains(resp.Content, "which telescope suits a beginner") {
					t.Errorf("%s, read collapsed: content %q", c.name, resp.Content)
				}
				continue
			}
			terr := e.mustFetchErr(t, st.url("a.example.com", "/page"), tool.KindUnsupportedContent, tool.ReasonExtractionFailed)
			if got := strings.Contains(terr.Message, "only through scripts"); got != c.scripts {
				t.Errorf("%s, strict=%v: message %q", c.name, strict, terr.Message)
			}
			if strings.Contains(terr.Message, "telescope") {
				t.Errorf("%s, strict=%v: page text in the message", c.name, strict)
			}
		}
	}
}
