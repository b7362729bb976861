package fetch_test

import (
	"context"
	"crypto/x509"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"rypsok/egress"
	"rypsok/fetch"
	"rypsok/tool"
)

// A host builds the service from its settings and reads a page. The
// loopback server is reached only because the example injects an allow
// rule for 127.0.0.1; the production policy refuses it.
func Example() {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/markdown")
		fmt.Fprint(w, "# Notes\n\nEvery value in Rust has one owner.\n")
	}))
	defer srv.Close()

	s := fetch.DefaultSettings()
	s.IgnoreRobotsTxt = true
	allow, _ := egress.ParseRule("127.0.0.1")
	s.Policy.Allow = []egress.Rule{allow}
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	svc := fetch.New(s, fetch.Deps{Now: time.Now, Roots: roots, UserAgent: "rypsok/example"})

	resp, terr := svc.Fetch(context.Background(), tool.FetchRequest{URL: srv.URL + "/notes", MaxChars: 500})
	if terr != nil {
		fmt.Println(terr.Kind, terr.Detail.Reason)
		return
	}
	fmt.Printf("%s\n%q\ntruncated: %v\n", resp.Title, resp.Content, resp.Truncated)

	_, terr = svc.Fetch(context.Background(), tool.FetchRequest{URL: "http://192.168.1.10/admin", MaxChars: 500})
	fmt.Println(terr.Kind, terr.Detail.Reason)
	// Output:
	// Notes
	// "# Notes\n\nEvery value in Rust has one owner."
	// truncated: false
	// denied egress
}
