package web

import (
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
	cs := &classState{frags: map[int64]*roomFragments{}}
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
				b, err := cs.fragment(room, version, key, func() ([]byte, error) {
					renders.Add(1)
					return []byte(want), nil
				})
				if err != nil {
					t.Error(err)
					return
				}
				if string(b) != want {
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

// TestFragmentRenderedOncePerChange: the streams a change wakes all ask for
// the new fragment at once, before any has it; it is rendered once, and
// every stream gets it. A failed render is not kept.
func TestFragmentRenderedOncePerChange(t *testing.T) {
	cs := &classState{frags: map[int64]*roomFragments{}}
	const streams = 64
	var renders atomic.Int64
	release := make(chan struct{})
	var wg sync.WaitGroup
	got := make([]string, streams)
	for i := range streams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := cs.fragment(1, 7, "en", func() ([]byte, error) {
				renders.Add(1)
				<-release
				return []byte("stage v7"), nil
			})
			if err != nil {
				t.Error(err)
			}
			got[i] = string(b)
		}()
	}
	// Every stream has missed the cache by the time the render finishes:
	// the old cache rendered it once per stream here.
	time.Sleep(200 * time.Millisecond)
	close(release)
	wg.Wait()
	if n := renders.Load(); n != 1 {
		t.Errorf("rendered %d times for %d streams, want once", n, streams)
	}
	for i, g := range got {
		if g != "stage v7" {
			t.Fatalf("stream %d got %q", i, g)
		}
	}

	fail := errors.New("render failed")
	if _, err := cs.fragment(1, 7, "vi", func() ([]byte, error) { return nil, fail }); err != fail {
		t.Fatalf("a failed render returned %v", err)
	}
	b, err := cs.fragment(1, 7, "vi", func() ([]byte, error) { return []byte("stage v7 vi"), nil })
	if err != nil || string(b) != "stage v7 vi" {
		t.Errorf("after a failed render: %q, %v; want it rendered again", b, err)
	}
}
