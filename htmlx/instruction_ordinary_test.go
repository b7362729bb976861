package htmlx

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"rypsok/boundary"
)

// TestInstructionLikeOnOrdinaryPages counts the pages of the public
// benchmarks (article bodies; WCXB main texts) that InstructionLike
// flags, when that data is on the machine (HTMLX_SCORE_DIR and
// HTMLX_WCXB_DIR, else beside the module): a measurement of false
// positives, logged; ordinary pages should not be flagged.
func TestInstructionLikeOnOrdinaryPages(t *testing.T) {
	dir := func(env, def string) string {
		if d := os.Getenv(env); d != "" {
			return d
		}
		return def
	}
	var texts []string
	if gt := filepath.Join(dir("HTMLX_SCORE_DIR", "../../shared/bench/article-extraction"), "ground-truth.json.gz"); fileExists(gt) {
		for _, a := range loadGroundTruth(t, gt) {
			texts = append(texts, a.ArticleBody)
		}
	}
	articles := len(texts)
	if f, err := os.Open(filepath.Join(dir("HTMLX_WCXB_DIR", "../../shared/bench/wcxb-dev"), "dev.jsonl.gz")); err == nil {
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(zr)
		for dec.More() {
			var rec struct {
				MainContent string `json:"main_content"`
			}
			if err := dec.Decode(&rec); err != nil {
				t.Fatal(err)
			}
			texts = append(texts, rec.MainContent)
		}
		f.Close()
	}
	if len(texts) == 0 {
		t.Skip("benchmark data not present")
	}
	flagged := [2]int{}
	var which []int
	for i, s := range texts {
		if boundary.InstructionLike(s) {
			which = append(which, i)
			if i < articles {
				flagged[0]++
			} else {
				flagged[1]++
			}
		}
	}
	t.Logf("flagged texts (index): %v", which)
	t.Logf("flagged: %d of %d article bodies, %d of %d WCXB main texts", flagged[0], articles, flagged[1], len(texts)-articles)
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
