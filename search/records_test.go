package search

import (
	"crypto/x509"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"rypsok/secrets"
	"rypsok/tool"
)

// recordedProperties reads the "Properties in code" table of an admission
// record: for each column (keyless, with a key), the properties it states,
// or nil for a column of dashes.
func recordedProperties(t *testing.T, path string) (keyless, keyed *Properties) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(b), "## Properties in code")
	if !ok {
		t.Fatalf("%s has no Properties in code section", path)
	}
	cols := [2]*Properties{{}, {}}
	dashes := [2]bool{}
	rows := 0
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if len(cells) != 3 {
			continue
		}
		name := strings.TrimSpace(cells[0])
		for i, cell := range cells[1:] {
			v := strings.TrimSpace(cell)
			if v == "—" {
				dashes[i] = true
				continue
			}
			p := cols[i]
			n, nerr := strconv.ParseInt(v, 10, 64)
			set := func(dst *int) {
				if nerr != nil {
					t.Fatalf("%s: %s = %q is not a number", path, name, v)
				}
				*dst = int(n)
			}
			flag := func(dst *bool) {
				if v != "true" && v != "false" {
					t.Fatalf("%s: %s = %q is not true or false", path, name, v)
				}
				*dst = v == "true"
			}
			switch name {
			case "rate_per_minute":
				set(&p.RatePerMinute)
			case "rate_per_day":
				set(&p.RatePerDay)
			case "burst":
				set(&p.Burst)
			case "max_in_flight":
				set(&p.MaxInFlight)
			case "max_query_chars":
				set(&p.MaxQueryChars)
			case "max_query_words":
				set(&p.MaxQueryWords)
			case "languages":
				if v != "all" {
					p.Languages = strings.Split(v, ",")
				}
			case "time_ranges":
				flag(&p.TimeRanges)
			case "cacheable":
				flag(&p.Cacheable)
			case "attribution_required":
				flag(&p.AttributionRequired)
			case "response_bytes":
				if nerr != nil {
					t.Fatalf("%s: response_bytes %q", path, v)
				}
				p.ResponseBytes = n
			default:
				continue
			}
			if i == 0 {
				rows++
			}
		}
	}
	if rows != 11 {
		t.Fatalf("%s: %d property rows, want 11", path, rows)
	}
	keyless = cols[0]
	if !dashes[1] {
		keyed = cols[1]
	}
	return keyless, keyed
}

// TestREQ_ENG_010_EachDriverEqualsItsRecord: the properties of each driver
// with a record in docs/engines are the record's, keyless and with a key,
// and the driver table's storage flag agrees (REQ-CMP-001, REQ-CMP-007).
func TestREQ_ENG_010_EachDriverEqualsItsRecord(t *testing.T) {
	records, _ := filepath.Glob("../docs/engines/*.md")
	have := map[string]bool{}
	for _, path := range records {
		typ := strings.TrimSuffix(filepath.Base(path), ".md")
		info, ok := Driver(typ)
		if !ok {
			t.Fatalf("%s: no driver of type %s", path, typ)
		}
		b, _ := os.ReadFile(path)
		if !strings.Contains(string(b), "## Properties in code") {
			continue // a record in another format
		}
		have[typ] = true
		keyless, keyed := recordedProperties(t, path)
		base, _ := url.Parse("https://127.0.0.1:9/")
		build := func(key string) Properties {
			cfg := EngineConfig{ID: typ, Type: typ, Categories: []tool.Category{tool.CategoryGeneral}, BaseURL: base}
			if len(info.Endpoints) > 0 {
				cfg.Endpoint = info.Endpoints[0]
			}
			if key != "" {
				cfg.Key = secrets.New(key)
			}
			e, err := newDriver(cfg, DefaultSettings(), Deps{Roots: x509.NewCertPool()})
			if err != nil {
				t.Fatalf("%s: %v", typ, err)
			}
			return e.Properties()
		}
		if got := build(""); !equalProperties(got, *keyless) {
			t.Errorf("%s keyless:\ncode   %+v\nrecord %+v", typ, got, *keyless)
		}
		if info.Storable != keyless.Cacheable {
			t.Errorf("%s: the driver table says storable %v, the record %v", typ, info.Storable, keyless.Cacheable)
		}
		switch {
		case keyed == nil && info.TakesKey():
			t.Errorf("%s takes a key, its record has no column for it", typ)
		case keyed != nil && !info.TakesKey():
			t.Errorf("%s takes no key, its record has a column for one", typ)
		case keyed != nil:
			if got := build("test-key-0123456789abcdef"); !equalProperties(got, *keyed) {
				t.Errorf("%s with a key:\ncode   %+v\nrecord %+v", typ, got, *keyed)
			}
		}
	}
	for _, typ := range []string{"searxng", "stackexchange", "github", "arxiv", "crossref", "openalex", "hackernews"} {
		if !have[typ] {
			t.Errorf("no admission record docs/engines/%s.md in the form this test reads", typ)
		}
	}
}

func equalProperties(a, b Properties) bool {
	return a.RatePerMinute == b.RatePerMinute && a.RatePerDay == b.RatePerDay && a.Burst == b.Burst &&
		a.MaxInFlight == b.MaxInFlight && a.MaxQueryChars == b.MaxQueryChars && a.MaxQueryWords == b.MaxQueryWords &&
		strings.Join(a.Languages, ",") == strings.Join(b.Languages, ",") && (a.Languages == nil) == (b.Languages == nil) &&
		a.TimeRanges == b.TimeRanges && a.Cacheable == b.Cacheable && a.AttributionRequired == b.AttributionRequired &&
		a.ResponseBytes == b.ResponseBytes
}
