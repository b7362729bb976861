package fetch

import (
	"container/list"
	"sync"
	"unicode/utf8"

	"rypsok/egress"
	"rypsok/tool"
)

// urlSet is the bounded set of URLs web_search returned, for strict mode
// (REQ-SEC-021, LIM-F14): exact strings, the least recently remembered
// evicted first. It is safe for concurrent use.
type urlSet struct {
	maxEntries int

	mu    sync.Mutex
	order *list.List               // of string, most recently remembered at the back
	index map[string]*list.Element // URL -> its element of order
}

func newURLSet(maxEntries int) *urlSet {
	return &urlSet{maxEntries: maxEntries, order: list.New(), index: make(map[string]*list.Element)}
}

// add records u; a URL longer than LIM-F9 could never be fetched and is not
// kept.
func (s *urlSet) add(u string) {
	if u == "" || len(u) > 4*tool.MaxURLChars || utf8.RuneCountInString(u) > tool.MaxURLChars {
		return
	}
	u = urlKey(u)
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.index[u]; ok {
		s.order.MoveToBack(el)
		return
	}
	s.index[u] = s.order.PushBack(u)
	for s.order.Len() > s.maxEntries {
		oldest := s.order.Front()
		s.order.Remove(oldest)
		delete(s.index, oldest.Value.(string))
	}
}

func (s *urlSet) has(u string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.index[urlKey(u)]
	return ok
}

// urlKey is the form a URL is remembered and looked up in: its host in the
// one canonical form of egress, so that a result and a request that write
// the same host differently are the same URL, and two different hosts never
// are.
func urlKey(raw string) string {
	if u, err := egress.ParseURL(raw); err == nil {
		if k, ok := egress.CanonicalURL(u); ok {
			return k
		}
	}
	return raw
}

func (s *urlSet) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.order.Len()
}
