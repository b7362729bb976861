package robots

import (
	"context"
	"net/url"
	"os"
	"testing"
)

// benchPaths are paths a fetch might ask about on the site of
// testdata/realistic-100.txt: allowed, disallowed by a prefix, by a
// wildcard, by an end anchor, and allowed after a long scan.
var benchPaths = []string{
	"/products/running-shoe-42",
	"/checkout/payment",
	"/category/shoes?sort=price&color=red",
	"/downloads/catalogue-2026.pdf",
	"/news/2026/05/a-fairly-long-article-title-about-the-new-season?utm_source=newsletter&utm_medium=email",
	"/wp-content/uploads/2026/05/photo.jpg",
}

func loadRealistic(tb testing.TB) *Robots {
	tb.Helper()
	body, err := os.ReadFile("testdata/realistic-100.txt")
	if err != nil {
		tb.Fatal(err)
	}
	return Parse(body)
}

func TestREQ_CMP_005_RealisticFile(t *testing.T) {
	r := loadRealistic(t)
	for _, c := range []check{
		{Product, "/products/running-shoe-42", true},
		{Product, "/products/shoe?variant=3", false},
		{Product, "/checkout/payment", false},
		{Product, "/category/shoes?sort=price&color=red", false},
		{Product, "/downloads/catalogue-2026.pdf", false},
		{Product, "/api/public/items.json", true},
		{Product, "/api/private.json", false},
		{Product, "/news/2026/05/title?utm_source=x", false},
		{Product, "/news/2026/05/title", true},
		{Product, "/news/feed/", true},
		{Product, "/archive/2009/x", true},
		{Product, "/archive/2008/x", false},
		{Product, "/~users/me", false},
		{Product, "/wp-content/uploads/2026/05/photo.jpg", true},
		{"GPTBot", "/products/running-shoe-42", false},
		{"Googlebot-Image", "/images/a.gif", true}, // "/images/" is longer than "/*.gif$"
		{"Googlebot-Image", "/logo.gif", false},
		{"Googlebot-Image", "/images/a.png", true},
	} {
		if got := r.Allowed(c.product, c.path); got != c.want {
			t.Errorf("Allowed(%q, %q) = %v, want %v", c.product, c.path, got, c.want)
		}
	}
}

// BenchmarkAllowed is one question to a parsed 100-rule file (89 rules in
// the group rypsok reads); ns/op is per path, averaged over benchPaths.
func BenchmarkAllowed(b *testing.B) {
	r := loadRealistic(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		r.Allowed(Product, benchPaths[i%len(benchPaths)])
	}
}

// BenchmarkParse reads the 100-rule file.
func BenchmarkParse(b *testing.B) {
	body, err := os.ReadFile("testdata/realistic-100.txt")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		Parse(body)
	}
}

// BenchmarkCheckerAllowedCached is a Checker question whose origin's
// verdict is cached: the cost a fetch pays per URL after the first.
func BenchmarkCheckerAllowedCached(b *testing.B) {
	body, err := os.ReadFile("testdata/realistic-100.txt")
	if err != nil {
		b.Fatal(err)
	}
	get := func(context.Context, *url.URL) (Response, error) {
		return Response{Status: 200, Body: body}, nil
	}
	c := NewChecker(Options{Get: get})
	urls := make([]*url.URL, len(benchPaths))
	for i, p := range benchPaths {
		urls[i] = mustURL(b, "https://shop.example"+p)
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := c.Allowed(ctx, urls[i%len(urls)]); err != nil {
			b.Fatal(err)
		}
	}
}
