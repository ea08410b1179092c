package web

import (
	"fmt"
	"net/http"
	"net/netip"
	"testing"
	"time"
)

func TestTokenBucket(t *testing.T) {
	l := newLimiter(Limit{Burst: 3, Every: 10 * time.Second})
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 3; i++ {
		if ok, _ := l.take("a", now); !ok {
			t.Fatalf("take %d of a burst of 3 refused", i)
		}
	}
	ok, wait := l.take("a", now)
	if ok || wait != 10*time.Second {
		t.Fatalf("over the burst: ok %v, wait %v (want 10s)", ok, wait)
	}
	if ok, _ := l.take("b", now); !ok {
		t.Fatal("another key shares a's bucket")
	}
	if ok, wait := l.take("a", now.Add(4*time.Second)); ok || wait != 6*time.Second {
		t.Fatalf("4s later: ok %v, wait %v (want 6s)", ok, wait)
	}
	if ok, _ := l.take("a", now.Add(10*time.Second)); !ok {
		t.Fatal("a token should be back after 10s")
	}
}

// TestChargeGoesIntoDebt: failures checked at the same moment all pass
// allows; each is charged afterwards, and the debt is paid back in time.
func TestChargeGoesIntoDebt(t *testing.T) {
	l := newLimiter(Limit{Burst: 2, Every: 10 * time.Second})
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if ok, _ := l.allows("a", now); !ok {
		t.Fatal("a new key is refused")
	}
	for i := 0; i < 5; i++ { // five failures checked at once, burst 2
		l.charge("a", now)
	}
	if ok, wait := l.allows("a", now); ok || wait != 40*time.Second {
		t.Fatalf("after 5 failures with a burst of 2: ok %v, wait %v (want 40s: three owed, one to spend)", ok, wait)
	}
	if ok, _ := l.allows("a", now.Add(39*time.Second)); ok {
		t.Fatal("the debt was forgiven early")
	}
	if ok, _ := l.allows("a", now.Add(40*time.Second+time.Millisecond)); !ok {
		t.Fatal("the debt is paid after 40s")
	}
	if ok, _ := l.allows("b", now); !ok {
		t.Fatal("another key shares a's debt")
	}
}

func TestLimiterMemoryIsBounded(t *testing.T) {
	l := newLimiter(Limit{Burst: 2, Every: time.Minute})
	l.max = 100
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// A flood of one-off keys, whose buckets refill as time passes...
	for i := 0; i < 1000; i++ {
		l.take(fmt.Sprint("flood-", i), now.Add(time.Duration(i)*time.Second))
		if len(l.buckets) > l.max {
			t.Fatalf("%d buckets, bound %d", len(l.buckets), l.max)
		}
	}
	// ...and a flood of keys that all stay drained.
	for i := 0; i < 1000; i++ {
		k := fmt.Sprint("drained-", i)
		l.take(k, now)
		l.take(k, now)
		if len(l.buckets) > l.max {
			t.Fatalf("%d buckets, bound %d", len(l.buckets), l.max)
		}
	}
}

func TestFullBucketsAreForgottenFirst(t *testing.T) {
	l := newLimiter(Limit{Burst: 2, Every: time.Hour})
	l.max = 10
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l.take("guesser", now)
	l.take("guesser", now)
	for i := 0; i < 9; i++ {
		l.take(fmt.Sprint("once-", i), now)
	}
	// Two hours on, the one-off keys are full again; the guesser drains
	// its bucket once more.
	later := now.Add(2 * time.Hour)
	l.take("guesser", later)
	l.take("guesser", later)
	l.take("newcomer", later) // the map is full: room is made
	if _, ok := l.buckets["guesser"]; !ok {
		t.Fatal("a drained bucket was forgotten while full ones were kept")
	}
	if ok, _ := l.take("guesser", later); ok {
		t.Fatal("the guesser got a fresh bucket")
	}
}

func TestClientAddress(t *testing.T) {
	s := &Server{Config: Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("::1/128")}}}
	tests := []struct {
		name, remote, xff, proto string
		want                     string
		key                      string
		tls                      bool
	}{
		{"direct", "203.0.113.5:4000", "", "", "203.0.113.5", "203.0.113.5", false},
		{"forged headers from a client", "203.0.113.5:4000", "1.2.3.4", "https", "203.0.113.5", "203.0.113.5", false},
		{"through the proxy", "10.0.0.2:5000", "198.51.100.7", "https", "198.51.100.7", "198.51.100.7", true},
		{"a client's own forged hop is skipped", "10.0.0.2:5000", "1.2.3.4, 198.51.100.7", "http", "198.51.100.7", "198.51.100.7", false},
		{"two trusted proxies", "10.0.0.2:5000", "198.51.100.7, 10.9.9.9", "https", "198.51.100.7", "198.51.100.7", true},
		{"garbage stops at the proxy", "10.0.0.2:5000", "198.51.100.7, not-an-ip", "", "10.0.0.2", "10.0.0.2", false},
		{"the proxy without a header", "10.0.0.2:5000", "", "", "10.0.0.2", "10.0.0.2", false},
		{"IPv6 counts by /64", "[2001:db8:1:2:3:4:5:6]:443", "", "", "2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64", false},
		{"IPv6 proxy, IPv4 client", "[::1]:80", "192.0.2.9", "HTTPS", "192.0.2.9", "192.0.2.9", true},
	}
	for _, tt := range tests {
		r, _ := http.NewRequest("GET", "/", nil)
		r.RemoteAddr = tt.remote
		if tt.xff != "" {
			r.Header.Set("X-Forwarded-For", tt.xff)
		}
		if tt.proto != "" {
			r.Header.Set("X-Forwarded-Proto", tt.proto)
		}
		if got := s.clientIP(r); got != tt.want {
			t.Errorf("%s: client %s, want %s", tt.name, got, tt.want)
		}
		if got := s.clientKey(r); got != tt.key {
			t.Errorf("%s: key %s, want %s", tt.name, got, tt.key)
		}
		if got := s.overTLS(r); got != tt.tls {
			t.Errorf("%s: over TLS %v, want %v", tt.name, got, tt.tls)
		}
	}
}
