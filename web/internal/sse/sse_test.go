package sse

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/labstack/echo/v4"
)

// TestEvent frames data as one event, a data line per line of it, alike
// whether it takes the one-line path or the general one.
func TestEvent(t *testing.T) {
	for _, tc := range []struct {
		name, event, data, want string
	}{
		{"no data", "replaced", "", "event: replaced\ndata: \n\n"},
		{"one line", "clock", "1765000000000", "event: clock\ndata: 1765000000000\n\n"},
		{"markup on one line", "you", `<p class="you-line">Ana &amp; Bo</p>`, "event: you\ndata: <p class=\"you-line\">Ana &amp; Bo</p>\n\n"},
		{"several lines", "stage", "<div>\n<p>x</p>\n</div>", "event: stage\ndata: <div>\ndata: <p>x</p>\ndata: </div>\n\n"},
		{"carriage returns dropped", "stage", "a\r\nb\r", "event: stage\ndata: a\ndata: b\n\n"},
		{"a lone carriage return", "stage", "a\rb", "event: stage\ndata: ab\n\n"},
	} {
		if diff := cmp.Diff(tc.want, string(Event(tc.event, []byte(tc.data)))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}

// countingListener counts the writes to each connection it accepts.
type countingListener struct {
	net.Listener
	writes atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	return &countingConn{Conn: c, writes: &l.writes}, err
}

type countingConn struct {
	net.Conn
	writes *atomic.Int64
}

func (c *countingConn) Write(b []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(b)
}

// TestSendIsOneWrite: a send of several events, small or larger than the
// server's 4 KiB buffer, reaches the socket in one write and the client
// byte for byte, with no chunked framing around it. Written chunk by
// chunk with chunked framing, a 6 KiB send took two or three.
func TestSendIsOneWrite(t *testing.T) {
	big := Event("stage", bytes.Repeat([]byte("x"), 6<<10))
	small := Event("clock", []byte("1765000000000"))
	sends := [][][]byte{
		{small},
		{small, big, Event("state", []byte(`{"phase":"question"}`)), Event("you", []byte("<p>Ana</p>"))},
		{small, Event("you", []byte("<p>Ana</p>"))},
		{big},
	}
	ln := &countingListener{Listener: httptest.NewUnstartedServer(nil).Listener}
	e := echo.New()
	wrote := make(chan int64)
	next := make(chan struct{})
	e.GET("/events", func(c echo.Context) error {
		out := Start(c)
		if err := out.Retry(2000); err != nil { // the headers go out with it
			return err
		}
		for _, chunks := range sends {
			select {
			case <-next:
			case <-c.Request().Context().Done():
				return nil
			}
			before := ln.writes.Load()
			if err := out.Send(chunks...); err != nil {
				return err
			}
			wrote <- ln.writes.Load() - before
		}
		return nil
	})
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: e}}
	srv.Start()
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if len(resp.TransferEncoding) != 0 || resp.ContentLength != -1 || !resp.Close {
		t.Errorf("framing: transfer encoding %q, length %d, close %t; want none, unknown, close", resp.TransferEncoding, resp.ContentLength, resp.Close)
	}
	r := bufio.NewReader(resp.Body)
	if line, err := r.ReadString('\n'); err != nil || line != "retry: 2000\n" {
		t.Fatalf("first line %q, %v", line, err)
	}
	_, _ = r.ReadString('\n')
	for i, chunks := range sends {
		next <- struct{}{}
		select {
		case n := <-wrote:
			if n != 1 {
				t.Errorf("send %d (%d chunks): %d writes to the socket, want 1", i, len(chunks), n)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("send %d failed or never returned", i)
		}
		want := bytes.Join(chunks, nil)
		got := make([]byte, len(want))
		if _, err := io.ReadFull(r, got); err != nil {
			t.Fatalf("send %d: %v", i, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("send %d: the client read %.80q..., want %.80q...", i, got, want)
		}
	}
}
