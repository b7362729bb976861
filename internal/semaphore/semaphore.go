package semaphore

import "context"

// Semaphore admits at most its capacity of holders at once. The zero
// value admits none; make one with New.
type Semaphore chan struct{}

// New returns a semaphore of n slots; n below 1 counts as 1.
func New(n int) Semaphore {
	return make(Semaphore, max(n, 1))
}

// Acquire takes a slot, waiting for one to free, and reports whether it
// did: a context that has ended, or ends while it waits, takes none.
func (s Semaphore) Acquire(ctx context.Context) bool {
	if ctx.Err() != nil {
		return false
	}
	select {
	case s <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

// Release frees a slot taken by Acquire.
func (s Semaphore) Release() { <-s }
