package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// handleExamReview shows the review screen: what is unanswered, what is
// flagged, every question's status, and the submit button.
func (s *Server) handleExamReview(c echo.Context) error {
	e, err := s.ownExam(c)
	if err != nil {
		return err
	}
	if e.Submitted() {
		return c.Redirect(http.StatusSeeOther, examURL(e, "/results"))
	}
	return Render(c, http.StatusOK, ExamReviewPage(e, s.now()))
}
