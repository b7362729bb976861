package egress

import (
	"crypto/x509"
	"testing"
)

// TestREQ_SEC_017_InstanceBaseURLs: the base URL of an instance the
// operator runs (SearXNG) may be plain http on any host; everything else
// the engine base URL rule refuses stays refused, and IsLoopbackURL tells
// check when to warn.
func TestREQ_SEC_017_InstanceBaseURLs(t *testing.T) {
	cases := []struct {
		url, msg string
		loopback bool
	}{
		{"http://searx.lan:8888/", "", false},
		{"http://10.0.0.5/search", "", false},
		{"http://127.0.0.1:8888", "", true},
		{"http://[::1]:8888/", "", true},
		{"http://localhost/", "", true},
		{"https://searx.example.org/", "", false},
		{"http://user:pw@searx.lan/", "must not carry a user name or password", false},
		{"ftp://searx.lan/", "must be an absolute https URL", false},
		{"http://searx.lan:0/", "must be an absolute https URL", false},
		{"http:opaque", "must be an absolute https URL", false},
	}
	for _, c := range cases {
		u := mustURL(t, c.url)
		got := ""
		if err := CheckInstanceURL(u); err != nil {
			got = err.Error()
		}
		if got != c.msg {
			t.Errorf("CheckInstanceURL(%q) = %q, want %q", c.url, got, c.msg)
		}
		_, err := NewEngineClient(EngineClientOptions{Origin: u, Roots: x509.NewCertPool(), PlainHTTP: true})
		if (err == nil) != (c.msg == "") {
			t.Errorf("NewEngineClient(%q, PlainHTTP) = %v, want accepted %v", c.url, err, c.msg == "")
		}
		if c.msg == "" && IsLoopbackURL(u) != c.loopback {
			t.Errorf("IsLoopbackURL(%q) = %v", c.url, !c.loopback)
		}
	}
	// Without PlainHTTP the rule for every other engine holds.
	if _, err := NewEngineClient(EngineClientOptions{Origin: mustURL(t, "http://searx.lan/"), Roots: x509.NewCertPool()}); err == nil {
		t.Error("a plain-http origin off loopback was admitted without PlainHTTP")
	}
	if CheckInstanceURL(nil) == nil || IsLoopbackURL(nil) {
		t.Error("nil accepted")
	}
}
