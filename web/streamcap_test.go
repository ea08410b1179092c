package web_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
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

// TestReplacedStreamsCloseTheirConnection opens many event streams on one
// rejoin cookie, each on its own TCP connection as a browser tab would,
// and checks the server closes the connection of every stream it replaces:
// a finished response must not leave the connection open for keep-alive.
func TestReplacedStreamsCloseTheirConnection(t *testing.T) {
	a := newClassApp(t)
	host := a.account("conns_host", examsim.RoleInstructor)
	room, code := a.startRun(host, "optional")
	student := a.join(code, "Many Conns", "en")
	base, _ := url.Parse(a.Server.URL)
	var cookies []string
	events, _ := url.Parse(a.Server.URL + room + "/events")
	for _, ck := range student.http.Jar.Cookies(events) {
		cookies = append(cookies, ck.Name+"="+ck.Value)
	}
	request := "GET " + room + "/events HTTP/1.1\r\nHost: " + base.Host + "\r\nAccept: text/event-stream\r\nCookie: " +
		strings.Join(cookies, "; ") + "\r\n\r\n"

	const streams = 12
	var conns []net.Conn
	for i := 0; i < streams; i++ {
		conn, err := net.Dial("tcp", base.Host)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		if _, err := io.WriteString(conn, request); err != nil {
			t.Fatal(err)
		}
		// The first event comes once the room counts the stream.
		if err := readUntil(conn, "\n\n"); err != nil {
			t.Fatalf("stream %d: %v", i, err)
		}
		conns = append(conns, conn)
	}
	open := 0
	// A guard against a hang: a connection kept for keep-alive never ends.
	guard := time.Now().Add(5 * time.Second)
	for i, conn := range conns {
		_ = conn.SetReadDeadline(guard)
		_, err := io.Copy(io.Discard, conn)
		switch {
		case err == nil && i >= streams-classroom.MaxPlayerStreams:
			t.Errorf("stream %d of %d was closed; only the oldest %d should be", i+1, streams, streams-classroom.MaxPlayerStreams)
		case err != nil:
			open++
		}
	}
	if open != classroom.MaxPlayerStreams {
		t.Errorf("after %d streams on one cookie, %d TCP connections are still open; want %d (the streams the cap keeps)",
			streams, open, classroom.MaxPlayerStreams)
	}
}

// readUntil reads conn until it has seen marker.
func readUntil(conn net.Conn, marker string) error {
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	defer conn.SetReadDeadline(time.Time{})
	var seen []byte
	buf := make([]byte, 1)
	for !strings.Contains(string(seen), marker) {
		if _, err := conn.Read(buf); err != nil {
			return fmt.Errorf("%w after %q", err, seen)
		}
		seen = append(seen, buf[0])
	}
	return nil
}
