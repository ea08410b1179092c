// Package sse writes server-sent event streams: headers, framing, a write
// deadline per send, and one write and flush for each.
package sse

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
)

// writeTimeout bounds each write to an event stream: a client that stops
// reading loses its stream, not the room.
const writeTimeout = 10 * time.Second

// Stream is an event stream being written: the one place that sets its
// headers, frames its events and flushes them.
type Stream struct {
	w  *echo.Response
	rc *http.ResponseController
}

// Start sends the headers of an event stream in reply to c.
func Start(c echo.Context) *Stream {
	w := c.Response()
	h := w.Header()
	h.Set(echo.HeaderContentType, "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // let proxies pass each event on at once
	// A stream that ends (replaced, kicked, shutting down) closes its TCP
	// connection rather than leaving it idle for keep-alive: one cookie
	// must not hold a thousand connections. The close also ends the body,
	// so it needs no chunked framing (as the SSE spec advises): a send is
	// then one write to the socket, where a chunk header made a send over
	// 4 KiB two. HTTP/2 carries every stream on one connection, and there
	// the headers would close it for all of them.
	if c.Request().ProtoMajor == 1 {
		h.Set("Connection", "close")
		h.Set("Transfer-Encoding", "identity")
	}
	w.WriteHeader(http.StatusOK)
	return &Stream{w: w, rc: http.NewResponseController(w)}
}

// Send writes chunks as one write and flushes them, failing when the
// client is gone.
func (s *Stream) Send(chunks ...[]byte) error {
	// A writer without deadlines just waits longer for a gone client; the
	// write that follows reports that.
	_ = s.rc.SetWriteDeadline(time.Now().Add(writeTimeout)) // a network deadline: wall-clock time, not the app clock
	if len(chunks) == 0 {
		return s.rc.Flush()
	}
	b := chunks[0]
	if len(chunks) > 1 {
		// Gathered first: written one by one, they reach the socket in as
		// many writes as they cross the server's 2 and 4 KiB buffers.
		buf := batches.Get().(*[]byte)
		*buf = (*buf)[:0]
		for _, c := range chunks {
			*buf = append(*buf, c...)
		}
		if _, err := s.w.Write(*buf); err != nil {
			// Not put back: over HTTP/2 a failed write may still be
			// reading it.
			return err
		}
		putBatch(buf)
		return s.rc.Flush()
	}
	if _, err := s.w.Write(b); err != nil {
		return err
	}
	return s.rc.Flush()
}

// batches are Send's gathering buffers, shared by all streams: a fan-out
// to 2,000 phones needs as many as send at the same moment, not 2,000.
var batches = sync.Pool{New: func() any { return new([]byte) }}

// putBatch keeps a gathering buffer for the next Send, unless a rare large
// batch (a host's roster of thousands) grew it: that one is left to the
// collector rather than held for small sends.
func putBatch(buf *[]byte) {
	if cap(*buf) <= 64<<10 {
		batches.Put(buf)
	}
}

// Event sends one event.
func (s *Stream) Event(name string, data []byte) error { return s.Send(Event(name, data)) }

// Retry tells the client how many milliseconds to wait before reconnecting.
func (s *Stream) Retry(ms int) error { return s.Send([]byte("retry: " + strconv.Itoa(ms) + "\n\n")) }

// Ping sends a comment line, which keeps proxies from closing an idle stream.
func (s *Stream) Ping() error { return s.Send([]byte(": ping\n\n")) }

// Event encodes data (an HTML fragment, JSON) as one server-sent event,
// a data line for each of its lines.
func Event(name string, data []byte) []byte {
	if !bytes.ContainsAny(data, "\r\n") { // one line (a clock, a state): one allocation, every stream sends these
		b := make([]byte, 0, len("event: \ndata: \n\n")+len(name)+len(data))
		b = append(append(append(b, "event: "...), name...), "\ndata: "...)
		return append(append(b, data...), "\n\n"...)
	}
	var b bytes.Buffer
	b.WriteString("event: ")
	b.WriteString(name)
	b.WriteByte('\n')
	for _, line := range strings.Split(strings.ReplaceAll(string(data), "\r", ""), "\n") {
		b.WriteString("data: ")
		b.WriteString(line)
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	return b.Bytes()
}
