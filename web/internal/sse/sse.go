// Package sse writes server-sent event streams: headers, framing, a write
// deadline per send, and a flush after each.
package sse

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
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
	// must not hold a thousand connections. HTTP/2 carries every stream on
	// one connection, and there the header would close it for all of them.
	if c.Request().ProtoMajor == 1 {
		h.Set("Connection", "close")
	}
	w.WriteHeader(http.StatusOK)
	return &Stream{w: w, rc: http.NewResponseController(w)}
}

// Send writes chunks and flushes them, failing when the client is gone.
func (s *Stream) Send(chunks ...[]byte) error {
	// A writer without deadlines just waits longer for a gone client; the
	// write that follows reports that.
	_ = s.rc.SetWriteDeadline(time.Now().Add(writeTimeout)) // a network deadline: wall-clock time, not the app clock
	for _, b := range chunks {
		if _, err := s.w.Write(b); err != nil {
			return err
		}
	}
	return s.rc.Flush()
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
