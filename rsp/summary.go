package rsp

import "slices"

// Summary is what a tool's answer says about the judging of its items,
// the data of its notices: results_dropped (Blocked, reason
// plugin_blocked), content_redacted (Intervals, RedactedBy, Types),
// plugin_flagged (Flagged, FlagSeverity) and plugin_failed (Failed,
// Failures). Names and types are unique, in first-seen order for plugins
// and sorted for types and classes; nothing in it comes from content.
type Summary struct {
	Blocked      int
	BlockedBy    []string
	Intervals    int
	RedactedBy   []string
	Types        []string
	Flagged      []string
	FlagSeverity Severity
	Failed       []string
	Failures     []Class
}

// Summarize folds the results of one tool call into its Summary.
func Summarize(rs []Result) Summary {
	var s Summary
	add := func(list []string, names ...string) []string {
		for _, n := range names {
			if !slices.Contains(list, n) {
				list = append(list, n)
			}
		}
		return list
	}
	for _, r := range rs {
		if r.Verdict == Block {
			s.Blocked++
			s.BlockedBy = add(s.BlockedBy, r.BlockedBy)
			if r.Failure != "" && !slices.Contains(s.Failures, r.Failure) {
				s.Failures = append(s.Failures, r.Failure)
			}
			continue
		}
		s.Intervals += len(r.Redactions)
		s.RedactedBy = add(s.RedactedBy, r.RedactedBy...)
		s.Types = add(s.Types, r.Types...)
		s.Flagged = add(s.Flagged, r.Flagged...)
		s.FlagSeverity = maxSeverity(s.FlagSeverity, r.FlagSeverity)
		for _, f := range r.Failed {
			s.Failed = add(s.Failed, f.Plugin)
			if !slices.Contains(s.Failures, f.Class) {
				s.Failures = append(s.Failures, f.Class)
			}
		}
	}
	slices.Sort(s.Types)
	slices.Sort(s.Failures)
	return s
}
