package fetch

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"rypsok/tool"
)

// plainText is n bytes of text/plain made of numbered lines, so that a
// missing or repeated part shows in the content.
func plainText(n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "line %07d of the compressed page\n", i)
	}
	return b.Bytes()[:n]
}

// TestREQ_SEC_013_CompressedBodyWithinTheLimitIsWhole: a gzip-encoded page
// whose decompressed size is within max_bytes comes back whole, at sizes
// around the reader's buffer boundaries and at the limit itself, with and
// without Content-Length, chunked and not; one byte over is too_large.
func TestREQ_SEC_013_CompressedBodyWithinTheLimitIsWhole(t *testing.T) {
	const limit = 64 << 10
	sizes := []int{1, 4095, 4096, 4097, 8191, 8192, 8193, 16384, 32767, 32768, 32769, limit - 1, limit}
	for _, framing := range []string{"content-length", "chunked", "http2"} {
		for _, n := range sizes {
			body := plainText(n)
			var z bytes.Buffer
			zw := gzip.NewWriter(&z)
			_, _ = zw.Write(body)
			_ = zw.Close()
			st := &site{}
			st.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain; charset=utf-8")
				w.Header().Set("Content-Encoding", "gzip")
				if framing == "content-length" {
					w.Header().Set("Content-Length", strconv.Itoa(z.Len()))
					_, _ = w.Write(z.Bytes())
					return
				}
				// Chunked on HTTP/1.1, DATA frames on HTTP/2: written in
				// pieces that do not fall on the buffer sizes.
				rc := http.NewResponseController(w)
				for rest := z.Bytes(); len(rest) > 0; {
					k := min(len(rest), 1000)
					_, _ = w.Write(rest[:k])
					_ = rc.Flush()
					rest = rest[k:]
				}
			}))
			st.EnableHTTP2 = framing == "http2"
			st.StartTLS()
			t.Cleanup(st.Close)
			e := newEnv(t, func(s *Settings) { s.MaxBytes = limit; s.IgnoreRobotsTxt = true; s.MaxCharsCeiling = 1 << 20 }, st)
			resp, terr := e.fetch(t, st.url("a.example.com", "/page"), 1<<20, 0)
			if terr != nil {
				t.Errorf("%s, %d bytes: %v", framing, n, terr)
				continue
			}
			if got := resp.Content; strings.TrimSpace(got) != strings.TrimSpace(string(body)) {
				t.Errorf("%s, %d bytes: %d characters came back", framing, n, len(got))
			}
		}
	}
}

// TestREQ_SEC_013_CompressedBodyOneOverTheLimitIsTooLarge: the limit counts
// decompressed bytes.
func TestREQ_SEC_013_CompressedBodyOneOverTheLimitIsTooLarge(t *testing.T) {
	const limit = 64 << 10
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	_, _ = zw.Write(plainText(limit + 1))
	_ = zw.Close()
	st := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(z.Bytes())
	})
	e := newEnv(t, func(s *Settings) { s.MaxBytes = limit; s.IgnoreRobotsTxt = true }, st)
	e.mustFetchErr(t, st.url("a.example.com", "/page"), tool.KindTooLarge, "")
}
