package search

import "testing"

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
