package web_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim/internal/loadgen"
	"github.com/examsim/examsim/web/webtest"

	"github.com/examsim/examsim/i18n"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/web"
)

// The load run's fixed-bytes ceiling exists only when asked for.
func TestCeilingIsMountedOnlyForBenchmarks(t *testing.T) {
	fsys, name := questions.Embedded()
	bank, _ := questions.Load(fsys, name)
	catalog, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, on := range []bool{false, true} {
		srv := web.New(web.Config{Bank: bank, Catalog: catalog, CookieKey: []byte("k"), BenchCeiling: on})
		get := func() *httptest.ResponseRecorder {
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/_ceiling", nil))
			return rec
		}
		first, second := get(), get()
		if !on {
			if first.Code != http.StatusNotFound {
				t.Errorf("without BenchCeiling: status %d, want 404", first.Code)
			}
			for _, r := range []*http.Request{httptest.NewRequest(http.MethodGet, "/_ceiling/events", nil), httptest.NewRequest(http.MethodPost, "/_ceiling/fanout", nil)} {
				rec := httptest.NewRecorder()
				srv.ServeHTTP(rec, r)
				// 404, or the CSRF check's 403 that every unknown POST meets first.
				if rec.Code != http.StatusNotFound && rec.Code != http.StatusForbidden {
					t.Errorf("without BenchCeiling: %s %s: status %d, want 404 or 403", r.Method, r.URL.Path, rec.Code)
				}
			}
			continue
		}
		if first.Code != http.StatusOK || first.Body.Len() != 4096 || !bytes.Equal(first.Body.Bytes(), second.Body.Bytes()) {
			t.Errorf("with BenchCeiling: status %d, %d bytes, same both times: %v",
				first.Code, first.Body.Len(), bytes.Equal(first.Body.Bytes(), second.Body.Bytes()))
		}
		if first.Header().Get("Content-Security-Policy") == "" {
			t.Error("the ceiling skips the global middleware, so it is no fair ceiling")
		}
	}
}

// The fan-out ceiling writes its one event to every open stream at each
// fan-out, in order, missing none, and says how many streams it reached.
func TestFanoutCeilingReachesEveryStream(t *testing.T) {
	app := webtest.Start(t, webtest.WithConfig(func(c *web.Config) { c.BenchCeiling = true }))
	const streams, rounds = 5, 3
	got := make(chan []string, streams)
	ready := make(chan struct{}, streams)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for range streams {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, app.URL+"/_ceiling/events", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Security-Policy") == "" {
			t.Fatalf("stream: status %d, CSP %q: not through the pages' middleware", resp.StatusCode, resp.Header.Get("Content-Security-Policy"))
		}
		go func() {
			defer resp.Body.Close()
			var events []string
			_ = loadgen.ReadEvents(resp.Body, func(event, data string) {
				if event == "ready" {
					ready <- struct{}{}
					return
				}
				events = append(events, fmt.Sprintf("%s/%d", event, len(data)))
				if len(events) == rounds {
					got <- events
				}
			})
		}()
	}
	for range streams {
		<-ready
	}
	for range rounds {
		resp, err := http.Post(app.URL+"/_ceiling/fanout", "", nil)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(body) != strconv.Itoa(streams) {
			t.Errorf("fanout reached %q streams, want %d", body, streams)
		}
	}
	want := []string{"ceiling/4096", "ceiling/4096", "ceiling/4096"}
	for range streams {
		select {
		case events := <-got:
			if diff := cmp.Diff(want, events); diff != "" {
				t.Errorf("a stream's events (-want +got):\n%s", diff)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a stream did not get every fan-out")
		}
	}
}
