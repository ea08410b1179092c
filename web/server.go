// Package web owns HTTP: the route table, one small handler per action, the
// templ components they render, and the one place errors become pages.
package web

import (
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/i18n"
	"github.com/examsim/examsim/questions"
)

// Config is what the server needs; cmd/examsim fills it in.
type Config struct {
	Bank     *questions.Bank
	Catalog  *i18n.Catalog
	Learners examsim.LearnerService
	Attempts examsim.AttemptService
	// Ping reports whether the database answers, for /healthz.
	Ping func(*http.Request) error
	// CookieKey signs the identity cookie; keep it secret and stable.
	CookieKey []byte
	// SecureCookies marks cookies Secure, for TLS deployments.
	SecureCookies bool
	Logger        *slog.Logger
}

// Server is the web application.
type Server struct {
	Config
	echo *echo.Echo
}

// New returns a server with its routes registered.
func New(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	s := &Server{Config: cfg, echo: echo.New()}
	s.echo.HideBanner = true
	s.echo.HidePort = true
	s.echo.HTTPErrorHandler = s.handleError
	s.routes()
	return s
}

// ServeHTTP makes the server an http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.echo.ServeHTTP(w, r) }
