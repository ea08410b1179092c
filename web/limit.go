package web

import (
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim/internal/namekey"
)

// Limit is a token bucket: Burst tries at once, then one more every Every.
type Limit struct {
	Burst int
	Every time.Duration
}

// RateLimits are the limits on what can be tried by the thousand: guessing
// passwords, making accounts and guessing join codes. Counting is per
// client address (see clientKey), and for logins also per account.
type RateLimits struct {
	// LoginPerClient and LoginPerAccount count failed logins only, charged
	// once the password is found wrong, so a whole class logging in at once
	// from one school address is never held up by its right passwords. LoginPerAccount slows a guesser spread over many
	// addresses to about 30 tries an hour per account.
	LoginPerClient, LoginPerAccount Limit
	// RegisterPerClient counts every registration.
	RegisterPerClient Limit
	// JoinPerClient counts every join; its burst lets a full room join at
	// once from behind one school address. JoinFailuresPerClient counts
	// wrong codes: with a million codes, guessing one at its pace takes
	// months.
	JoinPerClient, JoinFailuresPerClient Limit
}

// DefaultRateLimits are the limits unless Config says otherwise.
var DefaultRateLimits = RateLimits{
	LoginPerClient:        Limit{Burst: 30, Every: 10 * time.Second},
	LoginPerAccount:       Limit{Burst: 10, Every: 2 * time.Minute},
	RegisterPerClient:     Limit{Burst: 30, Every: 30 * time.Second},
	JoinPerClient:         Limit{Burst: 2000, Every: 100 * time.Millisecond},
	JoinFailuresPerClient: Limit{Burst: 10, Every: time.Minute},
}

// maxLimiterKeys bounds each limiter's memory: about 100 bytes a key.
const maxLimiterKeys = 50000

// limiter keeps one token bucket per key.
type limiter struct {
	limit Limit
	max   int

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time // when tokens was counted
}

func newLimiter(l Limit) *limiter {
	return &limiter{limit: l, max: maxLimiterKeys, buckets: map[string]*bucket{}}
}

// refill brings a bucket's tokens up to now.
func (l *limiter) refill(b *bucket, now time.Time) {
	if l.limit.Every > 0 && now.After(b.at) {
		b.tokens = math.Min(float64(l.limit.Burst), b.tokens+float64(now.Sub(b.at))/float64(l.limit.Every))
	}
	b.at = now
}

// bucketFor returns key's bucket, refilled to now; a new key starts full.
// The caller holds l.mu.
func (l *limiter) bucketFor(key string, now time.Time) *bucket {
	b := l.buckets[key]
	if b == nil {
		l.makeRoom(now)
		b = &bucket{tokens: float64(l.limit.Burst), at: now}
		l.buckets[key] = b
	}
	l.refill(b, now)
	return b
}

// take spends one of key's tokens, or says how long until there is one.
func (l *limiter) take(key string, now time.Time) (ok bool, wait time.Duration) {
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

// allows reports whether key has a token left, without spending it, or how
// long until it has one. It suits limits on failures, charged with take only
// once a failure happens: charging first and refunding later would refuse a
// burst of concurrent successes.
func (l *limiter) allows(key string, now time.Time) (ok bool, wait time.Duration) {
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

// charge spends one of key's tokens for a failure that has happened,
// checked with allows beforehand. Unlike take it may leave the bucket in
// debt: failures checked at the same moment all passed allows, and each is
// paid back in time, so concurrency buys a guesser no extra tries.
func (l *limiter) charge(key string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.bucketFor(key, now)
	b.tokens--
}

// makeRoom keeps the map under its bound: first it forgets buckets that
// have filled up again (they are as good as new), then, if a flood of keys
// left none full, a tenth of the rest, chosen by Go's random map order.
func (l *limiter) makeRoom(now time.Time) {
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

// DefaultConsoleSessionsPerClient lets a room behind one school address
// open a console each, while one client opens at most 50 + 180 in the 30
// minutes a session stays: under MaxConsoleSessions (500), so it cannot
// push out another learner's session in use.
var DefaultConsoleSessionsPerClient = Limit{Burst: 50, Every: 10 * time.Second}

// limits is the server's limiters, made on first use.
type limits struct {
	once                                    sync.Once
	loginClient, loginAccount, registration *limiter
	joinClient, joinFailures                *limiter
	consoleOnce                             sync.Once
	console                                 *limiter
	anonAnswersOnce                         sync.Once
	anonAnswers                             *limiter
}

// DefaultAnonymousAnswersPerClient lets a room of learners without accounts
// practise from behind one school address (60 at once, then two a second),
// while a script cannot store answers by the thousand.
var DefaultAnonymousAnswersPerClient = Limit{Burst: 60, Every: 500 * time.Millisecond}

// anonymousAnswers limits practice answers from learners without an
// account, per client address.
func (ls *limits) anonymousAnswers(s *Server) *limiter {
	ls.anonAnswersOnce.Do(func() {
		l := s.AnonymousAnswersPerClient
		if l == (Limit{}) {
			l = DefaultAnonymousAnswersPerClient
		}
		ls.anonAnswers = newLimiter(l)
	})
	return ls.anonAnswers
}

// consoleClient limits new tool-console sessions per client address.
func (ls *limits) consoleClient(s *Server) *limiter {
	ls.consoleOnce.Do(func() {
		l := s.ConsoleSessionsPerClient
		if l == (Limit{}) {
			l = DefaultConsoleSessionsPerClient
		}
		ls.console = newLimiter(l)
	})
	return ls.console
}

func (s *Server) limiters() *limits {
	ls := &s.limits
	ls.once.Do(func() {
		rl := s.RateLimits
		if rl == (RateLimits{}) {
			rl = DefaultRateLimits
		}
		ls.loginClient, ls.loginAccount = newLimiter(rl.LoginPerClient), newLimiter(rl.LoginPerAccount)
		ls.registration = newLimiter(rl.RegisterPerClient)
		ls.joinClient, ls.joinFailures = newLimiter(rl.JoinPerClient), newLimiter(rl.JoinFailuresPerClient)
	})
	return ls
}

// accountKey is what the per-account login limit counts: usernames are one
// name ignoring case and look-alikes, so the limit is too.
func accountKey(username string) string {
	k := namekey.Of(username)
	if len(k) > 64 {
		k = k[:64]
	}
	return k
}

// retryAfter tells the client when to come back, in the Retry-After header
// (whole seconds), and returns the wait in whole minutes for the message.
func retryAfter(c echo.Context, wait time.Duration) int {
	secs := int(math.Ceil(wait.Seconds()))
	if secs < 1 {
		secs = 1
	}
	c.Response().Header().Set("Retry-After", strconv.Itoa(secs))
	return (secs + 59) / 60
}
