package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
)

// handleHealthz tells a load balancer whether the database answers and the
// bank is loaded.
func (s *Server) handleHealthz(c echo.Context) error {
	if s.Ping != nil {
		if err := s.Ping(c.Request().Context()); err != nil {
			return &examsim.Error{Code: examsim.EUNAVAILABLE, MessageID: "error.unavailable", Detail: err.Error()}
		}
	}
	langs := []string{}
	for _, l := range s.Bank.Langs() {
		langs = append(langs, string(l))
	}
	return c.JSON(http.StatusOK, map[string]any{"status": "ok", "questions": len(s.Bank.Questions), "languages": langs})
}
