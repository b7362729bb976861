package robots_test

import (
	"context"
	"fmt"
	"net/url"

	"rypsok/robots"
)

func ExampleParse() {
	r := robots.Parse([]byte(`User-agent: *
Disallow: /private/
Allow: /private/press-kit
Disallow: /*.pdf$
`))
	for _, p := range []string{"/about", "/private/notes", "/private/press-kit", "/files/report.pdf"} {
		fmt.Println(p, r.Allowed(robots.Product, p))
	}
	// Output:
	// /about true
	// /private/notes false
	// /private/press-kit true
	// /files/report.pdf false
}

func ExampleChecker() {
	// A Getter stands in for the fetch pipeline's egress-checked client.
	get := func(_ context.Context, u *url.URL) (robots.Response, error) {
		if u.Host == "docs.example" {
			return robots.Response{Status: 200, Body: []byte("User-agent: rypsok\nDisallow: /drafts/\n")}, nil
		}
		return robots.Response{Status: 503}, nil
	}
	c := robots.NewChecker(robots.Options{Get: get, MaxEntries: 1000})
	for _, s := range []string{"https://docs.example/guide", "https://docs.example/drafts/v2", "https://down.example/page"} {
		u, _ := url.Parse(s)
		ok, err := c.Allowed(context.Background(), u)
		fmt.Println(s, ok, err)
	}
	// Output:
	// https://docs.example/guide true <nil>
	// https://docs.example/drafts/v2 false <nil>
	// https://down.example/page false <nil>
}
