package ratelimit

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestTokenBucket(t *testing.T) {
	l := New(Limit{Burst: 3, Every: 10 * time.Second})
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 3; i++ {
		if ok, _ := l.Take("a", now); !ok {
			t.Fatalf("take %d of a burst of 3 refused", i)
		}
	}
	ok, wait := l.Take("a", now)
	if ok || wait != 10*time.Second {
		t.Fatalf("over the burst: ok %v, wait %v (want 10s)", ok, wait)
	}
	if ok, _ := l.Take("b", now); !ok {
		t.Fatal("another key shares a's bucket")
	}
	if ok, wait := l.Take("a", now.Add(4*time.Second)); ok || wait != 6*time.Second {
		t.Fatalf("4s later: ok %v, wait %v (want 6s)", ok, wait)
	}
	if ok, _ := l.Take("a", now.Add(10*time.Second)); !ok {
		t.Fatal("a token should be back after 10s")
	}
}

// TestChargeGoesIntoDebt: failures checked at the same moment all pass
// allows; each is charged afterwards, and the debt is paid back in time.
func TestChargeGoesIntoDebt(t *testing.T) {
	l := New(Limit{Burst: 2, Every: 10 * time.Second})
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if ok, _ := l.Allows("a", now); !ok {
		t.Fatal("a new key is refused")
	}
	for i := 0; i < 5; i++ { // five failures checked at once, burst 2
		l.Charge("a", now)
	}
	if ok, wait := l.Allows("a", now); ok || wait != 40*time.Second {
		t.Fatalf("after 5 failures with a burst of 2: ok %v, wait %v (want 40s: three owed, one to spend)", ok, wait)
	}
	if ok, _ := l.Allows("a", now.Add(39*time.Second)); ok {
		t.Fatal("the debt was forgiven early")
	}
	if ok, _ := l.Allows("a", now.Add(40*time.Second+time.Millisecond)); !ok {
		t.Fatal("the debt is paid after 40s")
	}
	if ok, _ := l.Allows("b", now); !ok {
		t.Fatal("another key shares a's debt")
	}
}

func TestLimiterMemoryIsBounded(t *testing.T) {
	l := New(Limit{Burst: 2, Every: time.Minute})
	l.max = 100
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// A flood of one-off keys, whose buckets refill as time passes...
	for i := 0; i < 1000; i++ {
		l.Take(fmt.Sprint("flood-", i), now.Add(time.Duration(i)*time.Second))
		if len(l.buckets) > l.max {
			t.Fatalf("%d buckets, bound %d", len(l.buckets), l.max)
		}
	}
	// ...and a flood of keys that all stay drained.
	for i := 0; i < 1000; i++ {
		k := fmt.Sprint("drained-", i)
		l.Take(k, now)
		l.Take(k, now)
		if len(l.buckets) > l.max {
			t.Fatalf("%d buckets, bound %d", len(l.buckets), l.max)
		}
	}
}

func TestFullBucketsAreForgottenFirst(t *testing.T) {
	l := New(Limit{Burst: 2, Every: time.Hour})
	l.max = 10
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l.Take("guesser", now)
	l.Take("guesser", now)
	for i := 0; i < 9; i++ {
		l.Take(fmt.Sprint("once-", i), now)
	}
	// Two hours on, the one-off keys are full again; the guesser drains
	// its bucket once more.
	later := now.Add(2 * time.Hour)
	l.Take("guesser", later)
	l.Take("guesser", later)
	l.Take("newcomer", later) // the map is full: room is made
	if _, ok := l.buckets["guesser"]; !ok {
		t.Fatal("a drained bucket was forgotten while full ones were kept")
	}
	if ok, _ := l.Take("guesser", later); ok {
		t.Fatal("the guesser got a fresh bucket")
	}
}

// TestLimiterConcurrent: goroutines take, check and charge the same and
// different keys at once, with so many keys that the map keeps making room;
// and a key everybody takes at once gives out exactly its burst.
func TestLimiterConcurrent(t *testing.T) {
	l := New(Limit{Burst: 50, Every: time.Hour})
	l.max = 64 // make room often, while others take
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				l.Take("shared", now)
				own := fmt.Sprintf("client-%d-%d", g, i)
				if ok, _ := l.Allows(own, now); ok {
					l.Charge(own, now)
				}
				l.Take(own, now)
			}
		}()
	}
	wg.Wait()
	if n := len(l.buckets); n > l.max {
		t.Errorf("the map holds %d keys, over its bound of %d", n, l.max)
	}

	// With room for every key, the shared one gives out exactly its burst.
	roomy := New(Limit{Burst: 50, Every: time.Hour})
	var granted atomic.Int64
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				if ok, _ := roomy.Take("shared", now); ok {
					granted.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if g := granted.Load(); g != 50 {
		t.Errorf("1,600 concurrent takes got %d tokens, want exactly the burst of 50", g)
	}
}
