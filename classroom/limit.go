package classroom

import (
	"sync"
	"time"
)

// Limiter counts failures per client in a fixed window and blocks a client
// that has too many, so join codes cannot be guessed by trying them all:
// a million codes at MaxFailures per window would take years.
type Limiter struct {
	max    int
	window time.Duration
	now    func() time.Time

	mu      sync.Mutex
	clients map[string]*failures
	swept   time.Time
}

type failures struct {
	n     int
	start time.Time
}

// NewLimiter blocks a client after max failures within window.
func NewLimiter(max int, window time.Duration) *Limiter {
	return &Limiter{max: max, window: window, now: time.Now, clients: map[string]*failures{}}
}

// Blocked reports whether the client has used up its failures.
func (l *Limiter) Blocked(client string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.clients[client]
	return f != nil && l.now().Sub(f.start) < l.window && f.n >= l.max
}

// Fail records a failure by the client.
func (l *Limiter) Fail(client string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if now.Sub(l.swept) > l.window { // forget clients whose window has passed
		for k, f := range l.clients {
			if now.Sub(f.start) >= l.window {
				delete(l.clients, k)
			}
		}
		l.swept = now
	}
	f := l.clients[client]
	if f == nil || now.Sub(f.start) >= l.window {
		f = &failures{start: now}
		l.clients[client] = f
	}
	f.n++
}
