package web

import (
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/examsim/examsim/static"
)

// routes is the route table: every URL the app answers, in one place.
func (s *Server) routes() {
	e := s.echo
	e.Pre(middleware.RemoveTrailingSlash())
	e.Use(s.recoverPanics, securityHeaders, middleware.BodyLimit("64K"))

	e.GET("/healthz", s.handleHealthz)
	e.GET(static.Prefix+"*", echo.WrapHandler(static.Handler()))

	pages := e.Group("", s.withLanguage, s.withLearner, s.csrf())
	pages.GET("/", s.handleHome)
	pages.GET("/learn/:topic", s.handleLearn)
	pages.GET("/practice", s.handlePracticeList)
	pages.GET("/practice/next", s.handlePracticeNext)
	pages.GET("/practice/:id", s.handleQuestion)
	pages.POST("/practice/:id", s.handleAnswer)
	pages.GET("/attempts/:id", s.handleAttempt)
	pages.GET("/me", s.handleMe)
	pages.GET("/register", s.handleRegisterForm)
	pages.POST("/register", s.handleRegister)
	pages.GET("/login", s.handleLoginForm)
	pages.POST("/login", s.handleLogin)
	pages.POST("/logout", s.handleLogout)
}
