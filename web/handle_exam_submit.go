package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// handleExamSubmit scores and submits the exam. Submitting twice, or after
// time ran out (when the exam submitted itself), just shows the results.
func (s *Server) handleExamSubmit(c echo.Context) error {
	e, err := s.ownExam(c)
	if err != nil {
		return err
	}
	if !e.Submitted() {
		if err := s.finishExam(c.Request().Context(), e, false); err != nil {
			return err
		}
	}
	return c.Redirect(http.StatusSeeOther, examURL(e, "/results"))
}
