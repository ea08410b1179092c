package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"golang.org/x/text/unicode/norm"

	"github.com/examsim/examsim"
)

// deleteForm is the account deletion form, kept across a failed submit.
type deleteForm struct {
	Confirm string
	Error   string // already translated
}

// handleDeleteAccountForm asks the learner to confirm deleting everything.
func (s *Server) handleDeleteAccountForm(c echo.Context) error {
	return Render(c, http.StatusOK, DeleteAccountPage(deleteForm{}))
}

// confirmed reports whether the learner typed the confirmation word: the
// page language's, or DELETE, in any case. Both are NFC-normalised, since a
// keyboard may type "XÓA" as X, O, a combining accent and A.
func confirmed(p *Page, typed string) bool {
	typed = norm.NFC.String(strings.TrimSpace(typed))
	word := norm.NFC.String(p.Catalog.T(p.Lang, "account.confirm_word"))
	return typed != "" && (strings.EqualFold(typed, word) || strings.EqualFold(typed, "DELETE"))
}

// handleDeleteAccount deletes the learner and all their data once they
// have typed the confirmation word, then forgets them in this browser.
func (s *Server) handleDeleteAccount(c echo.Context) error {
	p := pageOf(c)
	form := deleteForm{Confirm: c.FormValue("confirm")}
	if p.Learner == nil {
		return examsim.E(examsim.ENOTFOUND, "account.error_nothing")
	}
	if !confirmed(p, form.Confirm) {
		err := examsim.E(examsim.EINVALID, "account.error_confirm", "Word", p.Catalog.T(p.Lang, "account.confirm_word"))
		return formError(c, err, func(_ int, reason string) error {
			form.Error = reason
			return Render(c, http.StatusUnprocessableEntity, DeleteAccountPage(form))
		})
	}
	// A host's running rooms end first, so their students see the quiz
	// ended instead of answers failing on rows the deletion removes.
	if s.Classroom != nil {
		if err := s.Classroom.EndHostedBy(c.Request().Context(), p.Learner.ID); err != nil {
			return err
		}
	}
	if err := s.Learners.DeleteLearner(c.Request().Context(), p.Learner.ID); err != nil {
		return err
	}
	if err := s.endSession(c); err != nil { // its sessions went with it; this drops the cookie
		return err
	}
	p.Learner = nil
	return c.Redirect(http.StatusSeeOther, "/account/deleted")
}

// handleAccountDeleted confirms the deletion.
func (s *Server) handleAccountDeleted(c echo.Context) error {
	return Render(c, http.StatusOK, AccountDeletedPage())
}
