package web

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
)

// closer is the signal, made in New, that the server is shutting down.
type closer struct {
	ctx    context.Context
	cancel context.CancelFunc
}

func newCloser() closer {
	ctx, cancel := context.WithCancel(context.Background())
	return closer{ctx: ctx, cancel: cancel}
}

// context is canceled when the server begins to shut down.
func (c *closer) context() context.Context { return c.ctx }

func (c *closer) close() { c.cancel() }

// CloseStreams begins a shutdown: every event stream (classroom, sandbox
// trace, MCP) sends a hint to reconnect in a few seconds and ends, so
// http.Server.Shutdown is not held up by connections that never finish,
// while ordinary requests in flight run to the end. Register it with
// http.Server.RegisterOnShutdown. Answers are still taken and committed.
func (s *Server) CloseStreams() {
	s.closing.close()
	if s.Classroom != nil {
		s.Classroom.CloseStreams()
	}
}

// streamContext returns a context for a long-lived response: it ends with
// the request, or when the server begins to shut down.
func (s *Server) streamContext(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	stop := context.AfterFunc(s.closing.context(), cancel)
	return ctx, func() { stop(); cancel() }
}

// shuttingDown reports whether CloseStreams was called.
func (s *Server) shuttingDown() bool {
	select {
	case <-s.closing.context().Done():
		return true
	default:
		return false
	}
}

// retryHint is an event stream's last words when the server shuts down:
// the SSE retry field, telling the browser to reconnect after a few seconds
// (by then the server is back, or another has taken over). Each stream
// gets a different delay, so a room of a thousand students does not come
// back in the same instant.
func retryHint() []byte {
	return []byte("retry: " + strconv.Itoa(2000+rand.IntN(3000)) + "\n\n") // #nosec G404 -- jitter, not a secret
}

// endWithRetry sends the retry hint down a stream that set no write
// deadline of its own; a client already gone is no error here.
func endWithRetry(w http.ResponseWriter) {
	if _, err := w.Write(retryHint()); err == nil {
		_ = http.NewResponseController(w).Flush()
	}
}
