package web_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/classroom"
	"github.com/examsim/examsim/internal/loadgen"
)

// openEvents opens an event stream with the client's cookies and returns
// the names of its events as they come; the channel closes with the stream.
func openEvents(t *testing.T, c *client, path string) <-chan string {
	t.Helper()
	resp, err := c.http.Get(c.base + path)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		t.Fatalf("GET %s: %d", path, resp.StatusCode)
	}
	t.Cleanup(func() { resp.Body.Close() })
	events := make(chan string, 64)
	go func() {
		defer close(events)
		_ = loadgen.ReadEvents(resp.Body, func(event, _ string) { events <- event }) // the stream's end closes events either way
	}()
	// The first event comes once the room counts the stream.
	if _, ok := <-events; !ok {
		t.Fatalf("%s closed before its first event", path)
	}
	return events
}

// TestStreamCapsOverHTTP: one rejoin cookie opening more event streams than
// a player may hold (and a host more screens than a host may) gets its
// oldest stream told "replaced" and closed, over a real server.
func TestStreamCapsOverHTTP(t *testing.T) {
	a := newClassApp(t)
	host := a.account("streamcap_host", examsim.RoleInstructor)
	room, code := a.startRun(host, "optional")
	student := a.join(code, "Many Tabs", "en")
	for _, tt := range []struct {
		who  string
		c    *client
		path string
		max  int
	}{
		{"player", student, room + "/events", classroom.MaxPlayerStreams},
		{"host", host, room + "/host/events", classroom.MaxHostStreams},
	} {
		oldest := openEvents(t, tt.c, tt.path)
		for i := 0; i < tt.max; i++ {
			openEvents(t, tt.c, tt.path)
		}
		// A guard against a hang, not a timed assertion.
		guard := time.After(60 * time.Second)
		replaced := false
		for done := false; !done; {
			select {
			case name, ok := <-oldest:
				if !ok {
					done = true
				} else if name == "replaced" {
					replaced = true
				}
			case <-guard:
				t.Fatalf("%s: the oldest of %d streams is still open", tt.who, tt.max+1)
			}
		}
		if !replaced {
			t.Errorf("%s: the oldest stream closed without event: replaced", tt.who)
		}
	}
}
