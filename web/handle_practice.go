package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
)

// handlePracticeList lists every question with what the learner did on it.
func (s *Server) handlePracticeList(c echo.Context) error {
	last, err := s.lastAttempts(c)
	if err != nil {
		return err
	}
	return Render(c, http.StatusOK, PracticeListPage(s.Bank.Questions, last))
}

// handlePracticeNext sends the learner to the question they most need: the
// first never tried, else the first they last got wrong, else the first.
func (s *Server) handlePracticeNext(c echo.Context) error {
	last, err := s.lastAttempts(c)
	if err != nil {
		return err
	}
	if len(s.Bank.Questions) == 0 {
		return c.Redirect(http.StatusSeeOther, "/")
	}
	next := s.Bank.Questions[0].ID
	wrong := ""
	for _, q := range s.Bank.Questions {
		a, tried := last[q.ID]
		if !tried {
			next, wrong = q.ID, ""
			break
		}
		if !a.Correct && wrong == "" {
			wrong = q.ID
		}
	}
	if wrong != "" {
		next = wrong
	}
	return c.Redirect(http.StatusSeeOther, "/practice/"+next)
}

// lastAttempts returns the learner's latest attempt per question.
func (s *Server) lastAttempts(c echo.Context) (map[string]*examsim.Attempt, error) {
	out := map[string]*examsim.Attempt{}
	l := pageOf(c).Learner
	if l == nil {
		return out, nil
	}
	attempts, err := s.Attempts.ListAttempts(c.Request().Context(), l.ID, 1000)
	if err != nil {
		return nil, err
	}
	for _, a := range attempts { // newest first: keep the first seen
		if _, seen := out[a.QuestionID]; !seen {
			out[a.QuestionID] = a
		}
	}
	return out, nil
}
