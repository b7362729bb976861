package search

import (
	"sync"
	"time"
)

// bucket is a token bucket on an injected clock: rate tokens per minute, at
// most burst stored. Reservations may drive the balance negative, which
// queues callers in order; a caller that would have to wait past its
// deadline takes nothing.
type bucket struct {
	mu           sync.Mutex
	now          func() time.Time
	perToken     time.Duration
	burst        float64
	tokens       float64
	last         time.Time
	blockedUntil time.Time // a provider's Retry-After empties the bucket until then (LIM-B4)
}

func newBucket(perMinute, burst int, now func() time.Time) *bucket {
	if perMinute < 1 {
		perMinute = 1
	}
	return newBucketEvery(time.Minute/time.Duration(perMinute), burst, now)
}

// newBucketEvery is a bucket that gains one token every perToken.
func newBucketEvery(perToken time.Duration, burst int, now func() time.Time) *bucket {
	if perToken <= 0 {
		perToken = time.Minute
	}
	if burst < 1 {
		burst = 1
	}
	return &bucket{now: now, perToken: perToken, burst: float64(burst), tokens: float64(burst), last: now()}
}

// bucketFor is the bucket of an engine's admission: its daily quota when
// the provider counts per day, else its rate per minute.
func bucketFor(p Properties, now func() time.Time) *bucket {
	if p.RatePerDay > 0 {
		return newBucketEvery(24*time.Hour/time.Duration(p.RatePerDay), p.Burst, now)
	}
	return newBucket(p.RatePerMinute, p.Burst, now)
}

func (b *bucket) refill(t time.Time) {
	if t.After(b.last) {
		b.tokens += float64(t.Sub(b.last)) / float64(b.perToken)
		if b.tokens > b.burst {
			b.tokens = b.burst
		}
		b.last = t
	}
}

// reserve takes one token if it can be had by deadline and returns how long
// to wait for it; ok is false (and nothing is taken) otherwise.
func (b *bucket) reserve(deadline time.Time) (wait time.Duration, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t := b.now()
	b.refill(t)
	if t.Before(b.blockedUntil) {
		wait = b.blockedUntil.Sub(t)
	}
	if b.tokens < 1 {
		if w := time.Duration((1 - b.tokens) * float64(b.perToken)); w > wait {
			wait = w
		}
	}
	if !t.Add(wait).Before(deadline) && wait > 0 {
		return 0, false
	}
	b.tokens--
	return wait, true
}

// block empties the bucket until t.
func (b *bucket) block(until time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if until.After(b.blockedUntil) {
		b.blockedUntil = until
	}
	b.refill(b.now())
	if b.tokens > 0 {
		b.tokens = 0
	}
}

// limitKeyed is a driver whose provider counts requests per credential or,
// keyless, per address: engines with the same key share one bucket and one
// concurrency cap. The key names the provider and a digest of the
// credential, never the credential.
type limitKeyed interface {
	limitKey() string
}

// pacer is a driver that the provider asked to wait (Stack Exchange's
// backoff): the limiter holds the next request until readyAt, and a wait
// past the deadline skips the engine instead of failing it.
type pacer interface {
	readyAt() time.Time
}
