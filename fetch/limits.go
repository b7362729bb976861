package fetch

import (
	"context"
	"sync"

	"rypsok/internal/semaphore"
)

// hostLimiter admits one fetch per host at a time (LIM-C4). A host's entry
// lives only while a fetch holds or waits for it, so the map is bounded by
// the calls in progress.
type hostLimiter struct {
	mu    sync.Mutex
	hosts map[string]*hostSlot
}

type hostSlot struct {
	turn  semaphore.Semaphore
	users int // holders and waiters; guarded by hostLimiter.mu
}

func newHostLimiter() *hostLimiter {
	return &hostLimiter{hosts: make(map[string]*hostSlot)}
}

// acquire waits for host's turn; false when ctx ended first.
func (l *hostLimiter) acquire(ctx context.Context, host string) bool {
	l.mu.Lock()
	slot, ok := l.hosts[host]
	if !ok {
		slot = &hostSlot{turn: semaphore.New(1)}
		l.hosts[host] = slot
	}
	slot.users++
	l.mu.Unlock()
	if slot.turn.Acquire(ctx) {
		return true
	}
	l.leave(host, slot)
	return false
}

func (l *hostLimiter) release(host string) {
	l.mu.Lock()
	slot := l.hosts[host]
	l.mu.Unlock()
	slot.turn.Release()
	l.leave(host, slot)
}

func (l *hostLimiter) leave(host string, slot *hostSlot) {
	l.mu.Lock()
	defer l.mu.Unlock()
	slot.users--
	if slot.users == 0 {
		delete(l.hosts, host)
	}
}
