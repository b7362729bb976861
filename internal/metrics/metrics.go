// Package metrics is the operator's window on a running rypsok: counters,
// gauges and histograms written in the Prometheus text format (0.0.4) on a
// listener of its own, beside /healthz and /readyz.
//
// Most numbers are counted where they are logged: Handler sits in front of
// the JSON log handler and counts the book's log events, so a log line and
// a count never disagree. Gauges with no event (work in flight against its
// limit, open sessions, the process itself) are read at scrape time.
//
// It must never turn caller-supplied text into a label or a value: every
// label value is checked against a closed set given by the configuration
// (tools, engines, plugins, callers) or is a fixed word of the vocabulary
// (outcomes, kinds, reasons, classes), and each family holds a bounded
// number of series.
package metrics

import (
	"sort"
	"sync"
	"sync/atomic"
)

// maxSeries bounds the series of one family. The closed sets keep real
// families far below it; a series beyond it is not created, and counted in
// rypsok_metrics_series_dropped_total.
const maxSeries = 1024

// maxWordBytes bounds a vocabulary word used as a label value.
const maxWordBytes = 40

// isWord: 1 to 40 of [a-z0-9_], starting with a letter. Every outcome,
// kind, reason, class, verdict and hook of the vocabulary has this form.
func isWord(s string) bool {
	if len(s) < 1 || len(s) > maxWordBytes || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// series is one set of label values of a family: a counter or gauge value,
// or a histogram's buckets.
type series struct {
	values  []string
	n       atomic.Int64   // counter or gauge
	buckets []atomic.Int64 // histogram: per bucket (not cumulative), then +Inf
	sumMs   atomic.Int64   // histogram: sum of the observations in ms
}

// family is one metric family: a name, its help, its type, its label names
// and its series.
type family struct {
	name, help, typ string
	labels          []string
	boundsMs        []int64 // histogram bucket bounds, in milliseconds

	mu      sync.RWMutex
	series  map[seriesKey]*series
	dropped *atomic.Int64
}

// maxLabels is the most labels a family has; a key of that many values
// needs no allocation.
const maxLabels = 3

type seriesKey [maxLabels]string

// get returns the series of values, creating it when the family has room.
func (f *family) get(values ...string) *series {
	var k seriesKey
	copy(k[:], values)
	f.mu.RLock()
	s := f.series[k]
	f.mu.RUnlock()
	if s != nil {
		return s
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if s = f.series[k]; s != nil {
		return s
	}
	if len(f.series) >= maxSeries {
		f.dropped.Add(1)
		return nil
	}
	s = &series{values: append([]string(nil), values...)}
	if f.boundsMs != nil {
		s.buckets = make([]atomic.Int64, len(f.boundsMs)+1)
	}
	f.series[k] = s
	return s
}

func (f *family) add(n int64, values ...string) {
	if s := f.get(values...); s != nil {
		s.n.Add(n)
	}
}

func (f *family) set(n int64, values ...string) {
	if s := f.get(values...); s != nil {
		s.n.Store(n)
	}
}

func (f *family) observeMs(ms int64, values ...string) {
	f.observeIn(f.get(values...), ms)
}

// observeIn adds one observation to s, a series of f (nil: none).
func (f *family) observeIn(s *series, ms int64) {
	if s == nil {
		return
	}
	if ms < 0 {
		ms = 0
	}
	i := sort.Search(len(f.boundsMs), func(i int) bool { return f.boundsMs[i] >= ms })
	s.buckets[i].Add(1)
	s.sumMs.Add(ms)
}

// sorted returns the series in the order of their label values.
func (f *family) sorted() []*series {
	f.mu.RLock()
	out := make([]*series, 0, len(f.series))
	for _, s := range f.series {
		out = append(out, s)
	}
	f.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].values, out[j].values
		for k := range a {
			if a[k] != b[k] {
				return a[k] < b[k]
			}
		}
		return false
	})
	return out
}

// set is a closed set of label values.
type set map[string]bool

func newSet(words []string) set {
	s := make(set, len(words))
	for _, w := range words {
		s[w] = true
	}
	return s
}
