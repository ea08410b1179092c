package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim/sandbox"
)

// mcpMaxRequestBytes bounds a request to /mcp, like every other body.
const mcpMaxRequestBytes = 64 << 10

// mcpHandler serves the sandbox's MCP server over the SDK's Streamable HTTP
// transport. The SDK refuses requests that reach a loopback address with a
// non-local Host header (DNS rebinding) unless Config.MCPAllowAnyHost says
// otherwise.
//
// A GET opens the session's event stream, which stays open for as long as
// the client likes; on shutdown it ends with a retry hint, like the
// classroom's streams.
func (s *Server) mcpHandler() echo.HandlerFunc {
	h := s.Sandbox.HTTPHandler(sandbox.HTTPOptions{
		MaxRequestBytes: mcpMaxRequestBytes,
		AllowAnyHost:    s.MCPAllowAnyHost,
	})
	return func(c echo.Context) error {
		r, w := c.Request(), c.Response()
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
