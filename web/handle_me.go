package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
)

// handleMe lists the learner's attempts, newest first.
func (s *Server) handleMe(c echo.Context) error {
	var attempts []*examsim.Attempt
	if l := pageOf(c).Learner; l != nil {
		var err error
		if attempts, err = s.Attempts.ListAttempts(c.Request().Context(), l.ID, 500); err != nil {
			return err
		}
	}
	return Render(c, http.StatusOK, MePage(s.Bank, attempts))
}
