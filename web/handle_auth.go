package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
)

// authForm is the register and login form, kept across a failed submit.
type authForm struct {
	Username string
	Error    string // already translated
}

func (s *Server) handleRegisterForm(c echo.Context) error {
	return Render(c, http.StatusOK, RegisterPage(authForm{}))
}

// handleRegister turns the current (possibly new) anonymous learner into an
// account, so their history so far stays theirs.
func (s *Server) handleRegister(c echo.Context) error {
	form := authForm{Username: strings.TrimSpace(c.FormValue("username"))}
	if l := pageOf(c).Learner; l != nil && !l.Anonymous() {
		return s.authFailed(c, RegisterPage, form, examsim.Errorf(examsim.ECONFLICT, "error.already_registered"))
	}
	learner, err := s.ensureLearner(c)
	if err != nil {
		return err
	}
	l, err := s.Learners.Register(c.Request().Context(), learner.ID, form.Username, c.FormValue("password"))
	if err != nil {
		return s.authFailed(c, RegisterPage, form, err)
	}
	s.setIdentity(c, l.ID)
	return c.Redirect(http.StatusSeeOther, "/me")
}

func (s *Server) handleLoginForm(c echo.Context) error {
	return Render(c, http.StatusOK, LoginPage(authForm{}))
}

// handleLogin signs a learner in, bringing along what they did anonymously
// in this browser.
func (s *Server) handleLogin(c echo.Context) error {
	form := authForm{Username: strings.TrimSpace(c.FormValue("username"))}
	l, err := s.Learners.Authenticate(c.Request().Context(), form.Username, c.FormValue("password"))
	if err != nil {
		return s.authFailed(c, LoginPage, form, err)
	}
	if cur := pageOf(c).Learner; cur != nil && cur.Anonymous() {
		if err := s.Learners.MergeAnonymous(c.Request().Context(), cur.ID, l.ID); err != nil {
			return err
		}
	}
	s.setIdentity(c, l.ID)
	return c.Redirect(http.StatusSeeOther, "/me")
}

func (s *Server) handleLogout(c echo.Context) error {
	s.clearIdentity(c)
	return c.Redirect(http.StatusSeeOther, "/")
}

// authFailed re-shows an auth form with the reason, for errors the learner
// can fix; anything else goes to the error page.
func (s *Server) authFailed(c echo.Context, view func(authForm) templ.Component, form authForm, err error) error {
	var e *examsim.Error
	if !errors.As(err, &e) || statusOf[e.Code] >= 500 {
		return err
	}
	p := pageOf(c)
	args := make([]any, 0, 2*len(e.Args))
	for k, v := range e.Args {
		args = append(args, k, v)
	}
	form.Error = p.Catalog.T(p.Lang, e.Message, args...)
	return Render(c, statusOf[e.Code], view(form))
}
