package web

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/scoring"
)

// handleAttempt shows the result of one of the learner's own attempts. Other
// learners' attempts are reported as not found, so ids reveal nothing.
func (s *Server) handleAttempt(c echo.Context) error {
	a, err := s.ownAttempt(c)
	if err != nil {
		return err
	}
	return s.renderAttempt(c, http.StatusOK, a, flagView{})
}

// renderAttempt shows an attempt with its feedback; form carries a flag
// comment and its error back when the flag was refused.
func (s *Server) renderAttempt(c echo.Context, status int, a *examsim.Attempt, form flagView) error {
	q, ok := s.Bank.Question(a.QuestionID)
	if !ok {
		return examsim.E(examsim.ENOTFOUND, "error.question_not_found", "ID", a.QuestionID)
	}
	tx := s.text(c, q)
	s.scorePending(c, q, a)
	fb, err := s.attemptFeedback(c, q, tx, a, form)
	if err != nil {
		return err
	}
	return Render(c, status, AttemptPage(q, tx, a, s.attemptNext(c, a), fb))
}

// attemptFeedback builds an attempt's feedback with its flag state.
func (s *Server) attemptFeedback(c echo.Context, q *questions.Question, tx *questions.Text, a *examsim.Attempt, form flagView) (feedbackView, error) {
	fb := buildFeedback(tx, attemptScored(a))
	fb.ID = "-" + strconv.FormatInt(a.ID, 10)
	if s.Disputes == nil {
		return fb, nil
	}
	flag, err := s.Disputes.FindFlag(c.Request().Context(), examsim.Target{Kind: examsim.TargetAttempt, ID: a.ID})
	if err != nil {
		return fb, err
	}
	form.Flag = flag
	form.Action = attemptURL(a.ID) + "/flag"
	fb.Flag = form
	return fb, nil
}

// scorePending scores again an attempt whose score is pending, with the
// rubric of the language it was written in, and stores the verdict. If
// scoring fails again, or the verdict cannot be stored now, the page shows
// the answer kept with its score pending, and the next view tries again.
func (s *Server) scorePending(c echo.Context, q *questions.Question, a *examsim.Attempt) {
	tx := q.Text(a.Lang)
	if !a.Pending || tx == nil || tx.Rubric() == nil {
		return
	}
	v := scoring.VerdictOf(tx.Rubric(), a.Choice, a.Explanation)
	if v.Pending {
		return
	}
	scored := *a
	scored.SetScored(v)
	if err := s.Attempts.UpdateScore(c.Request().Context(), &scored); err != nil {
		s.Logger.Warn("storing a pending score once scored; the next view tries again", "attempt", a.ID, "err", err)
		return
	}
	*a = scored
}

func attemptURL(id int64) string { return "/attempts/" + strconv.FormatInt(id, 10) }

// ownAttempt returns the attempt in the URL if it is the learner's own.
func (s *Server) ownAttempt(c echo.Context) (*examsim.Attempt, error) {
	notFound := examsim.E(examsim.ENOTFOUND, "error.attempt_not_found")
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	learner := pageOf(c).Learner
	if err != nil || learner == nil {
		return nil, notFound
	}
	a, err := s.Attempts.FindAttempt(c.Request().Context(), id)
	if err != nil {
		return nil, err
	}
	if a.LearnerID != learner.ID {
		return nil, notFound
	}
	return a, nil
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
