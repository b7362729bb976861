package search

import (
	"net/url"
	"strings"
	"testing"
)

// TestREQ_RANK_002_OneKeyPerWork: the addresses of one arXiv paper, of one
// DOI and of one Stack Exchange question share a comparison key (issue 19,
// item 4); neighbours that are other works do not.
func TestREQ_RANK_002_OneKeyPerWork(t *testing.T) {
	groups := [][]string{
		{
			"https://arxiv.org/abs/2401.01234v2", "http://arxiv.org/abs/2401.01234", "https://arxiv.org/pdf/2401.01234",
			"https://arxiv.org/pdf/2401.01234v1.pdf", "https://www.arxiv.org/abs/2401.01234/", "https://export.arxiv.org/abs/2401.01234v3",
			"https://doi.org/10.48550/arXiv.2401.01234", "https://doi.org/10.48550/arxiv.2401.01234", "http://dx.doi.org/10.48550/ARXIV.2401.01234",
		},
		{"https://arxiv.org/abs/hep-th/9901001v2", "https://arxiv.org/pdf/hep-th/9901001", "https://doi.org/10.48550/arXiv.hep-th/9901001"},
		{"https://arxiv.org/abs/math.GT/0309136", "https://doi.org/10.48550/arXiv.math.GT/0309136"},
		{"https://doi.org/10.1000/EXAMPLE.2026.001", "https://doi.org/10.1000/example.2026.001", "http://dx.doi.org/10.1000/Example.2026.001"},
		{
			"https://stackoverflow.com/q/231767", "https://stackoverflow.com/q/231767/12345", "https://stackoverflow.com/questions/231767",
			"https://stackoverflow.com/questions/231767/what-does-the-yield-keyword-do", "https://www.stackoverflow.com/questions/231767/what-does-the-yield-keyword-do/",
		},
		{"https://unix.stackexchange.com/q/42", "https://unix.stackexchange.com/questions/42/slug"},
		{"https://askubuntu.com/q/7", "https://askubuntu.com/questions/7/how"},
	}
	keys := map[string]int{}
	for g, urls := range groups {
		for _, u := range urls {
			n, why := normalizeURL(u)
			if why != "" {
				t.Fatalf("%s dropped: %s", u, why)
			}
			if prev, ok := keys[n.key]; ok && prev != g {
				t.Errorf("%s shares its key %q with group %d", u, n.key, prev)
			}
			keys[n.key] = g
		}
		first, _ := normalizeURL(urls[0])
		for _, u := range urls[1:] {
			if n, _ := normalizeURL(u); n.key != first.key {
				t.Errorf("%s: key %q, want %q (as %s)", u, n.key, first.key, urls[0])
			}
		}
	}
	// Other works, other pages and look-alikes keep their own keys.
	for _, u := range []string{
		"https://arxiv.org/abs/2401.01235", "https://arxiv.org/list/cs.CL/recent", "https://arxiv.org/abs/2401.0123",
		"https://notarxiv.org/abs/2401.01234", "https://arxiv.org:8443/abs/2401.01234", "https://doi.org/10.48550/arXiv.2401.01235",
		"https://doi.org/10.1000/other", "https://doi.org/about", "https://stackoverflow.com/q/231768",
		"https://stackoverflow.com/a/231767", "https://stackoverflow.com/questions/tagged/python", "https://api.stackexchange.com/q/42",
		"https://stackoverflow.example/q/231767", "https://unix.stackexchange.com/q/43",
	} {
		n, why := normalizeURL(u)
		if why != "" {
			t.Fatalf("%s dropped: %s", u, why)
		}
		if g, ok := keys[n.key]; ok {
			t.Errorf("%s has the key %q of group %d", u, n.key, g)
		}
	}
	// The returned URL is the engine's, not the key.
	if n, _ := normalizeURL("https://arxiv.org/pdf/2401.01234v1.pdf"); n.returned != "https://arxiv.org/pdf/2401.01234v1.pdf" {
		t.Fatalf("returned %q", n.returned)
	}
}

// TestREQ_ENG_001_ScholarlyBaseURL: base_url names the endpoint itself or a
// prefix the endpoint's path is appended to; its query and fragment never
// reach the request.
func TestREQ_ENG_001_ScholarlyBaseURL(t *testing.T) {
	cases := []struct{ base, public, want string }{
		{"", arxivEndpoint, "https://export.arxiv.org/api/query"},
		{"http://127.0.0.1:8081", arxivEndpoint, "http://127.0.0.1:8081/api/query"},
		{"http://127.0.0.1:8081/", arxivEndpoint, "http://127.0.0.1:8081/api/query"},
		{"https://mirror.example/arxiv/api/query", arxivEndpoint, "https://mirror.example/arxiv/api/query"},
		{"https://mirror.example/arxiv?x=1#f", arxivEndpoint, "https://mirror.example/arxiv/api/query"},
		{"http://[::1]:9000/works/", crossrefEndpoint, "http://[::1]:9000/works"},
		{"http://localhost:9000/v1", crossrefEndpoint, "http://localhost:9000/v1/works"},
		{"https://oa.example", openAlexEndpoint, "https://oa.example/works"},
	}
	for _, c := range cases {
		var base *url.URL
		if c.base != "" {
			base, _ = url.Parse(c.base)
		}
		if got := endpointOf(base, c.public).String(); got != c.want {
			t.Errorf("%q: %s, want %s", c.base, got, c.want)
		}
	}
}

// TestREQ_ENG_005_ArxivQueryCannotChangeTheRequest: the caller's words are
// searched, never read as the API's syntax.
func TestREQ_ENG_005_ArxivQueryCannotChangeTheRequest(t *testing.T) {
	cases := map[string]string{
		"python asyncio":                        "all:python AND all:asyncio",
		`au:"del maestro" OR ti:(checkerboard)`: "all:audel AND all:maestro AND all:or AND all:ticheckerboard",
		"ANDNOT x":                              "all:andnot AND all:x",
		"検索 拡張-生成 3.5":                          "all:検索 AND all:拡張-生成 AND all:3.5",
		"-- ... ()":                             "",
		strings.Repeat("w ", 50):                strings.TrimSuffix(strings.Repeat("all:w AND ", 20), " AND "),
	}
	for in, want := range cases {
		if got := arxivQuery(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
