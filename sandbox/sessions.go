package sandbox

import (
	clist "container/list"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SessionLimits bound what unauthenticated MCP clients can make the server
// keep. Zero fields take the defaults.
type SessionLimits struct {
	// Max is how many sessions are kept; a new one past it closes the least
	// recently used (default DefaultMaxSessions).
	Max int
	// Idle closes a session that has sent nothing for this long (default
	// DefaultSessionIdle).
	Idle time.Duration
}

const (
	DefaultMaxSessions = 5000
	DefaultSessionIdle = 15 * time.Minute
)

// sessionTable is every live session's state, most recently used first.
// Sessions are touched by a receiving middleware on every message they send,
// so "recently used" means recently heard from.
type sessionTable struct {
	limits SessionLimits
	// now is the clock of idleness and of every new session's faults, until
	// a player sets its simulated one.
	now func() time.Time

	mu    sync.Mutex
	order *clist.List // of *sessionState, front = most recent
	byKey map[*mcp.ServerSession]*clist.Element
}

func newSessionTable(l SessionLimits) *sessionTable {
	if l.Max <= 0 {
		l.Max = DefaultMaxSessions
	}
	if l.Idle <= 0 {
		l.Idle = DefaultSessionIdle
	}
	return &sessionTable{limits: l, now: time.Now, order: clist.New(), byKey: map[*mcp.ServerSession]*clist.Element{}}
}

// touch returns the session's state, making it on first use, and marks the
// session as just used. A new session over the cap closes the least recently
// used one; sessions idle past the limit are closed on the way.
func (t *sessionTable) touch(ss *mcp.ServerSession) *sessionState {
	now := t.now()
	t.mu.Lock()
	if el, ok := t.byKey[ss]; ok {
		st := el.Value.(*sessionState)
		st.lastUsed = now
		t.order.MoveToFront(el)
		t.mu.Unlock()
		return st
	}
	st := newSessionState(ss, now, t.now)
	t.byKey[ss] = t.order.PushFront(st)
	var evicted []*sessionState
	for el := t.order.Back(); el != nil && el.Value != st; el = t.order.Back() {
		old := el.Value.(*sessionState)
		if t.order.Len() <= t.limits.Max && now.Sub(old.lastUsed) < t.limits.Idle {
			break
		}
		t.order.Remove(el)
		delete(t.byKey, old.ss)
		evicted = append(evicted, old)
	}
	t.mu.Unlock()

	for _, old := range evicted {
		if old.ss != nil {
			_ = old.ss.Close() // the client's next request gets 404 and starts afresh
		}
	}
	if ss != nil {
		go func() {
			_ = ss.Wait() // however the session ended, forget it
			t.forget(ss, st)
		}()
	}
	return st
}

// forget drops a session's state, unless a newer state has taken its key.
func (t *sessionTable) forget(ss *mcp.ServerSession, st *sessionState) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if el, ok := t.byKey[ss]; ok && el.Value == st {
		t.order.Remove(el)
		delete(t.byKey, ss)
	}
}

// len is how many sessions are kept.
func (t *sessionTable) len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.order.Len()
}
