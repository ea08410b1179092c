package web

import (
	"fmt"
	"net/http"
	"runtime/debug"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/examsim/examsim"
)

// securityHeaders sets the headers every response carries. The CSP allows no
// inline script or style: every asset comes from /static.
func securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		return next(c)
	}
}

// recoverPanics turns a panic into a logged internal error, so a bug shows
// the learner an apology, never a stack trace.
func (s *Server) recoverPanics(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = &examsim.Error{Code: examsim.EINTERNAL, Message: "error.internal",
					Detail: fmt.Sprintf("panic: %v\n%s", r, debug.Stack())}
			}
		}()
		return next(c)
	}
}

// csrf protects every state-changing form with a token kept in an HttpOnly
// cookie and echoed in the form's _csrf field.
func (s *Server) csrf() echo.MiddlewareFunc {
	return middleware.CSRFWithConfig(middleware.CSRFConfig{
		TokenLookup:    "form:_csrf",
		CookieName:     "examsim_csrf",
		CookiePath:     "/",
		CookieHTTPOnly: true,
		CookieSameSite: http.SameSiteLaxMode,
		CookieSecure:   s.SecureCookies,
		ErrorHandler: func(err error, c echo.Context) error {
			return examsim.Errorf(examsim.EFORBIDDEN, "error.csrf")
		},
	})
}
