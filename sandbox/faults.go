package sandbox

import (
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The sandbox's faults run on a clock: each session's, which is the wall
// clock for outside clients and the simulated clock for the in-process
// agents. A fault says how long to wait (retry_after_ms, Retry-After
// semantics); a call made before that fails again, one after it succeeds.
const (
	// SlowOutage is how long a slow.example email's customer database stays
	// down after the first call for it in a session; its errors say exactly
	// how much of it is left.
	SlowOutage = 4 * time.Second
	// DownOutage is how long a down.example email's database stays down. The
	// server cannot know when it is back, so its hint is only DownHint.
	DownOutage = 10 * time.Minute
	DownHint   = 2 * time.Second
	// NewsWindow is the news API's rate-limit window: SourcesBeforeRateLimit
	// sources per window, the window starting with the first source fetched.
	NewsWindow = 3 * time.Second
	// LiveWindow is the live-news feed's window (queries with the word
	// "live"): its quota is shared with other tenants, so its 429s can only
	// hint LiveHint although the quota comes back after the whole window.
	LiveWindow = time.Minute
	LiveHint   = 2 * time.Second
)

// sessionState is what one MCP session has done that changes later answers.
// A client may send many tools/call requests at once in one session and the
// SDK runs them in parallel, so every field below mu is reached only under it.
type sessionState struct {
	ss       *mcp.ServerSession
	lastUsed time.Time // guarded by the sessionTable's lock

	mu       sync.Mutex
	clock    func() time.Time
	outages  map[string]time.Time // email -> when its database is back
	blips    map[string]int       // flaky.example email -> calls so far
	feeds    map[string]*window   // news feed -> its current rate-limit window
	refunded map[string]float64   // order -> pounds refunded in this session
	refused  map[string]float64   // order -> the largest refund refused as over the limit
}

type window struct {
	start time.Time
	used  int
}

func newSessionState(ss *mcp.ServerSession, now time.Time, clock func() time.Time) *sessionState {
	return &sessionState{ss: ss, lastUsed: now, clock: clock,
		outages: map[string]time.Time{}, blips: map[string]int{}, feeds: map[string]*window{},
		refunded: map[string]float64{}, refused: map[string]float64{}}
}

// setClock makes the session run on another clock (the player's simulated one).
func (st *sessionState) setClock(now func() time.Time) {
	st.mu.Lock()
	st.clock = now
	st.mu.Unlock()
}

// customerDatabase says whether the customer database answers a lookup of
// email now; if not, how long the error may tell the caller to wait.
func (st *sessionState) customerDatabase(email string) (up bool, retryAfter time.Duration) {
	length, hint := SlowOutage, time.Duration(0)
	switch {
	case strings.HasSuffix(email, "@flaky.example"): // every other call meets the failing replica
		st.mu.Lock()
		defer st.mu.Unlock()
		st.blips[email]++
		return st.blips[email]%2 == 0, 0
	case strings.HasSuffix(email, "@slow.example"):
	case strings.HasSuffix(email, "@down.example"):
		length, hint = DownOutage, DownHint
	default:
		return true, 0
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	now := st.clock()
	back, seen := st.outages[email]
	if !seen {
		back = now.Add(length)
		st.outages[email] = back
	}
	if !now.Before(back) {
		return true, 0
	}
	if hint > 0 {
		return false, hint
	}
	return false, back.Sub(now)
}

// fetchSources takes up to n sources from a feed's quota now: how many it
// may fetch, and, when it ran out, how long the error may tell the caller
// to wait.
func (st *sessionState) fetchSources(feed string, n int) (got int, retryAfter time.Duration) {
	length, hint := NewsWindow, time.Duration(0)
	if feed == "live" {
		length, hint = LiveWindow, LiveHint
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	now := st.clock()
	w := st.feeds[feed]
	if w == nil || !now.Before(w.start.Add(length)) {
		w = &window{start: now}
		st.feeds[feed] = w
	}
	got = min(n, SourcesBeforeRateLimit-w.used)
	w.used += got
	if got == n {
		return got, 0
	}
	if hint > 0 {
		return got, hint
	}
	return got, w.start.Add(length).Sub(now)
}

// refundCheck is what the refund rules see for one order.
type refundCheck struct {
	refunded float64 // already refunded on this order in this session
	refused  float64 // the largest refund refused over the limit, 0 if none
}

// refundOrder runs the refund rules for amount on an order atomically: check
// holds the rules and returns a failure or nil; on nil the amount counts as
// refunded. A refusal over the limit is remembered, so a split is known.
func (st *sessionState) refundOrder(id string, amount float64, check func(refundCheck) (*toolError, bool)) *toolError {
	st.mu.Lock()
	defer st.mu.Unlock()
	terr, overLimit := check(refundCheck{refunded: st.refunded[id], refused: st.refused[id]})
	if terr != nil {
		if overLimit {
			st.refused[id] = max(st.refused[id], amount)
		}
		return terr
	}
	st.refunded[id] += amount
	return nil
}
