package web

import (
	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim/sandbox"
)

// mcpMaxRequestBytes bounds a request to /mcp, like every other body.
const mcpMaxRequestBytes = 64 << 10

// mcpHandler serves the sandbox's MCP server over the SDK's Streamable HTTP
// transport. The SDK refuses requests that reach a loopback address with a
// non-local Host header (DNS rebinding) unless Config.MCPAllowAnyHost says
// otherwise.
func (s *Server) mcpHandler() echo.HandlerFunc {
	return echo.WrapHandler(s.Sandbox.HTTPHandler(sandbox.HTTPOptions{
		MaxRequestBytes: mcpMaxRequestBytes,
		AllowAnyHost:    s.MCPAllowAnyHost,
	}))
}
