package rsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// fixture is one conformance case of testdata/cases: the items, the
// plugins' scripted answers, and what the host must make of them.
type fixture struct {
	Closes  string `json:"closes"` // the open question or decision it closes
	About   string `json:"about"`
	Hook    string `json:"hook"`
	Plugins []struct {
		Name      string                     `json:"name"`
		Answer    json.RawMessage            `json:"answer"`  // the answer to every call
		Answers   map[string]json.RawMessage `json:"answers"` // by content; ALLOW otherwise
		Mode      []string                   `json:"mode"`    // a chaos mode instead
		Declares  string                     `json:"declares"`
		OnError   OnError                    `json:"on_error"`
		OnMatch   OnMatch                    `json:"on_match"`
		TimeoutMS int                        `json:"timeout_ms"`
	} `json:"plugins"`
	Items []struct {
		Content string `json:"content"`
		Expect  struct {
			Verdict      Verdict         `json:"verdict"`
			Content      *string         `json:"content"`
			BlockedBy    string          `json:"blocked_by"`
			Failure      Class           `json:"failure"`
			Redactions   []Redaction     `json:"redactions"`
			Types        []string        `json:"types"`
			RedactedBy   []string        `json:"redacted_by"`
			Flagged      []string        `json:"flagged"`
			FlagSeverity Severity        `json:"flag_severity"`
			Failed       []PluginFailure `json:"failed"`
		} `json:"expect"`
	} `json:"items"`
	// Seen is, per plugin, the contents it must have received, in order
	// (its calls are recorded); a plugin absent here is not checked.
	Seen map[string][]string `json:"seen"`
	// Absent are strings the recorded metadata (the Result without its
	// content) must not contain: the matched bytes, the offsets.
	Absent []string `json:"absent"`
	// WithinMS bounds how long the whole case may take (a generous
	// margin above the plugins' timeouts).
	WithinMS int `json:"within_ms"`
}

func TestFixtures_ConformanceCases(t *testing.T) {
	files, _ := filepath.Glob("testdata/cases/*.json")
	if len(files) < 15 {
		t.Fatalf("only %d fixtures", len(files))
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			t.Parallel()
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var fx fixture
			dec := json.NewDecoder(strings.NewReader(string(b)))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&fx); err != nil {
				t.Fatalf("fixture: %v", err)
			}
			runFixture(t, fx)
		})
	}
	t.Cleanup(func() { noPluginLeft(t) })
}

func runFixture(t *testing.T, fx fixture) {
	dir := t.TempDir()
	s := DefaultSettings()
	s.Hooks = []string{HookChunk, HookRetrieve, HookResponse}
	recs := map[string]string{}
	for _, p := range fx.Plugins {
		rec := filepath.Join(dir, p.Name+".jsonl")
		recs[p.Name] = rec
		args := []string{"-record", rec}
		if p.Declares != "" {
			args = append(args, "-hooks", p.Declares)
		}
		switch {
		case p.Mode != nil:
			args = append(args, p.Mode...)
		case p.Answers != nil:
			m, _ := json.Marshal(p.Answers)
			args = append(args, "bycontent", string(m))
		default:
			args = append(args, "answer", string(p.Answer))
		}
		s.Plugins = append(s.Plugins, PluginSpec{Name: p.Name, Command: chaos(args...), OnError: p.OnError, OnMatch: p.OnMatch,
			Timeout: time.Duration(p.TimeoutMS) * time.Millisecond})
	}
	h, err := New(context.Background(), s, Deps{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if fx.WithinMS > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(fx.WithinMS)*time.Millisecond)
		defer cancel()
	}
	var items []Item
	for _, it := range fx.Items {
		items = append(items, Item{Content: it.Content, Metadata: map[string]any{"source": "fixture"}})
	}
	results := h.Judge(ctx, fx.Hook, "", items)
	if fx.WithinMS > 0 && ctx.Err() != nil {
		t.Fatalf("not judged within %d ms", fx.WithinMS)
	}
	for i, it := range fx.Items {
		r, e := results[i], it.Expect
		want := it.Content
		if e.Content != nil {
			want = *e.Content
		}
		if e.Verdict == Block {
			want = ""
		}
		if r.Verdict != e.Verdict || r.Content != want || r.BlockedBy != e.BlockedBy || r.Failure != e.Failure {
			t.Errorf("item %d: verdict %s content %q blocked_by %q failure %q; want %s %q %q %q", i, r.Verdict, r.Content, r.BlockedBy, r.Failure, e.Verdict, want, e.BlockedBy, e.Failure)
		}
		if !slices.EqualFunc(r.Redactions, e.Redactions, func(a, b Redaction) bool {
			return slices.Equal(a.Types, b.Types) && a.Severity == b.Severity && slices.Equal(a.Plugins, b.Plugins)
		}) {
			t.Errorf("item %d: redactions %+v, want %+v", i, r.Redactions, e.Redactions)
		}
		if !slices.Equal(r.Types, e.Types) || !slices.Equal(r.RedactedBy, e.RedactedBy) || !slices.Equal(r.Flagged, e.Flagged) ||
			r.FlagSeverity != e.FlagSeverity || !slices.Equal(r.Failed, e.Failed) {
			t.Errorf("item %d: types %q redacted_by %q flagged %q %q failed %v; want %q %q %q %q %v", i,
				r.Types, r.RedactedBy, r.Flagged, r.FlagSeverity, r.Failed, e.Types, e.RedactedBy, e.Flagged, e.FlagSeverity, e.Failed)
		}
		meta := r
		meta.Content = ""
		mb, _ := json.Marshal(meta)
		for _, a := range fx.Absent {
			if strings.Contains(string(mb), a) {
				t.Errorf("item %d: metadata %s contains %q", i, mb, a)
			}
		}
	}
	for name, want := range fx.Seen {
		calls, _ := records(t, recs[name])
		var got []string
		for _, c := range calls {
			got = append(got, c.Content)
		}
		if !slices.Equal(got, want) {
			t.Errorf("plugin %s saw %q, want %q", name, got, want)
		}
	}
}
