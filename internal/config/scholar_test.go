package config

import (
	"strings"
	"testing"
)

// TestREQ_CFG_004_ScholarlyEngines: the arxiv, crossref and openalex types
// need no configuration key of their own. openalex is keyed like brave and
// inactive without its key; arxiv and crossref take none; all three take a
// base_url, plain HTTP only on a loopback host.
func TestREQ_CFG_004_ScholarlyEngines(t *testing.T) {
	doc := "config_version = 1\n" +
		"[engines.arxiv]\ntype = \"arxiv\"\ncategories = [\"science\"]\nbase_url = \"http://127.0.0.1:8081\"\n" +
		"[engines.crossref]\ntype = \"crossref\"\ncategories = [\"science\"]\n" +
		"[engines.openalex]\ntype = \"openalex\"\ncategories = [\"science\"]\napi_key_env = \"OPENALEX_API_KEY\"\n"
	c := mustLoad(t, doc, nil)
	byID := map[string]int{}
	for i, e := range c.Search.Engines {
		byID[e.ID] = i
	}
	ax, cr, oa := c.Search.Engines[byID["arxiv"]], c.Search.Engines[byID["crossref"]], c.Search.Engines[byID["openalex"]]
	if ax.Disabled != "" || ax.BaseURL == nil || ax.BaseURL.String() != "http://127.0.0.1:8081" || cr.Disabled != "" {
		t.Fatalf("arxiv %+v, crossref %+v", ax, cr)
	}
	if oa.Disabled != "no_credential" || c.Engines[byID["openalex"]].Active {
		t.Fatalf("openalex without its key must be inactive: %+v", oa)
	}
	const key = "oa-fake-key-for-tests-0123456789"
	c = mustLoad(t, doc, map[string]string{"OPENALEX_API_KEY": key})
	if oa := c.Search.Engines[byID["openalex"]]; oa.Disabled != "" || oa.Key.Reveal() != key {
		t.Fatalf("openalex key not resolved: %+v", oa)
	}
	for _, line := range Report(c) {
		if strings.Contains(line, key) {
			t.Fatalf("check prints the key: %s", line)
		}
	}
	mustRefuse(t, "config_version = 1\n[engines.o]\ntype = \"openalex\"\ncategories = [\"science\"]\n", nil, "engines.o: the openalex driver needs a key")
	mustRefuse(t, "config_version = 1\n[engines.a]\ntype = \"arxiv\"\ncategories = [\"science\"]\napi_key_env = \"X\"\n", nil, "engines.a: the arxiv driver takes no key")
	mustRefuse(t, "config_version = 1\n[engines.c]\ntype = \"crossref\"\ncategories = [\"science\"]\nbase_url = \"http://mirror.example.org/works\"\n", nil, "engines.c.base_url")
}
