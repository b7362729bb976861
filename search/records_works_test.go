package search

import (
	"crypto/x509"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"rypsok/secrets"
	"rypsok/tool"
)

// recordProperties reads the Properties row of an admission record in
// docs/engines/<type>.md: "| Properties | name = value, … |".
func recordProperties(t *testing.T, typ string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docs", "engines", typ+".md"))
	if err != nil {
		t.Fatalf("the admission record of %s: %v", typ, err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		rest, ok := strings.CutPrefix(line, "| Properties |")
		if !ok {
			continue
		}
		out := map[string]string{}
		for _, kv := range strings.Split(strings.TrimSuffix(strings.TrimSpace(rest), "|"), ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				t.Fatalf("%s: a property without a value: %q", typ, kv)
			}
			out[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
		return out
	}
	t.Fatalf("%s: the record has no Properties row", typ)
	return nil
}

// TestREQ_CMP_001_DriverPropertiesEqualTheirRecords: the properties of the
// arxiv, crossref and openalex drivers are the ones their admission records
// state, and the driver table agrees on key and storage.
func TestREQ_CMP_001_DriverPropertiesEqualTheirRecords(t *testing.T) {
	keyEnv := map[string]string{"arxiv": "", "crossref": "", "openalex": "OPENALEX_API_KEY"}
	for _, typ := range []string{"arxiv", "crossref", "openalex"} {
		info, ok := Driver(typ)
		if !ok {
			t.Fatalf("%s is not in the driver table", typ)
		}
		if info.KeyEnv != keyEnv[typ] || !info.BaseURL || info.Scrapes {
			t.Errorf("%s: table entry %+v", typ, info)
		}
		cfg := EngineConfig{ID: typ, Type: typ, Categories: []tool.Category{tool.CategoryScience}}
		if info.Keyed() {
			cfg.Key = secrets.New("oa-test-key-0123456789abcdef")
		}
		e, err := newDriver(cfg, DefaultSettings(), Deps{Roots: x509.NewCertPool()})
		if err != nil {
			t.Fatal(err)
		}
		p := e.Properties()
		if p.Cacheable != info.Storable {
			t.Errorf("%s: the table says storable %v, the driver %v", typ, info.Storable, p.Cacheable)
		}
		if p.Languages != nil {
			t.Errorf("%s: the record says every language", typ)
		}
		got := map[string]string{
			"rate_per_minute": strconv.Itoa(p.RatePerMinute), "burst": strconv.Itoa(p.Burst),
			"max_in_flight": strconv.Itoa(p.MaxInFlight), "max_query_chars": strconv.Itoa(p.MaxQueryChars),
			"max_query_words": strconv.Itoa(p.MaxQueryWords), "time_ranges": strconv.FormatBool(p.TimeRanges),
			"cacheable": strconv.FormatBool(p.Cacheable), "attribution_required": strconv.FormatBool(p.AttributionRequired),
			"response_bytes": strconv.FormatInt(p.ResponseBytes, 10),
		}
		rec := recordProperties(t, typ)
		if len(rec) != len(got) {
			t.Errorf("%s: the record names %d properties, the driver has %d", typ, len(rec), len(got))
		}
		for k, v := range got {
			if rec[k] != v {
				t.Errorf("%s: %s is %s in code and %q in the record", typ, k, v, rec[k])
			}
		}
	}
}
