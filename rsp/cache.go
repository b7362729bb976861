package rsp

import (
	"container/list"
	"crypto/sha256"
	"encoding/binary"
	"sync"
)

// cacheKey is the SHA-256 of (hook, content, plugin name, plugin version,
// argv), each length-prefixed so that no two tuples share a key.
type cacheKey [sha256.Size]byte

func keyOf(hook, content, name, version string, argv []string) cacheKey {
	h := sha256.New()
	var n [8]byte
	put := func(s string) {
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	put(hook)
	put(content)
	put(name)
	put(version)
	binary.BigEndian.PutUint64(n[:], uint64(len(argv)))
	h.Write(n[:])
	for _, a := range argv {
		put(a)
	}
	var k cacheKey
	h.Sum(k[:0])
	return k
}

// verdictCache is a bounded LRU of answers. It keeps no content: the key
// is a hash and an answer holds spans, types and strings the plugin wrote.
type verdictCache struct {
	mu    sync.Mutex
	limit int
	order *list.List // front is the most recently used
	items map[cacheKey]*list.Element
}

type cacheEntry struct {
	key    cacheKey
	answer Answer
}

func newVerdictCache(limit int) *verdictCache {
	return &verdictCache{limit: limit, order: list.New(), items: map[cacheKey]*list.Element{}}
}

func (c *verdictCache) get(k cacheKey) (Answer, bool) {
	if c == nil || c.limit <= 0 {
		return Answer{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[k]
	if !ok {
		return Answer{}, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cacheEntry).answer, true
}

func (c *verdictCache) put(k cacheKey, a Answer) {
	if c == nil || c.limit <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		e.Value.(*cacheEntry).answer = a
		c.order.MoveToFront(e)
		return
	}
	c.items[k] = c.order.PushFront(&cacheEntry{key: k, answer: a})
	for c.order.Len() > c.limit {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(*cacheEntry).key)
	}
}

func (c *verdictCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
