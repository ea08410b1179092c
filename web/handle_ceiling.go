package web

import (
	"bytes"
	"net/http"

	"github.com/labstack/echo/v4"
)

// ceilingBody is what GET /_ceiling answers: 4 KiB of fixed text, built
// once; about the size of a practice question page (home is 2 to 3 KiB,
// /healthz under 100 bytes), so the ceiling costs no less to send than the
// pages it is compared with, and only their work is measured.
var ceilingBody = bytes.Repeat([]byte("examsim ceiling: a fixed byte slice.\n"), 4096/37+1)[:4096]

// handleCeiling answers with fixed bytes through the same echo server and
// global middleware as every page, with no page work at all: the ceiling
// the wrk load run compares each page's throughput with. It is mounted only
// when Config.BenchCeiling is set (examsim serve --bench-ceiling).
func (s *Server) handleCeiling(c echo.Context) error {
	return c.Blob(http.StatusOK, echo.MIMETextPlainCharsetUTF8, ceilingBody)
}
