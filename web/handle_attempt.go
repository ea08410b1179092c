package web

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
)

// handleAttempt shows the result of one of the learner's own attempts. Other
// learners' attempts are reported as not found, so ids reveal nothing.
func (s *Server) handleAttempt(c echo.Context) error {
	notFound := examsim.Errorf(examsim.ENOTFOUND, "error.attempt_not_found")
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	learner := pageOf(c).Learner
	if err != nil || learner == nil {
		return notFound
	}
	a, err := s.Attempts.FindAttempt(c.Request().Context(), id)
	if err != nil {
		return err
	}
	if a.LearnerID != learner.ID {
		return notFound
	}
	q, ok := s.Bank.Question(a.QuestionID)
	if !ok {
		return examsim.Errorf(examsim.ENOTFOUND, "error.question_not_found", "ID", a.QuestionID)
	}
	return Render(c, http.StatusOK, AttemptPage(q, s.text(c, q), a, s.nextQuestion(q.ID)))
}

// nextQuestion returns the id of the question after id in bank order.
func (s *Server) nextQuestion(id string) string {
	for i, q := range s.Bank.Questions {
		if q.ID == id && i+1 < len(s.Bank.Questions) {
			return s.Bank.Questions[i+1].ID
		}
	}
	return ""
}
