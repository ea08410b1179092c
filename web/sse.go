package web

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

// sse is an event stream being written: the one place that sets its
// headers, frames its events and flushes them.
type sse struct {
	w  *echo.Response
	rc *http.ResponseController
}

func startSSE(c echo.Context) *sse {
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
	return &sse{w: w, rc: http.NewResponseController(w)}
}

// send writes chunks and flushes them, failing when the client is gone.
func (s *sse) send(chunks ...[]byte) error {
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

// event sends one event.
func (s *sse) event(name string, data []byte) error { return s.send(sseEvent(name, data)) }

// retry tells the client how many milliseconds to wait before reconnecting.
func (s *sse) retry(ms int) error { return s.send([]byte("retry: " + strconv.Itoa(ms) + "\n\n")) }

// ping sends a comment line, which keeps proxies from closing an idle stream.
func (s *sse) ping() error { return s.send([]byte(": ping\n\n")) }

// sseEvent encodes data (an HTML fragment, JSON) as one server-sent event,
// a data line for each of its lines.
func sseEvent(name string, data []byte) []byte {
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
