package web

import (
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim/sandbox"
	"github.com/examsim/examsim/web/internal/ratelimit"
)

// mcpMaxRequestBytes bounds a request to /mcp, like every other body.
const mcpMaxRequestBytes = 64 << 10

// DefaultMCPSessionsPerClient lets a room of learners behind one school
// address open sessions freely (the Inspector CLI opens one per call), while
// one script cannot fill the session table on its own.
var DefaultMCPSessionsPerClient = Limit{Burst: 300, Every: time.Second}

// mcpHandler serves the sandbox's MCP server over the SDK's Streamable HTTP
// transport. The SDK refuses requests that reach a loopback address with a
// non-local Host header (DNS rebinding) unless Config.MCPAllowAnyHost says
// otherwise; the sandbox's endpoint checks Origin against
// Config.MCPAllowedOrigins and limits new sessions per client address.
//
// A GET opens the session's event stream, which stays open for as long as
// the client likes; on shutdown it ends with a retry hint, like the
// classroom's streams.
func (s *Server) mcpHandler() echo.HandlerFunc {
	perClient := s.MCPSessionsPerClient
	if perClient == (Limit{}) {
		perClient = DefaultMCPSessionsPerClient
	}
	newSessions := ratelimit.New(perClient)
	h := s.Sandbox.HTTPHandler(sandbox.HTTPOptions{
		MaxRequestBytes: mcpMaxRequestBytes,
		AllowAnyHost:    s.MCPAllowAnyHost,
		AllowedOrigins:  s.MCPAllowedOrigins,
		Scheme:          s.schemeOf,
		AdmitSession: func(r *http.Request) (bool, time.Duration) {
			return newSessions.Take(s.clientKey(r), s.now())
		},
	})
	return func(c echo.Context) error {
		if s.forwardMCP(c) { // a session another instance holds (forward.go)
			return nil
		}
		r := c.Request()
		w := &noStore{ResponseWriter: c.Response()}
		if r.Method != http.MethodGet {
			h.ServeHTTP(w, r)
			return nil
		}
		ctx, stop := s.streamContext(r.Context())
		defer stop()
		h.ServeHTTP(w, r.WithContext(ctx))
		if s.shuttingDown() && strings.HasPrefix(w.Header().Get(echo.HeaderContentType), "text/event-stream") {
			endWithRetry(w)
		}
		return nil
	}
}

// noStore makes every reply the SDK writes say Cache-Control: no-store, as
// every API reply does (the SDK sets no-cache), keeping its no-transform so
// proxies pass event streams on untouched.
type noStore struct{ http.ResponseWriter }

func (w *noStore) WriteHeader(code int) {
	h := w.Header()
	if cc := h.Get("Cache-Control"); strings.Contains(cc, "no-transform") {
		h.Set("Cache-Control", "no-store, no-transform")
	} else {
		h.Set("Cache-Control", "no-store")
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *noStore) Write(b []byte) (int, error) {
	if r, ok := w.ResponseWriter.(*echo.Response); !ok || !r.Committed {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Flush is http.Flusher's, which reports nothing: a gone client shows on
// the next write.
func (w *noStore) Flush() { _ = http.NewResponseController(w.ResponseWriter).Flush() }

// Unwrap lets http.ResponseController reach the connection (deadlines).
func (w *noStore) Unwrap() http.ResponseWriter { return w.ResponseWriter }
