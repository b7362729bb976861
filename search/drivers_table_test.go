package search

import (
	"context"
	"crypto/x509"
	"net/url"
	"slices"
	"strings"
	"testing"

	"rypsok/secrets"
	"rypsok/tool"
)

// TestREQ_MAIN_001_TheDriverTableDescribesEachDriver: the table is the one
// source of what a driver needs, and it agrees with the drivers themselves;
// its lists are copies an importer cannot change.
func TestREQ_MAIN_001_TheDriverTableDescribesEachDriver(t *testing.T) {
	types := DriverTypes()
	if !slices.Equal(types, []string{"wikipedia", "brave", "duckduckgo", "searxng", "stackexchange", "github", "arxiv", "crossref", "openalex", "hackernews"}) {
		t.Fatalf("driver types %v", types)
	}
	types[0] = "changed"
	if DriverTypes()[0] != "wikipedia" {
		t.Fatal("DriverTypes shares its array")
	}
	d, _ := Driver("brave")
	d.Endpoints[0] = "changed"
	if d2, _ := Driver("brave"); d2.Endpoints[0] != "web" {
		t.Fatal("Driver shares its endpoints")
	}
	base, _ := url.Parse("https://wiki.example.org/w/api.php")
	for _, typ := range DriverTypes() {
		info, ok := Driver(typ)
		if !ok || info.Type != typ {
			t.Fatalf("Driver(%q) = %+v, %v", typ, info, ok)
		}
		cfg := EngineConfig{ID: "e", Type: typ, Categories: []tool.Category{tool.CategoryGeneral}}
		if info.Keyed() {
			cfg.Key = secrets.New("BSA-test-token-0123456789")
		}
		if len(info.Endpoints) > 0 {
			cfg.Endpoint = info.Endpoints[0]
		}
		if info.BaseURL {
			cfg.BaseURL = base
		}
		e, err := newDriver(cfg, DefaultSettings(), Deps{Roots: x509.NewCertPool()})
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		if got := e.Properties().Cacheable; got != info.Storable {
			t.Errorf("%s: the table says storable %v, the driver's properties %v", typ, info.Storable, got)
		}
	}
	if _, ok := Driver("google"); ok {
		t.Fatal("an unknown type has an entry")
	}
	if _, err := newDriver(EngineConfig{ID: "x", Type: "google"}, DefaultSettings(), Deps{}); err == nil {
		t.Fatal("an unknown type was built")
	}
}

// TestREQ_ERR_001_ZeroSettingsTakeTheDefaults: search.New with every number
// left zero runs with the book's defaults, as fetch.New does, instead of a
// zero deadline and no engine per request.
func TestREQ_ERR_001_ZeroSettingsTakeTheDefaults(t *testing.T) {
	s := Settings{Engines: []EngineConfig{{ID: "a", Type: "fake", Categories: []tool.Category{tool.CategoryGeneral}}}}
	svc := assemble(s, Deps{}, []Engine{fake("a", answer(res("One", "https://one.example/")))})
	if svc.set.Deadline != DefaultSettings().Deadline || svc.set.EnginesPerRequest != DefaultSettings().EnginesPerRequest {
		t.Fatalf("settings %+v", svc.set)
	}
	out, terr := svc.Search(context.Background(), tool.SearchRequest{Query: "q", MaxResults: 5, Category: tool.CategoryGeneral, Language: "en"})
	if terr != nil || out == nil || len(out.Results) != 1 {
		t.Fatalf("search: %v %+v", terr, out)
	}
	if _, terr := svc.Search(context.Background(), tool.SearchRequest{Query: "key sk_live_" + strings.Repeat("a1B2", 6), Category: tool.CategoryGeneral, Language: "en"}); terr == nil || terr.Kind != tool.KindDenied {
		t.Fatalf("a credential in the query: %v, want denied", terr)
	}
}
