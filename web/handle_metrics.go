package web

import (
	"crypto/subtle"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
)

// handleMetrics serves Prometheus metrics (process memory, Go runtime, the
// classroom's rooms, streams and group commits) to this machine, or to a
// scraper elsewhere that sends the metrics token.
func (s *Server) handleMetrics(c echo.Context) error {
	if !s.metricsAllowed(c) {
		return examsim.E(examsim.EFORBIDDEN, "admin.error_metrics")
	}
	s.metrics.Handler.ServeHTTP(c.Response(), c.Request())
	return nil
}

func (s *Server) metricsAllowed(c echo.Context) bool {
	if s.MetricsToken != "" {
		got, ok := strings.CutPrefix(c.Request().Header.Get("Authorization"), "Bearer ")
		if ok && subtle.ConstantTimeCompare([]byte(got), []byte(s.MetricsToken)) == 1 {
			return true
		}
	}
	// Only the connection's own address counts: forwarding headers are
	// anyone's to write.
	return s.clientAddr(c.Request()).IsLoopback() && c.Request().Header.Get("X-Forwarded-For") == ""
}
