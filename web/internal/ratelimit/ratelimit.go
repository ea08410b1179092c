// Package ratelimit keeps token buckets per key (a client address, an
// account), with a bound on the keys it remembers.
package ratelimit

import (
	"math"
	"sync"
	"time"
)

// Limit is a token bucket: Burst tries at once, then one more every Every.
type Limit struct {
	Burst int
	Every time.Duration
}

// maxLimiterKeys bounds each limiter's memory: about 100 bytes a key.
const maxLimiterKeys = 50000

// Limiter keeps one token bucket per key.
type Limiter struct {
	limit Limit
	max   int

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time // when tokens was counted
}

// New makes a limiter of l per key.
func New(l Limit) *Limiter {
	return &Limiter{limit: l, max: maxLimiterKeys, buckets: map[string]*bucket{}}
}

// refill brings a bucket's tokens up to now.
func (l *Limiter) refill(b *bucket, now time.Time) {
	if l.limit.Every > 0 && now.After(b.at) {
		b.tokens = math.Min(float64(l.limit.Burst), b.tokens+float64(now.Sub(b.at))/float64(l.limit.Every))
	}
	b.at = now
}

// bucketFor returns key's bucket, refilled to now; a new key starts full.
// The caller holds l.mu.
func (l *Limiter) bucketFor(key string, now time.Time) *bucket {
	b := l.buckets[key]
	if b == nil {
		l.makeRoom(now)
		b = &bucket{tokens: float64(l.limit.Burst), at: now}
		l.buckets[key] = b
	}
	l.refill(b, now)
	return b
}

// Take spends one of key's tokens, or says how long until there is one.
func (l *Limiter) Take(key string, now time.Time) (ok bool, wait time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.bucketFor(key, now)
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	if l.limit.Every <= 0 {
		return false, time.Hour
	}
	return false, time.Duration((1 - b.tokens) * float64(l.limit.Every))
}

// Allows reports whether key has a token left, without spending it, or how
// long until it has one. It suits limits on failures, charged with Take only
// once a failure happens: charging first and refunding later would refuse a
// burst of concurrent successes.
func (l *Limiter) Allows(key string, now time.Time) (ok bool, wait time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[key]
	if b == nil {
		return true, 0
	}
	l.refill(b, now)
	if b.tokens >= 1 {
		return true, 0
	}
	if l.limit.Every <= 0 {
		return false, time.Hour
	}
	return false, time.Duration((1 - b.tokens) * float64(l.limit.Every))
}

// Charge spends one of key's tokens for a failure that has happened,
// checked with Allows beforehand. Unlike Take it may leave the bucket in
// debt: failures checked at the same moment all passed allows, and each is
// paid back in time, so concurrency buys a guesser no extra tries.
func (l *Limiter) Charge(key string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.bucketFor(key, now)
	b.tokens--
}

// makeRoom keeps the map under its bound: first it forgets buckets that
// have filled up again (they are as good as new), then, if a flood of keys
// left none full, a tenth of the rest, chosen by Go's random map order.
func (l *Limiter) makeRoom(now time.Time) {
	if len(l.buckets) < l.max {
		return
	}
	for k, b := range l.buckets {
		if l.refill(b, now); b.tokens >= float64(l.limit.Burst) {
			delete(l.buckets, k)
		}
	}
	for k := range l.buckets {
		if len(l.buckets) < l.max*9/10 {
			break
		}
		delete(l.buckets, k)
	}
}
