package search

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"rypsok/tool"
)

// BenchmarkPostProcessSeven is BenchmarkPostProcess with seven engines of
// ten results each, where every engine also answers the same paper under
// one of its addresses (arXiv abs with a version, arXiv pdf, the arXiv DOI
// in two cases, a Crossref DOI) and the same Stack Exchange question under
// its short and long URL, so that the comparison keys of works are on the
// measured path.
func BenchmarkPostProcessSeven(b *testing.B) {
	const engines = 7
	s := DefaultSettings()
	fakes := make([]Engine, engines)
	for i := range fakes {
		id := fmt.Sprintf("e%d", i)
		s.Engines = append(s.Engines, EngineConfig{ID: id, Type: "fake", Categories: []tool.Category{tool.CategoryScience}})
		fakes[i] = fake(id, nil)
	}
	svc := assemble(s, Deps{}, fakes)
	sel := make([]picked, engines)
	for i := range sel {
		sel[i] = picked{sl: svc.byPref[i]}
	}
	ends := benchAnswers(engines, 10)
	paper := []string{
		"https://arxiv.org/abs/2401.01234v2", "https://arxiv.org/pdf/2401.01234", "https://doi.org/10.48550/arXiv.2401.01234",
		"https://doi.org/10.48550/arxiv.2401.01234", "http://dx.doi.org/10.48550/ARXIV.2401.01234", "https://arxiv.org/abs/2401.01234",
		"https://export.arxiv.org/abs/2401.01234v1",
	}
	question := []string{"https://stackoverflow.com/q/231767", "https://stackoverflow.com/questions/231767/what-does-yield-do"}
	for e := range ends {
		ends[e].results[2].URL = paper[e]
		ends[e].results[5].URL = question[e%2]
	}
	req := tool.SearchRequest{Query: "q", Category: tool.CategoryScience, MaxResults: 20, Language: "en"}
	out, _ := svc.respond(context.Background(), sel, ends, req, nil)
	same := map[string]int{}
	for _, r := range out.Results {
		for _, w := range []string{"2401.01234", "231767"} {
			if strings.Contains(strings.ToLower(r.URL), w) {
				same[w]++
			}
		}
	}
	if same["2401.01234"] != 1 || same["231767"] != 1 {
		b.Fatalf("the paper and the question must each be one result: %v", same)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := svc.respond(context.Background(), sel, ends, req, nil)
		if err != nil || len(out.Results) != 20 {
			b.Fatal(err)
		}
		if _, err := json.Marshal(out); err != nil {
			b.Fatal(err)
		}
	}
}
