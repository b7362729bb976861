package metricstest

import (
	"strings"
	"testing"
)

const good = `# HELP a_total A counter.
# TYPE a_total counter
a_total{tool="web_search",outcome="ok"} 3
a_total{tool="web_fetch",outcome="denied"} 0
# HELP d_seconds A histogram.
# TYPE d_seconds histogram
d_seconds_bucket{tool="x",le="0.1"} 1
d_seconds_bucket{tool="x",le="1"} 2
d_seconds_bucket{tool="x",le="+Inf"} 2
d_seconds_sum{tool="x"} 0.6
d_seconds_count{tool="x"} 2
# HELP g A gauge with an escaped \\ and \n.
# TYPE g gauge
g{v="q\"\\\n"} -1.5e3
`

func TestParseReadsAValidExposition(t *testing.T) {
	fs, err := Parse(good)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 3 || fs[0].Type != "counter" || fs[1].Type != "histogram" || fs[2].Help != "A gauge with an escaped \\ and \n." {
		t.Fatalf("families %+v", fs)
	}
	if v, ok := Value(fs, "a_total", map[string]string{"outcome": "ok"}); !ok || v != 3 {
		t.Errorf("a_total = %v %v", v, ok)
	}
	if v, ok := Value(fs, "g", map[string]string{"v": "q\"\\\n"}); !ok || v != -1500 {
		t.Errorf("g = %v %v", v, ok)
	}
	if names := Names(fs); names["d_seconds_bucket"] != "histogram" || names["a_total"] != "counter" {
		t.Errorf("names %v", names)
	}
}

// Each broken form is refused: the parser is strict where a scraper is
// lenient.
func TestParseRefusesWhatIsNotStrictlyValid(t *testing.T) {
	cases := map[string]string{
		"no final line feed":     strings.TrimSuffix(good, "\n"),
		"empty":                  "",
		"empty line":             strings.Replace(good, "# HELP d", "\n# HELP d", 1),
		"sample before TYPE":     "# HELP a A.\na 1\n# TYPE a gauge\n",
		"no HELP":                "# TYPE a gauge\na 1\n",
		"unknown type":           "# HELP a A.\n# TYPE a meter\na 1\n",
		"other comment":          "# a comment\n# HELP a A.\n# TYPE a gauge\na 1\n",
		"family split":           "# HELP a A.\n# TYPE a gauge\na 1\n# HELP b B.\n# TYPE b gauge\nb 1\n# HELP a A.\n",
		"foreign sample":         "# HELP a A.\n# TYPE a gauge\nb 1\n",
		"duplicate series":       "# HELP a A.\n# TYPE a gauge\na{x=\"1\"} 1\na{x=\"1\"} 2\n",
		"timestamp":              "# HELP a A.\n# TYPE a gauge\na 1 1700000000\n",
		"unquoted label":         "# HELP a A.\n# TYPE a gauge\na{x=1} 1\n",
		"unknown escape":         "# HELP a A.\n# TYPE a gauge\na{x=\"\\t\"} 1\n",
		"trailing comma":         "# HELP a A.\n# TYPE a gauge\na{x=\"1\",} 1\n",
		"label twice":            "# HELP a A.\n# TYPE a gauge\na{x=\"1\",x=\"2\"} 1\n",
		"reserved label":         "# HELP a A.\n# TYPE a gauge\na{__x=\"1\"} 1\n",
		"not a number":           "# HELP a A.\n# TYPE a gauge\na 0x10\n",
		"negative counter":       "# HELP a_total A.\n# TYPE a_total counter\na_total -1\n",
		"buckets not cumulative": strings.Replace(good, `le="1"} 2`, `le="1"} 0`, 1),
		"no +Inf bucket":         strings.Replace(good, "d_seconds_bucket{tool=\"x\",le=\"+Inf\"} 2\n", "", 1),
		"count differs":          strings.Replace(good, "d_seconds_count{tool=\"x\"} 2", "d_seconds_count{tool=\"x\"} 3", 1),
		"le out of order":        strings.Replace(good, `le="0.1"`, `le="5"`, 1),
		"plain histogram name":   strings.Replace(good, "d_seconds_sum{", "d_seconds{", 1),
		"invalid name":           "# HELP 1a A.\n# TYPE 1a gauge\n1a 1\n",
	}
	for name, text := range cases {
		if _, err := Parse(text); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestParseIsBounded(t *testing.T) {
	if _, err := Parse("# HELP a " + strings.Repeat("x", MaxLineBytes) + "\n"); err == nil {
		t.Error("a line above the bound was read")
	}
	if _, err := Parse(strings.Repeat("#", MaxBytes+1)); err == nil {
		t.Error("an exposition above the bound was read")
	}
	var b strings.Builder
	b.WriteString("# HELP a A.\n# TYPE a gauge\na{")
	for i := 0; i <= MaxLabels; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("l" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `="1"`)
	}
	b.WriteString("} 1\n")
	if _, err := Parse(b.String()); err == nil {
		t.Error("more labels than the bound were read")
	}
}

// FuzzParse: no input makes Parse panic, and what it accepts has every
// family typed and described.
func FuzzParse(f *testing.F) {
	f.Add(good)
	f.Fuzz(func(t *testing.T, text string) {
		fs, err := Parse(text)
		if err != nil {
			return
		}
		for _, fam := range fs {
			if fam.Type == "" || fam.Help == "" {
				t.Fatalf("family %s accepted without TYPE or HELP", fam.Name)
			}
		}
	})
}
