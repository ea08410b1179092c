package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
)

// flagBackExam in a flag form sends the learner back to the exam's review
// instead of the attempt page. Only this word is accepted, never a URL, so
// the form cannot be made to redirect anywhere else.
const flagBackExam = "exam"

// handleFlagAttempt records the learner's flag on one of their own scores,
// with an optional comment, and shows the page they flagged it from.
// Flagging again is harmless: the one flag is refreshed.
func (s *Server) handleFlagAttempt(c echo.Context) error {
	if s.Disputes == nil {
		return examsim.E(examsim.ENOTFOUND, "error.page_not_found")
	}
	a, err := s.ownAttempt(c)
	if err != nil {
		return err
	}
	if a.Explanation == "" {
		return examsim.E(examsim.EINVALID, "dispute.error_nothing_to_flag")
	}
	comment := strings.TrimSpace(formText(c, "comment"))
	if err := examsim.CheckFlagComment(comment); err != nil {
		return formError(c, err, func(_ int, reason string) error {
			return s.renderAttempt(c, http.StatusUnprocessableEntity, a, flagView{Comment: comment, Error: reason})
		})
	}
	f := &examsim.Flag{Target: examsim.Target{Kind: examsim.TargetAttempt, ID: a.ID}, LearnerID: a.LearnerID, Comment: comment, CreatedAt: s.now()}
	if err := s.Disputes.FlagScore(c.Request().Context(), f); err != nil {
		if msg, ok := s.unavailableText(c, err); ok {
			return s.renderAttempt(c, http.StatusServiceUnavailable, a, flagView{Comment: comment, Error: msg})
		}
		return err
	}
	anchor := "#flag-" + strconv.FormatInt(a.ID, 10)
	if c.FormValue("back") == flagBackExam && a.Source == examsim.SourceExam && a.ExamID != 0 {
		return c.Redirect(http.StatusSeeOther, "/exam/"+strconv.FormatInt(a.ExamID, 10)+"/results"+anchor)
	}
	return c.Redirect(http.StatusSeeOther, attemptURL(a.ID)+anchor)
}
