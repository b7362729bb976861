package fetch

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"rypsok/tool"
)

// FuzzResponseHeaders feeds the parts of a response that fetch reads
// itself: the Content-Type with the body it may sniff, Retry-After, and a
// redirect's Location. None may panic; every answer stays within its
// bounds and a redirect target is only ever an admitted https URL.
func FuzzResponseHeaders(f *testing.F) {
	f.Add("text/html; charset=utf-8", "120", "/next", []byte("<!doctype html><p>x"))
	f.Add("", "Wed, 21 Oct 2026 07:28:00 GMT", "https://b.example.com/x", []byte("plain"))
	f.Add("application/x-evil<script>", "99999", "http://a.example.com:80/", []byte{0, 1, 2})
	f.Add("TEXT/MARKDOWN ; x=\"", "-1", "//10.0.0.1/", []byte("# t"))
	f.Add(";;;", "+5", "javascript:alert(1)", []byte("\xef\xbb\xbf<html>"))
	f.Add("text/plain", "3600", "https://user:pw@a.example.com/", []byte("\xff\xfe"))
	f.Add("image/png", "0", "http://[::1", []byte("\x89PNG"))
	f.Add("text/x-markdown", "", "https://a.example.com/"+strings.Repeat("%", 2100), []byte(""))
	svc := New(DefaultSettings(), Deps{})
	base, _ := url.Parse("https://a.example.com/dir/page?q=1")
	cur := hop{u: base, text: base.String()}
	f.Fuzz(func(t *testing.T, contentType, retryAfter, location string, body []byte) {
		kind, mt := mediaTypeOf(contentType, body)
		if kind == kindUnsupported {
			terr := tool.UnsupportedMediaType(mt)
			if n := len(terr.Detail.MediaType); n == 0 || n > tool.MaxMediaTypeChars {
				t.Fatalf("media_type of %d bytes", n)
			}
		}
		if ms := retryAfterMs(retryAfter); ms < 0 || ms > maxRetryAfterSeconds*1000 {
			t.Fatalf("retry_after_ms %d", ms)
		}
		next, terr := svc.redirectTarget(t.Context(), cur, location)
		if terr != nil {
			if terr.Kind == tool.KindDenied && terr.Detail.Location != "" {
				t.Fatal("a refused target is disclosed")
			}
			return
		}
		if next.u.Scheme != "https" || utf8.RuneCountInString(next.text) > tool.MaxURLChars {
			t.Fatalf("target %q", next.text)
		}
		if d := svc.set.Policy.CheckURL(next.u); d != nil {
			t.Fatalf("a refused target was admitted: %s", d.Class)
		}
		if r := tool.Redirected(next.text); r.Kind != tool.KindRedirected {
			t.Fatalf("an admitted target cannot be reported: %q", next.text)
		}
	})
}
