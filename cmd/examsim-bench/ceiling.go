package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// measureCeiling has every student's client hold the server's fan-out
// ceiling stream (examsim serve --bench-ceiling), fires one fan-out per
// question the room plays, and returns the p99 time from each fan-out's
// request to its arrival at each reader: what the same readers on the same
// cores measure when the server does no room work at all. The readers
// connect as the students do (through the balancer, when there is one, so
// they spread over the instances as the students' streams do) and each
// fan-out is fired at every instance directly, since each holds only its
// own readers.
func (lr *loadRun) measureCeiling(ctx context.Context, students []*joinedStudent) (time.Duration, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	rounds := lr.cfg.Questions
	fired := make([]atomic.Int64, rounds) // unix nanos of each fan-out request
	arrivedAll := make([]chan struct{}, rounds)
	left := make([]atomic.Int64, rounds)
	for i := range rounds {
		arrivedAll[i] = make(chan struct{})
		left[i].Store(int64(len(students)))
	}
	var mu sync.Mutex
	var took []time.Duration
	var ready sync.WaitGroup
	for _, st := range students {
		ready.Add(1)
		var opened sync.Once
		round := 0
		go holdStream(ctx, st.u, "/_ceiling/events", func(event, _ string, at time.Time) {
			opened.Do(ready.Done)
			if event != "ceiling" || round >= rounds {
				return
			}
			if t0 := fired[round].Load(); t0 > 0 {
				mu.Lock()
				took = append(took, at.Sub(time.Unix(0, t0)))
				mu.Unlock()
			}
			if left[round].Add(-1) == 0 {
				close(arrivedAll[round])
			}
			round++
		})
	}
	ready.Wait()
	for i := range rounds {
		fired[i].Store(time.Now().UnixNano())
		reached, err := lr.fireCeilings(ctx)
		if err != nil {
			return 0, err
		}
		if reached < len(students) {
			return 0, fmt.Errorf("the fan-out ceiling reached %d streams of %d", reached, len(students))
		}
		select {
		case <-arrivedAll[i]:
		case <-time.After(30 * time.Second):
			return 0, fmt.Errorf("fan-out ceiling round %d: %d readers never got it", i+1, left[i].Load())
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
	mu.Lock()
	defer mu.Unlock()
	return percentile(took, 99), nil
}

// fireCeilings fires one fan-out at every instance at once and returns how
// many streams they reached together. An instance named twice (one server
// given as two URLs) is fired once.
func (lr *loadRun) fireCeilings(ctx context.Context) (int, error) {
	var (
		wg      sync.WaitGroup
		reached atomic.Int64
		errs    = make(chan error, len(lr.each))
	)
	for _, base := range slices.Compact(slices.Sorted(slices.Values(lr.each))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := lr.fireCeiling(ctx, base)
			if err != nil {
				errs <- fmt.Errorf("%s: %w", base, err)
				return
			}
			reached.Add(int64(n))
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return 0, err
	}
	return int(reached.Load()), nil
}

// fireCeiling asks one instance for one fan-out and returns how many
// streams it reached.
func (lr *loadRun) fireCeiling(ctx context.Context, base string) (int, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/_ceiling/fanout", nil)
	resp, err := (&http.Client{Transport: lr.tr, Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64))
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("POST /_ceiling/fanout: %s; start the server with --bench-ceiling, or run the load test with --ceiling=false", resp.Status)
	}
	return strconv.Atoi(strings.TrimSpace(string(body)))
}
