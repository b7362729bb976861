package rsp

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"sync"
)

// Judge runs, for each item, the plugins configured for hook and tool in
// configured order; see the Judge interface. Items are judged
// concurrently, within the host's process limit. An empty tool matches
// every plugin (rypsok rsp ingest).
func (h *Host) Judge(ctx context.Context, hook, tool string, items []Item) []Result {
	results := make([]Result, len(items))
	var ps []*plugin
	if h != nil {
		for _, p := range h.plugins {
			if contains(p.hooks, hook) && (tool == "" || len(p.spec.Tools) == 0 || contains(p.spec.Tools, tool)) {
				ps = append(ps, p)
			}
		}
	}
	if len(ps) == 0 {
		for i, it := range items {
			results[i] = Result{Verdict: Allow, Content: it.Content}
		}
		return results
	}
	workers := min(len(items), 2*cap(h.sem))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = h.judgeItem(ctx, ps, hook, items[i])
			}
		}()
	}
	for i := range items {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

// contribution is one span of one plugin's REDACT.
type contribution struct {
	span        Span
	severity    Severity
	replacement string
	plugin      int // index among the item's plugins: earlier wins ties
	name        string
}

// judgeItem composes the verdicts of ps on one item (D9, Q1, Q2).
func (h *Host) judgeItem(ctx context.Context, ps []*plugin, hook string, it Item) Result {
	content := strings.ToValidUTF8(it.Content, "\uFFFD")
	r := Result{Verdict: Allow}
	var spans []contribution
	for i, p := range ps {
		a, class := h.call(ctx, p, hook, content, it.Metadata)
		if class != "" {
			h.log.Warn("rsp_plugin_failed", "plugin", p.spec.Name, "hook", hook, "failure", string(class), "on_error", string(onError(p.spec.OnError)))
			switch onError(p.spec.OnError) {
			case OnErrorAllow:
				r.Failed = append(r.Failed, PluginFailure{Plugin: p.spec.Name, Class: class})
				continue
			case OnErrorSkip:
				continue
			}
			return Result{Verdict: Block, BlockedBy: p.spec.Name, Failure: class}
		}
		answered := a.Verdict
		if a.Verdict == Allow {
			// At debug: counted by the metrics, written only when asked for.
			h.log.Debug("rsp_verdict", "plugin", p.spec.Name, "hook", hook, "verdict", string(a.Verdict))
		} else {
			h.log.Info("rsp_verdict", "plugin", p.spec.Name, "hook", hook, "verdict", string(a.Verdict), "reason", a.Reason)
			if p.spec.OnMatch == OnMatchBlock {
				a.Verdict = Block
			}
		}
		switch a.Verdict {
		case Block:
			blocked := Result{Verdict: Block, BlockedBy: p.spec.Name, Reason: a.Reason}
			if answered == Redact { // on_match = block: the types still say why
				for _, s := range a.Spans {
					blocked.Types = append(blocked.Types, s.Type)
				}
				slices.Sort(blocked.Types)
				blocked.Types = slices.Compact(blocked.Types)
			}
			return blocked
		case Flag:
			r.Flagged = append(r.Flagged, p.spec.Name)
			r.FlagSeverity = maxSeverity(r.FlagSeverity, a.Severity)
		case Redact:
			for _, s := range a.Spans {
				spans = append(spans, contribution{span: s, severity: a.Severity, replacement: a.Replacement, plugin: i, name: p.spec.Name})
			}
		}
	}
	r.Content = content
	if len(r.Flagged) > 0 {
		r.Verdict = Flag
	}
	if out, reds := coalesce(content, spans); len(reds) > 0 {
		r.Verdict = Redact
		r.Content = out
		r.Redactions = reds
		for _, red := range reds {
			r.Types = append(r.Types, red.Types...)
			r.RedactedBy = append(r.RedactedBy, red.Plugins...)
		}
		for _, c := range spans { // an empty span masks nothing, but its type still contributed
			if c.span.Start == c.span.End {
				r.Types = append(r.Types, c.span.Type)
				r.RedactedBy = append(r.RedactedBy, c.name)
			}
		}
		slices.Sort(r.Types)
		r.Types = slices.Compact(r.Types)
		r.RedactedBy = inOrder(ps, r.RedactedBy)
	}
	return r
}

func onError(o OnError) OnError {
	if o == "" {
		return OnErrorBlock
	}
	return o
}

// inOrder returns the unique names of names in the order of ps.
func inOrder(ps []*plugin, names []string) []string {
	var out []string
	for _, p := range ps {
		if contains(names, p.spec.Name) {
			out = append(out, p.spec.Name)
		}
	}
	return out
}

// coalesce merges the spans into intervals — overlapping and adjacent
// spans become one — and replaces each interval once, with the
// replacement of its contributing span of highest severity (ties: the
// earlier plugin). Empty spans mask nothing and are ignored.
func coalesce(content string, cs []contribution) (string, []Redaction) {
	cs = slices.DeleteFunc(slices.Clone(cs), func(c contribution) bool { return c.span.Start == c.span.End })
	if len(cs) == 0 {
		return content, nil
	}
	slices.SortStableFunc(cs, func(a, b contribution) int {
		if a.span.Start != b.span.Start {
			return a.span.Start - b.span.Start
		}
		return a.span.End - b.span.End
	})
	var b strings.Builder
	var reds []Redaction
	at := 0
	for i := 0; i < len(cs); {
		start, end := cs[i].span.Start, cs[i].span.End
		best := cs[i]
		var types []string
		var from []contribution
		j := i
		for ; j < len(cs) && cs[j].span.Start <= end; j++ {
			c := cs[j]
			end = max(end, c.span.End)
			if c.severity.rank() > best.severity.rank() || c.severity.rank() == best.severity.rank() && c.plugin < best.plugin {
				best = c
			}
			types = append(types, c.span.Type)
			from = append(from, c)
		}
		slices.Sort(types)
		slices.SortStableFunc(from, func(a, b contribution) int { return a.plugin - b.plugin })
		var names []string
		for _, c := range from {
			if !contains(names, c.name) {
				names = append(names, c.name)
			}
		}
		b.WriteString(content[at:start])
		b.WriteString(best.replacement)
		at = end
		reds = append(reds, Redaction{Types: slices.Compact(types), Severity: best.severity, Plugins: names})
		i = j
	}
	b.WriteString(content[at:])
	return b.String(), reds
}

// call runs one plugin on one content, through the cache for a
// deterministic plugin.
func (h *Host) call(ctx context.Context, p *plugin, hook, content string, metadata map[string]any) (Answer, Class) {
	var key cacheKey
	if p.hs.Deterministic {
		key = keyOf(hook, content, p.spec.Name, p.hs.Version, p.spec.Command)
		if a, ok := h.cache.get(key); ok {
			return a, ""
		}
	}
	if metadata == nil {
		metadata = map[string]any{}
	}
	if !strictMetadata(metadata) {
		// The host sends nothing it would refuse to read: a failure, like
		// any other, decided by on_error.
		h.log.Warn("rsp_request_refused", "plugin", p.spec.Name, "hook", hook, "why", "the metadata is not strict JSON")
		return Answer{}, FailMalformed
	}
	req := callRequest{RSPVersion: Version, Type: "call", Hook: hook, Metadata: metadata}
	var fd3 *os.File
	byRef := p.inline == 0 || int64(len(content)) > p.inline
	if byRef && !p.hs.ContentRef && int64(len(content)) > p.inline {
		// Content goes by reference only to a plugin that declared it
		// reads it: any other would see no content and could answer
		// ALLOW on what it never received.
		return Answer{}, FailTooLarge
	}
	if byRef && p.hs.ContentRef {
		path, f, release, err := newRef(content)
		if err != nil {
			return Answer{}, FailSpawn
		}
		defer release()
		req.ContentRef = &contentRef{Path: path, Offset: 0, Length: int64(len(content))}
		fd3 = f
	} else {
		req.Content = &content
	}
	o := h.spawn(ctx, p, marshal(req), fd3)
	if o.class != "" {
		if len(o.stderr) > 0 {
			h.log.Debug("rsp_plugin_stderr", "plugin", p.spec.Name, "stderr", bound(string(o.stderr)))
		}
		return Answer{}, o.class
	}
	a, class := parseAnswer(o.stdout, content)
	if class != "" {
		return Answer{}, class
	}
	if a.unknownSeverity != "" && p.warned.CompareAndSwap(false, true) {
		h.log.Warn("rsp_unknown_severity", "plugin", p.spec.Name, "severity", a.unknownSeverity)
	}
	if p.hs.Deterministic {
		h.cache.put(key, a)
	}
	return a, ""
}

// strictMetadata reports whether metadata encodes as strict JSON (the
// content always does: it is valid UTF-8 and Go writes it escaped).
func strictMetadata(metadata map[string]any) bool {
	b, err := json.Marshal(metadata)
	return err == nil && strictObject(b) == nil
}
