package robots

import (
	"os"
	"strings"
	"testing"
)

// FuzzParse reads arbitrary bytes as a robots.txt and asks about an
// arbitrary path: nothing may panic, "/robots.txt" stays allowed, the
// canonical form of a path is stable, and the verdict depends only on it.
// The committed corpus is in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add([]byte(rfc9309Simple), "/example/page.html")
	f.Add([]byte("\xEF\xBB\xBFuser-agent: rypsok\r\ndisallow: /a*b$\rallow: /a%2Ab\n"), "/a*b")
	f.Add([]byte("user-agent: *\ndisallow: /"+strings.Repeat("*a", 64)+"$\n"), "/"+strings.Repeat("a", 200))
	f.Add([]byte("useragent rypsok\ndissallow /%7e%zz%\nallow: /ツ\n"), "/%E3%83%84?q=%7e")
	f.Add([]byte("disallow: /\nuser-agent:\nuser-agent: *\n"), "")
	if body, err := os.ReadFile("testdata/realistic-100.txt"); err == nil {
		f.Add(body, "/products/shoe?variant=2&utm_source=x")
	}
	f.Fuzz(func(t *testing.T, body []byte, path string) {
		r := Parse(body)
		got := r.Allowed(Product, path)
		r.Allowed("*", path)
		r.Allowed("", path)
		if !r.Allowed(Product, "/robots.txt") {
			t.Fatal("/robots.txt disallowed")
		}
		canon := normalizePath(path)
		if again := normalizePath(canon); again != canon {
			t.Fatalf("canonical form not stable: %q -> %q -> %q", path, canon, again)
		}
		if strings.HasPrefix(path, "/") && r.Allowed(Product, canon) != got {
			t.Fatalf("verdict for %q differs from its canonical form %q", path, canon)
		}
		if kept := verdictOf(r).allowed(path); kept != got {
			t.Fatalf("the cached verdict for %q is %v, the parsed file says %v", path, kept, got)
		}
	})
}
