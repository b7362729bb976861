package standin

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Item is one thing the developer and news stand-ins can find: a question,
// a repository or a story, depending on the API that is asked.
type Item struct {
	Kind    string // "question" (Stack Exchange), "repository" (GitHub), "story" (Hacker News), "paper" (arXiv, Crossref); "" for every API
	ID      int64
	Title   string
	Snippet string // plain text
	URL     string // the repository's or the story's link; a question's page is built from ID
	Date    time.Time
}

// APIs serves, in each provider's documented answer format, the search
// APIs of Stack Exchange (/2.3/search/excerpts), GitHub (/search/repositories,
// /search/issues), Hacker News on Algolia (/api/v1/search), a SearXNG
// instance (/search?format=json), arXiv (/api/query, Atom) and Crossref
// (/works), each finding the items whose title or snippet contains a word
// of the query. A paper's arXiv identifier and DOI are made from its ID
// (PaperIDs).
func APIs(items []Item) http.Handler {
	match := func(q, kind string) []Item {
		var out []Item
		for _, it := range items {
			if it.Kind != "" && kind != "" && it.Kind != kind {
				continue
			}
			text := strings.ToLower(it.Title + " " + it.Snippet)
			for _, w := range strings.Fields(strings.ToLower(q)) {
				if strings.Contains(text, w) {
					out = append(out, it)
					break
				}
			}
		}
		return out
	}
	reply := func(w http.ResponseWriter, v any) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		json.NewEncoder(w).Encode(v)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/2.3/search/excerpts", func(w http.ResponseWriter, r *http.Request) {
		var list []map[string]any
		for _, it := range match(r.URL.Query().Get("q"), "question") {
			list = append(list, map[string]any{"item_type": "question", "question_id": it.ID, "title": it.Title,
				"excerpt": it.Snippet, "creation_date": it.Date.Unix(), "score": 1, "is_answered": true})
		}
		reply(w, map[string]any{"items": nonNil(list), "has_more": false, "quota_max": 300, "quota_remaining": 299})
	})
	github := func(issues bool) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			q, _, _ := strings.Cut(r.URL.Query().Get("q"), " is:issue")
			var list []map[string]any
			for _, it := range match(q, "repository") {
				m := map[string]any{"id": it.ID, "html_url": it.URL, "score": 1.0}
				if issues {
					m["title"], m["body"], m["updated_at"] = it.Title, it.Snippet, it.Date.Format(time.RFC3339)
				} else {
					m["full_name"], m["description"], m["pushed_at"] = it.Title, it.Snippet, it.Date.Format(time.RFC3339)
				}
				list = append(list, m)
			}
			reply(w, map[string]any{"total_count": len(list), "incomplete_results": false, "items": nonNil(list)})
		}
	}
	mux.HandleFunc("/search/repositories", github(false))
	mux.HandleFunc("/search/issues", github(true))
	mux.HandleFunc("/api/v1/search", func(w http.ResponseWriter, r *http.Request) {
		var hits []map[string]any
		for _, it := range match(r.URL.Query().Get("query"), "story") {
			hits = append(hits, map[string]any{"objectID": strconv.FormatInt(it.ID, 10), "title": it.Title, "url": it.URL,
				"created_at": it.Date.Format(time.RFC3339), "created_at_i": it.Date.Unix(), "points": 1, "_tags": []string{"story"}})
		}
		reply(w, map[string]any{"hits": nonNil(hits), "nbHits": len(hits), "page": 0, "nbPages": 1, "hitsPerPage": 10})
	})
	mux.HandleFunc("/api/query", func(w http.ResponseWriter, r *http.Request) {
		// arXiv's query is search_query=all:word AND all:word
		q := strings.NewReplacer("all:", " ", " AND ", " ").Replace(r.URL.Query().Get("search_query"))
		var b strings.Builder
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">` +
			`<title type="html">ArXiv Query</title><id>http://arxiv.org/api/standin</id><updated>` + time.Unix(0, 0).UTC().Format(time.RFC3339) + `</updated>`)
		for _, it := range match(q, "paper") {
			arxivID, _ := PaperIDs(it.ID)
			b.WriteString("<entry><id>http://arxiv.org/abs/" + arxivID + "v1</id><published>" + it.Date.Format(time.RFC3339) + "</published><updated>" +
				it.Date.Format(time.RFC3339) + "</updated><title>" + xmlText(it.Title) + "</title><summary>" + xmlText(it.Snippet) +
				`</summary><author><name>A. Writer</name></author><link href="http://arxiv.org/abs/` + arxivID + `v1" rel="alternate" type="text/html"/></entry>`)
		}
		b.WriteString("</feed>\n")
		w.Header().Set("Content-Type", "application/atom+xml; charset=utf-8")
		w.Write([]byte(b.String()))
	})
	mux.HandleFunc("/works", func(w http.ResponseWriter, r *http.Request) {
		var list []map[string]any
		for _, it := range match(r.URL.Query().Get("query"), "paper") {
			_, doi := PaperIDs(it.ID)
			list = append(list, map[string]any{"DOI": doi, "URL": "https://doi.org/" + doi, "title": []string{it.Title},
				"abstract":  "<jats:p>" + xmlText(it.Snippet) + "</jats:p>",
				"published": map[string]any{"date-parts": [][]int{{it.Date.Year(), int(it.Date.Month()), it.Date.Day()}}}})
		}
		reply(w, map[string]any{"status": "ok", "message-type": "work-list", "message-version": "1.0.0",
			"message": map[string]any{"total-results": len(list), "items": nonNil(list), "items-per-page": 10}})
	})
	mux.HandleFunc("/search", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("format") != "json" {
			http.Error(w, "Forbidden", http.StatusForbidden)
			return
		}
		var results []map[string]any
		for _, it := range match(r.URL.Query().Get("q"), "") {
			results = append(results, map[string]any{"url": it.URL, "title": it.Title, "content": it.Snippet,
				"engine": "standin", "publishedDate": it.Date.Format("2006-01-02T15:04:05")})
		}
		reply(w, map[string]any{"query": r.URL.Query().Get("q"), "results": nonNil(results), "answers": []any{},
			"suggestions": []any{}, "unresponsive_engines": []any{}})
	})
	return mux
}

// PaperIDs are the arXiv identifier and the DOI the stand-ins give the
// paper of id: the same paper, so that a search fuses the two.
func PaperIDs(id int64) (arxivID, doi string) {
	arxivID = fmt.Sprintf("2611.%05d", id%100000)
	return arxivID, "10.48550/arXiv." + arxivID
}

// xmlText escapes s for XML character data.
func xmlText(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

func nonNil(list []map[string]any) []map[string]any {
	if list == nil {
		return []map[string]any{}
	}
	return list
}

// Both serves the MediaWiki stand-in and the API stand-ins on one origin.
func Both(wiki, apis http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/search" || strings.HasPrefix(r.URL.Path, "/search/") ||
			strings.HasPrefix(r.URL.Path, "/2.3/") || strings.HasPrefix(r.URL.Path, "/api/v1/") ||
			r.URL.Path == "/api/query" || r.URL.Path == "/works":
			apis.ServeHTTP(w, r)
		default:
			wiki.ServeHTTP(w, r)
		}
	})
}
