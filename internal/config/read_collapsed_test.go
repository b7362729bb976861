package config

import (
	"strings"
	"testing"
)

// TestREQ_CTX_005_ReadCollapsedSetting: fetch.read_collapsed is true by
// default (the amended reading of hidden content); false carries the
// strict reading into the fetch settings; check prints it either way.
func TestREQ_CTX_005_ReadCollapsedSetting(t *testing.T) {
	for _, tc := range []struct {
		doc    string
		strict bool
		line   string
	}{
		{"config_version = 1\n", false, "fetch: read_collapsed=true"},
		{"config_version = 1\n[fetch]\nread_collapsed = true\n", false, "fetch: read_collapsed=true"},
		{"config_version = 1\n[fetch]\nread_collapsed = false\n", true, "fetch: read_collapsed=false"},
	} {
		c := mustLoad(t, tc.doc, nil)
		if c.Fetch.StrictHidden != tc.strict {
			t.Errorf("%q: StrictHidden = %v, want %v", tc.doc, c.Fetch.StrictHidden, tc.strict)
		}
		if text := strings.Join(Report(c), "\n"); !strings.Contains(text, tc.line) {
			t.Errorf("%q: report lacks %q\n%s", tc.doc, tc.line, text)
		}
	}
}
