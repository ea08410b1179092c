package web

import (
	"fmt"
	"io"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// The sweep after the sandbox's concurrent-map crash (issue 11): every piece
// of shared state in the web layer is hammered from many goroutines at once,
// so `go test -race` checks its lock.

// TestLimiterConcurrently spends one key's tokens from many goroutines at
// once (exactly the burst may pass), then floods a small limiter with new
// keys, checks and refunds while it evicts (its bound must hold).
func TestLimiterConcurrently(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := newLimiter(Limit{Burst: 5, Every: time.Second})
	var wg sync.WaitGroup
	var mu sync.Mutex
	granted := 0
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if ok, _ := l.take("shared", now); ok {
					mu.Lock()
					granted++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if granted != 5 {
		t.Errorf("%d tokens granted on one key at one instant, want the burst of 5", granted)
	}

	flood := newLimiter(Limit{Burst: 5, Every: time.Second})
	flood.max = 64 // small, so makeRoom runs while others take
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				key := fmt.Sprintf("k%d-%d", g, i)
				flood.allows(key, now)
				flood.take(key, now)
				flood.refund(fmt.Sprintf("k%d-%d", g, i%7), now)
			}
		}()
	}
	wg.Wait()
	flood.mu.Lock()
	n := len(flood.buckets)
	flood.mu.Unlock()
	if n > flood.max {
		t.Errorf("%d buckets kept, over the bound of %d", n, flood.max)
	}
}

// TestFragmentCacheConcurrently renders and reads room fragments for many
// rooms and versions at once; each caller gets the fragment of its own
// version, never another's.
func TestFragmentCacheConcurrently(t *testing.T) {
	cs := &classState{frags: map[int64]*roomFragments{}}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 300; i++ {
				room, version := int64(i%1200), uint64(1+(i+g)%3)
				want := fmt.Sprintf("room %d v%d th", room, version)
				b, err := cs.fragment(room, version, "th", func() ([]byte, error) { return []byte(want), nil })
				if err != nil || string(b) != want {
					select {
					case errs <- fmt.Sprintf("room %d v%d: got %q (%v)", room, version, b, err):
					default:
					}
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestMetricsConcurrently scrapes /metrics from many goroutines while the
// metrics are first built.
func TestMetricsConcurrently(t *testing.T) {
	s := &Server{}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 5; i++ {
				rec := httptest.NewRecorder()
				s.classroomState().metrics.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
				body, _ := io.ReadAll(rec.Body)
				if rec.Code != 200 || len(body) == 0 {
					t.Errorf("scrape: %d, %d bytes", rec.Code, len(body))
					return
				}
			}
		}()
	}
	wg.Wait()
}
