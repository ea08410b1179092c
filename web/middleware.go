package web

import (
	"fmt"
	"net/http"
	"runtime/debug"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/examsim/examsim"
)

// ContentSecurityPolicy is the CSP of every response. It allows no inline
// script or style (every asset comes from /static) and no framing.
const ContentSecurityPolicy = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// StrictTransportSecurity is sent on every response served over TLS: for a
// year, browsers reach this host and its subdomains only over HTTPS.
const StrictTransportSecurity = "max-age=31536000; includeSubDomains"

// securityHeaders sets the headers every response carries, error pages and
// static files included.
func (s *Server) securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		// Every dynamic response may hold someone's data (ASVS 8.2.1), so none
		// is stored; static assets replace this with their own caching.
		h.Set("Cache-Control", "no-store")
		if s.overTLS(c.Request()) {
			h.Set("Strict-Transport-Security", StrictTransportSecurity)
		}
		return next(c)
	}
}

// recoverPanics turns a panic into a logged internal error, so a bug shows
// the learner an apology, never a stack trace.
func (s *Server) recoverPanics(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = &examsim.Error{Code: examsim.EINTERNAL, MessageID: "error.internal",
					Detail: fmt.Sprintf("panic: %v\n%s", r, debug.Stack())}
			}
		}()
		return next(c)
	}
}

// csrf protects every state-changing form with a token kept in an HttpOnly
// cookie and echoed in the form's _csrf field. The cookie is Secure on
// requests over TLS, which echo can only set per middleware: so two.
func (s *Server) csrf() echo.MiddlewareFunc {
	config := func(secure bool) echo.MiddlewareFunc {
		// #nosec G101 -- names of the token's field and cookie, not a credential
		return middleware.CSRFWithConfig(middleware.CSRFConfig{
			TokenLookup:    "form:_csrf",
			CookieName:     "examsim_csrf",
			CookiePath:     "/",
			CookieHTTPOnly: true,
			CookieSameSite: http.SameSiteLaxMode,
			CookieSecure:   secure,
			ErrorHandler: func(err error, c echo.Context) error {
				return examsim.E(examsim.EFORBIDDEN, "error.csrf")
			},
		})
	}
	plain, secure := config(false), config(true)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		plainNext, secureNext := plain(next), secure(next)
		return func(c echo.Context) error {
			if s.secureCookies(c.Request()) {
				return secureNext(c)
			}
			return plainNext(c)
		}
	}
}
