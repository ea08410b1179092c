package web

import (
	"errors"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
)

// unavailableText turns an error that means "not saved, try again later"
// (EUNAVAILABLE: a busy, full or read-only database) into what a form shows
// above the learner's kept input: what happened and what to do, in their
// language. It logs the error as handleError would. ok is false for any
// other error, which should go to handleError.
func (s *Server) unavailableText(c echo.Context, err error) (text string, ok bool) {
	var e *examsim.Error
	if !errors.As(err, &e) || e.Code != examsim.EUNAVAILABLE {
		return "", false
	}
	s.Logger.Error("request failed", "method", c.Request().Method, "path", c.Request().URL.Path, "err", err)
	p := pageOf(c)
	return p.errorText(e) + " " + hintFor(p, e), true
}
