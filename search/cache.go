package search

import (
	"container/list"
	"strconv"
	"strings"
	"sync"
	"time"
)

// resultCache is the optional result cache of [cache] (REQ-CACHE-001 to
// -007, external design §12): one entry per engine answer, keyed by the
// caller, the engine and the engine request, in memory only, at most
// maxEntries entries of at most maxEntryBytes, each expiring after ttl.
// Only engines whose admission record allows storage use it; a probe of the
// circuit and a query the secret check warned about bypass it. Enabling it
// retains queries for ttl as keys, which the configuration page says.
type resultCache struct {
	mu            sync.Mutex
	now           func() time.Time
	ttl           time.Duration
	maxEntries    int
	maxEntryBytes int
	order         *list.List // of *cacheEntry, most recently used first
	byKey         map[string]*list.Element
}

type cacheEntry struct {
	key     string
	results []RawResult
	expires time.Time
}

func newResultCache(s Settings, now func() time.Time) *resultCache {
	if !s.CacheEnabled {
		return nil
	}
	return &resultCache{
		now: now, ttl: s.CacheTTL, maxEntries: s.CacheMaxEntries, maxEntryBytes: s.CacheMaxEntryBytes,
		order: list.New(), byKey: map[string]*list.Element{},
	}
}

// cacheKey is the caller, the engine and every parameter of the engine
// request (REQ-CACHE-003, -004).
func cacheKey(caller, engine string, r EngineRequest) string {
	return strings.Join([]string{caller, engine, r.Query, string(r.Category), r.Language, r.Region, r.SafeSearch,
		string(r.TimeRange), strconv.Itoa(r.MaxResults)}, "\x00")
}

// get returns a live entry's results.
func (c *resultCache) get(key string) ([]RawResult, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	e := el.Value.(*cacheEntry)
	if !c.now().Before(e.expires) {
		c.order.Remove(el)
		delete(c.byKey, key)
		return nil, false
	}
	c.order.MoveToFront(el)
	return e.results, true
}

// put stores an answer unless it is larger than one entry may be; the
// least recently used entries go first when the cache is full.
func (c *resultCache) put(key string, results []RawResult) {
	size := len(key)
	for _, r := range results {
		size += len(r.Title) + len(r.URL) + len(r.Snippet) + len(r.Date)
	}
	if size > c.maxEntryBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok {
		c.order.Remove(el)
		delete(c.byKey, key)
	}
	c.byKey[key] = c.order.PushFront(&cacheEntry{key: key, results: results, expires: c.now().Add(c.ttl)})
	for c.order.Len() > c.maxEntries {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byKey, last.Value.(*cacheEntry).key)
	}
}
