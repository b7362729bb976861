package search

import (
	"context"

	"rypsok/boundary"
	"rypsok/tool"
)

// judge has Deps.Judge look at the title and the snippet of each result
// about to be returned (the RSP hook on_retrieve), after cleaning and
// bounding. A result whose title or snippet is blocked is dropped, with no
// backfill; a redacted field is rewritten, cleaned and bounded again (a
// plugin's replacement is external text too); a flag lets the result pass.
// The notices say what happened without the matched text: results_dropped
// (plugin_blocked), content_redacted, plugin_flagged, plugin_failed.
func (s *Service) judge(ctx context.Context, results []tool.Result, engineOf []string) ([]tool.Result, []tool.Notice) {
	items := make([]tool.JudgeItem, 0, 2*len(results))
	for i, r := range results {
		meta := func(field string) map[string]any {
			return map[string]any{"tool": tool.ToolWebSearch, "field": field, "url": r.URL, "engine": engineOf[i], "rank": i + 1}
		}
		items = append(items,
			tool.JudgeItem{Content: r.Title, Metadata: meta("title")},
			tool.JudgeItem{Content: r.Snippet, Metadata: meta("snippet")})
	}
	verdicts := s.deps.Judge.Judge(ctx, tool.HookOnRetrieve, tool.ToolWebSearch, items)
	var sum tool.JudgeSummary
	kept := results[:0:0]
	for i, r := range results {
		if 2*i+1 >= len(verdicts) {
			break // a judge that answered short: what it did not judge is not returned
		}
		title, snippet := verdicts[2*i], verdicts[2*i+1]
		sum.Add(title)
		sum.Add(snippet)
		if title.Blocked || snippet.Blocked {
			sum.Dropped++
			continue
		}
		if title.Redactions > 0 {
			r.Title = boundary.CleanDecodedText(title.Content, s.set.TitleMaxChars).Text
		}
		if snippet.Redactions > 0 {
			r.Snippet = boundary.CleanDecodedText(snippet.Content, s.set.SnippetMaxChars).Text
		}
		kept = append(kept, r)
	}
	if short := len(results) - len(kept) - sum.Dropped; short > 0 {
		sum.Dropped += short
	}
	var notices []tool.Notice
	if sum.Dropped > 0 {
		notices = append(notices, tool.Notice{Code: tool.CodeResultsDropped, Reason: tool.ReasonPluginBlocked, Count: sum.Dropped})
	}
	return kept, append(notices, sum.Notices()...)
}
