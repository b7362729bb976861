package tool

import (
	"context"
	"slices"
)

// The hooks at which external content is judged (the RAG Security
// Protocol): on_retrieve when content is retrieved, on_response when a
// slice of it is about to be returned.
const (
	HookOnRetrieve = "on_retrieve"
	HookOnResponse = "on_response"
)

// JudgeItem is one piece of external text to judge, with the metadata sent
// with it to the plugins.
type JudgeItem struct {
	Content  string
	Metadata map[string]any
}

// Verdict is what the judge decided about one item.
type Verdict struct {
	// Blocked: the item must not reach the caller. BlockedBy names the
	// plugin; Failure is the failure class when a failure was treated as
	// a block (on_error = block).
	Blocked   bool
	BlockedBy string
	Failure   string
	// Content is the item as it may be returned: the original, or with
	// the redacted intervals replaced.
	Content string
	// Redactions counts the replaced intervals; RedactedBy and Types name
	// the plugins and the kinds (never the bytes or the offsets).
	Redactions int
	RedactedBy []string
	Types      []string
	// FlaggedBy names the plugins that flagged the item; Severity is the
	// highest severity they gave.
	FlaggedBy []string
	Severity  string
	// FailedBy and Failures are the plugins whose failure let the item
	// pass (on_error = allow) and their failure classes, in order.
	FailedBy []string
	Failures []string
}

// Judge judges external text on its way to the caller. It returns one
// Verdict per item, in order, and never fails as a whole. search and fetch
// receive one through their Deps; the RSP host is one (main adapts it).
type Judge interface {
	Judge(ctx context.Context, hook, tool string, items []JudgeItem) []Verdict
}

// JudgeSummary adds up the verdicts of one answer into its notices.: web_search and web_fetch
// say the same things the same way.
type JudgeSummary struct {
	Dropped    int
	redactions int
	redactedBy []string
	types      []string
	flaggedBy  []string
	severity   string
	failedBy   []string
	failure    string
}

// Add counts one verdict.
func (j *JudgeSummary) Add(v Verdict) {
	if v.Redactions > 0 && !v.Blocked {
		j.redactions += v.Redactions
		j.redactedBy = union(j.redactedBy, v.RedactedBy)
		j.types = union(j.types, v.Types)
	}
	if len(v.FlaggedBy) > 0 {
		j.flaggedBy = union(j.flaggedBy, v.FlaggedBy)
		if severityRank(v.Severity) > severityRank(j.severity) {
			j.severity = v.Severity
		}
	}
	if len(v.FailedBy) > 0 {
		j.failedBy = union(j.failedBy, v.FailedBy)
		if j.failure == "" && len(v.Failures) > 0 {
			j.failure = v.Failures[0]
		}
	}
}

// Notices are content_redacted, plugin_flagged and plugin_failed, each
// when it applies.
func (j *JudgeSummary) Notices() []Notice {
	var out []Notice
	if j.redactions > 0 {
		types := slices.Clone(j.types)
		slices.Sort(types)
		out = append(out, Notice{Code: CodeContentRedacted, Count: j.redactions, Plugins: j.redactedBy, Types: types})
	}
	if len(j.flaggedBy) > 0 {
		out = append(out, Notice{Code: CodePluginFlagged, Plugins: j.flaggedBy, Severity: j.severity})
	}
	if len(j.failedBy) > 0 {
		out = append(out, Notice{Code: CodePluginFailed, Plugins: j.failedBy, Failure: j.failure})
	}
	return out
}

func union(a, b []string) []string {
	for _, s := range b {
		if !slices.Contains(a, s) {
			a = append(a, s)
		}
	}
	return a
}

func severityRank(s string) int {
	return slices.Index([]string{"low", "medium", "high", "critical"}, s)
}
