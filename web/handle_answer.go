package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/scoring"
)

// handleAnswer scores and stores an answer, then shows its result. Bad
// input re-shows the form with the learner's text intact.
func (s *Server) handleAnswer(c echo.Context) error {
	q, err := s.question(c)
	if err != nil {
		return err
	}
	p := pageOf(c)
	tx := s.text(c, q)
	form := answerForm{Choice: c.FormValue("choice"), Explanation: strings.TrimSpace(formText(c, "explanation"))}

	if err := checkAnswer(tx, form); err != nil {
		return formError(c, err, func(_ int, reason string) error {
			form.Error = reason
			if !hasOption(tx, form.Choice) {
				form.Choice = "" // the form keeps a real choice only, never a forged letter
			}
			return Render(c, http.StatusUnprocessableEntity, QuestionPage(q, tx, form))
		})
	}

	if l := p.Learner; l == nil || l.Anonymous() {
		if ok, wait := s.limits.anonAnswers.Take(s.clientKey(c.Request()), s.now()); !ok {
			retryAfter(c, wait)
			form.Error = p.Catalog.T(p.Lang, "practice.error_rate_limited")
			return Render(c, http.StatusTooManyRequests, QuestionPage(q, tx, form))
		}
	}
	// A scorer failure leaves the score pending: the answer is stored all
	// the same, and scored again on its next view.
	verdict := scoring.VerdictOf(tx.Rubric(), form.Choice, form.Explanation)
	learner, err := s.ensureLearner(c)
	if err != nil {
		return s.answerNotSaved(c, err, q, tx, form)
	}
	a := &examsim.Attempt{
		LearnerID: learner.ID, Answer: examsim.Answer{QuestionID: q.ID, Lang: p.Lang, Choice: form.Choice, Correct: form.Choice == q.Answer,
			Explanation: form.Explanation, Verdict: verdict},
		CreatedAt: s.now(), // the clock reviews are scheduled by
	}
	if err := s.Attempts.CreateAttempt(c.Request().Context(), a); err != nil {
		return s.answerNotSaved(c, err, q, tx, form)
	}
	// Redirected only once committed: a learner who sees the result has it.
	return c.Redirect(http.StatusSeeOther, "/attempts/"+strconv.FormatInt(a.ID, 10))
}

// answerNotSaved shows the question again with the learner's answer kept
// when the database cannot take it right now (full, read-only, busy), so
// they can send it again later without typing it again.
func (s *Server) answerNotSaved(c echo.Context, err error, q *questions.Question, tx *questions.Text, form answerForm) error {
	msg, ok := s.unavailableText(c, err)
	if !ok {
		return err
	}
	form.Error = msg
	return Render(c, http.StatusServiceUnavailable, QuestionPage(q, tx, form))
}

// checkAnswer says what the learner must fix before an answer is scored: the
// one rule practice, exams and class share (questions.Text.CheckAnswer).
func checkAnswer(tx *questions.Text, form answerForm) error {
	return tx.CheckAnswer(form.Choice, form.Explanation, false)
}

// hasOption reports whether letter is one of the question's options.
func hasOption(tx *questions.Text, letter string) bool { return tx.HasOption(letter) }
