package web

import (
	"math"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim/internal/namekey"
	"github.com/examsim/examsim/web/internal/ratelimit"
)

// Limit is a token bucket: Burst tries at once, then one more every Every.
type Limit = ratelimit.Limit

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

// DefaultConsoleSessionsPerClient lets a room behind one school address
// open a console each, while one client opens at most 50 + 180 in the 30
// minutes a session stays: under MaxConsoleSessions (500), so it cannot
// push out another learner's session in use.
var DefaultConsoleSessionsPerClient = Limit{Burst: 50, Every: 10 * time.Second}

// limits is the server's limiters, made in New from its Config.
type limits struct {
	loginClient, loginAccount, registration *ratelimit.Limiter
	joinClient, joinFailures                *ratelimit.Limiter
	// console limits new tool-console sessions per client address.
	console *ratelimit.Limiter
	// anonAnswers limits practice answers from learners without an account,
	// per client address.
	anonAnswers *ratelimit.Limiter
}

// DefaultAnonymousAnswersPerClient lets a room of learners without accounts
// practise from behind one school address (60 at once, then two a second),
// while a script cannot store answers by the thousand.
var DefaultAnonymousAnswersPerClient = Limit{Burst: 60, Every: 500 * time.Millisecond}

// newLimits makes the limiters cfg asks for; a zero limit means its default.
func newLimits(cfg Config) limits {
	or := func(l, def Limit) Limit {
		if l == (Limit{}) {
			return def
		}
		return l
	}
	rl := cfg.RateLimits
	if rl == (RateLimits{}) {
		rl = DefaultRateLimits
	}
	return limits{
		loginClient: ratelimit.New(rl.LoginPerClient), loginAccount: ratelimit.New(rl.LoginPerAccount),
		registration: ratelimit.New(rl.RegisterPerClient),
		joinClient:   ratelimit.New(rl.JoinPerClient), joinFailures: ratelimit.New(rl.JoinFailuresPerClient),
		console:     ratelimit.New(or(cfg.ConsoleSessionsPerClient, DefaultConsoleSessionsPerClient)),
		anonAnswers: ratelimit.New(or(cfg.AnonymousAnswersPerClient, DefaultAnonymousAnswersPerClient)),
	}
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
