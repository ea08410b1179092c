package web

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// These tests share state between goroutines the way concurrent requests
// do; `go test -race` (make test) fails them on any unguarded access, and
// their own checks fail on a lost update.

// TestFragmentCacheConcurrent: many streams of many rooms ask the
// classroom's fragment cache for fragments of changing versions at once.
// Each must get the fragment of the version it asked for, never another's.
func TestFragmentCacheConcurrent(t *testing.T) {
	cs := &classState{}
	var renders atomic.Int64
	var wg sync.WaitGroup
	for g := 0; g < 24; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 300; i++ {
				room := int64(i % 7)
				if g%6 == 0 {
					room = int64(1000 + g*300 + i) // rooms come and go: the map is reset
				}
				version := uint64(i / 10)
				key := []string{"en", "vi", "pl", "th"}[(g+i)%4]
				want := fmt.Sprintf("room %d v%d %s", room, version, key)
				b, err := cs.fragment(room, version, fragmentKey{event: key}, func() (*sharedEvent, error) {
					renders.Add(1)
					return &sharedEvent{parts: [][]byte{[]byte(want)}}, nil
				})
				if err != nil {
					t.Error(err)
					return
				}
				if joined(b) != want {
					t.Errorf("asked for %q, got %q", want, b)
					return
				}
			}
		}()
	}
	wg.Wait()
	if renders.Load() == 24*300 {
		t.Error("the cache never answered from memory")
	}
}

// TestFragmentMissNeverWaits: a stream that misses the cache while another
// renders the same fragment renders it too rather than wait (a blocked
// stream queues behind thousands again); the first one kept is what
// everyone gets after. A failed render is not kept.
func TestFragmentMissNeverWaits(t *testing.T) {
	cs := &classState{}
	key := fragmentKey{event: "stage"}
	started, release := make(chan struct{}), make(chan struct{})
	slow := make(chan string)
	go func() {
		b, _ := cs.fragment(1, 7, key, func() (*sharedEvent, error) {
			close(started)
			<-release
			return &sharedEvent{parts: [][]byte{[]byte("slow")}}, nil
		})
		slow <- joined(b)
	}()
	<-started
	done := make(chan string)
	go func() {
		b, _ := cs.fragment(1, 7, key, func() (*sharedEvent, error) { return &sharedEvent{parts: [][]byte{[]byte("fast")}}, nil })
		done <- joined(b)
	}()
	select {
	case got := <-done:
		if got != "fast" {
			t.Errorf("the second stream got %q, want its own render", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the second stream waited for the first one's render")
	}
	close(release)
	if got := <-slow; got != "fast" {
		t.Errorf("the slow stream got %q; want the fragment kept first", got)
	}
	if b, ok := cs.cached(1, 7, key); !ok || joined(b) != "fast" {
		t.Errorf("kept %q, %t; want the first kept", b, ok)
	}
	if b, ok := cs.cached(1, 6, key); ok {
		t.Errorf("an older version answered %q", b)
	}

	fail := errors.New("render failed")
	vi := fragmentKey{event: "vi"}
	if _, err := cs.fragment(1, 7, vi, func() (*sharedEvent, error) { return nil, fail }); err != fail {
		t.Fatalf("a failed render returned %v", err)
	}
	b, err := cs.fragment(1, 7, vi, func() (*sharedEvent, error) { return &sharedEvent{parts: [][]byte{[]byte("stage v7 vi")}}, nil })
	if err != nil || joined(b) != "stage v7 vi" {
		t.Errorf("after a failed render: %q, %v; want it rendered again", b, err)
	}
}

// joined is a cached event's bytes, "" for none.
func joined(e *sharedEvent) string {
	if e == nil {
		return ""
	}
	return string(bytes.Join(e.parts, nil))
}

// fragment is how a stream gets a fragment (sharedFragment): from the
// cache, or rendered and kept on a miss.
func (cs *classState) fragment(room int64, version uint64, key fragmentKey, render func() (*sharedEvent, error)) (*sharedEvent, error) {
	if e, ok := cs.cached(room, version, key); ok {
		return e, nil
	}
	return cs.renderAndKeep(room, version, key, render)
}
