package standin

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Item is one thing the developer and news stand-ins can find: a question,
// a repository or a story, depending on the API that is asked.
type Item struct {
	Kind    string // "question" (Stack Exchange), "repository" (GitHub), "story" (Hacker News); "" for every API
	ID      int64
	Title   string
	Snippet string // plain text
	URL     string // the repository's or the story's link; a question's page is built from ID
	Date    time.Time
}

// APIs serves, in each provider's documented answer format, the search
// APIs of Stack Exchange (/2.3/search/excerpts), GitHub (/search/repositories,
// /search/issues), Hacker News on Algolia (/api/v1/search) and a SearXNG
// instance (/search?format=json), each finding the items whose title or
// snippet contains a word of the query.
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
			strings.HasPrefix(r.URL.Path, "/2.3/") || strings.HasPrefix(r.URL.Path, "/api/v1/"):
			apis.ServeHTTP(w, r)
		default:
			wiki.ServeHTTP(w, r)
		}
	})
}
