package web

import (
	"net/http"
	"strings"
	"time"

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
// account, so their history so far stays theirs, and signs the browser in
// with a new session.
func (s *Server) handleRegister(c echo.Context) error {
	form := authForm{Username: strings.TrimSpace(c.FormValue("username"))}
	if ok, wait := s.limits.registration.Take(s.clientKey(c.Request()), s.now()); !ok {
		return s.rateLimited(c, RegisterPage, form, "security.register_rate_limited", wait)
	}
	if l := pageOf(c).Learner; l != nil && !l.Anonymous() {
		return s.authFailed(c, RegisterPage, form, examsim.E(examsim.ECONFLICT, "error.already_registered"))
	}
	learner, err := s.ensureLearner(c)
	if err != nil {
		return err
	}
	l, err := s.Learners.Register(c.Request().Context(), learner.ID, form.Username, c.FormValue("password"))
	if err != nil {
		return s.authFailed(c, RegisterPage, form, err)
	}
	// Whoever held an anonymous session of this learner does not get the
	// account with it.
	if err := s.Sessions.EndLearnerSessions(c.Request().Context(), l.ID); err != nil {
		return err
	}
	if err := s.startSession(c, l.ID); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/me")
}

func (s *Server) handleLoginForm(c echo.Context) error {
	return Render(c, http.StatusOK, LoginPage(authForm{}))
}

// handleLogin signs a learner in with a new session, bringing along what
// they did anonymously in this browser. Only failures count against the
// client and the account, charged once the password is found wrong: a
// token taken before the check and refunded after would refuse a class
// logging in at once. Over the limit even the right password is refused,
// so a guesser learns nothing.
func (s *Server) handleLogin(c echo.Context) error {
	form := authForm{Username: strings.TrimSpace(c.FormValue("username"))}
	lim, now := &s.limits, s.now()
	client, account := s.clientKey(c.Request()), accountKey(form.Username)
	ok, wait := lim.loginClient.Allows(client, now)
	if ok {
		ok, wait = lim.loginAccount.Allows(account, now)
	}
	if !ok {
		return s.rateLimited(c, LoginPage, form, "security.login_rate_limited", wait)
	}
	l, err := s.Learners.Authenticate(c.Request().Context(), form.Username, c.FormValue("password"))
	if err != nil {
		if examsim.ErrorCode(err) == examsim.EUNAUTHORIZED {
			lim.loginClient.Charge(client, now)
			lim.loginAccount.Charge(account, now)
		}
		return s.authFailed(c, LoginPage, form, err)
	}
	if cur := pageOf(c).Learner; cur != nil && cur.Anonymous() {
		// Merging deletes the anonymous learner, and its sessions with it.
		if err := s.Learners.MergeAnonymous(c.Request().Context(), cur.ID, l.ID); err != nil {
			return err
		}
	}
	if err := s.startSession(c, l.ID); err != nil {
		return err
	}
	pageOf(c).Learner = l
	return c.Redirect(http.StatusSeeOther, "/me")
}

// handleLogout ends the session on the server, so a copy of the cookie is
// worthless from now on.
func (s *Server) handleLogout(c echo.Context) error {
	if err := s.endSession(c); err != nil {
		return err
	}
	pageOf(c).Learner = nil
	return c.Redirect(http.StatusSeeOther, "/")
}

// authFailed re-shows an auth form with the reason, for errors the learner
// can fix; anything else goes to the error page.
func (s *Server) authFailed(c echo.Context, view func(authForm) templ.Component, form authForm, err error) error {
	return formError(c, err, func(status int, reason string) error {
		form.Error = reason
		return Render(c, status, view(form))
	})
}

// rateLimited re-shows a form with 429 Too Many Requests, a Retry-After
// header and a message saying how many minutes to wait: a clear answer,
// never a silent drop.
func (s *Server) rateLimited(c echo.Context, view func(authForm) templ.Component, form authForm, message string, wait time.Duration) error {
	p := pageOf(c)
	form.Error = p.Catalog.N(p.Lang, message, retryAfter(c, wait))
	return Render(c, http.StatusTooManyRequests, view(form))
}
