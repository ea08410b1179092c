package web

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/examsim/examsim/static"
)

// routes is the route table: every URL the app answers, in one place.
func (s *Server) routes() {
	e := s.echo
	e.Pre(middleware.RemoveTrailingSlash())
	// A room another instance owns is forwarded before anything here reads
	// the body or sets a header: the owner does both (forward.go). Every
	// body is small but an import's file, which has its own limit.
	e.Use(s.recoverPanics, s.forwardRooms, s.securityHeaders, middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{Limit: "64K",
		Skipper: func(c echo.Context) bool { return c.Request().URL.Path == authoredImportPath }}))

	e.GET("/healthz", s.handleHealthz)
	if s.BenchCeiling {
		e.GET("/_ceiling", s.handleCeiling)
		e.POST("/_ceiling/fanout", s.handleCeilingFanout)
	}
	e.GET(static.Prefix+"*", echo.WrapHandler(static.Handler()))
	// The live MCP sandbox, for any MCP client: no cookies, so no CSRF.
	e.Match([]string{http.MethodGet, http.MethodPost, http.MethodDelete}, "/mcp", s.mcpHandler())

	// Prometheus metrics, from loopback or with the metrics token.
	e.GET("/metrics", s.handleMetrics)

	pages := e.Group("", s.withLanguage, s.withLearner, s.csrf())
	pages.GET("/", s.handleHome)
	pages.GET("/learn/:topic", s.handleLearn)
	pages.GET("/practice", s.handlePracticeList)
	pages.GET("/practice/next", s.handlePracticeNext)
	pages.GET("/practice/:id", s.handleQuestion)
	pages.POST("/practice/:id", s.handleAnswer)
	pages.GET("/attempts/:id", s.handleAttempt)
	pages.POST("/attempts/:id/flag", s.handleFlagAttempt)
	pages.GET("/me", s.handleMe)
	pages.GET("/me/history.csv", s.handleExportCSV)
	pages.GET("/me/history.json", s.handleExportJSON)
	pages.GET("/me/delete", s.handleDeleteAccountForm)
	pages.POST("/me/delete", s.handleDeleteAccount)
	pages.GET("/account/deleted", s.handleAccountDeleted)
	pages.GET("/exam", s.handleExamSetup)
	pages.POST("/exam", s.handleExamStart)
	pages.GET("/exam/:id", s.handleExam)
	pages.GET("/exam/:id/q/:n", s.handleExamQuestion)
	pages.POST("/exam/:id/q/:n", s.handleExamAnswer)
	pages.GET("/exam/:id/review", s.handleExamReview)
	pages.POST("/exam/:id/submit", s.handleExamSubmit)
	pages.GET("/exam/:id/results", s.handleExamResults)
	pages.POST("/exam/:id/again", s.handleExamAgain)
	pages.GET("/review", s.handleReviewQueue)
	pages.GET("/review/next", s.handleReviewNext)
	pages.POST("/review/start", s.handleReviewStart)
	pages.POST("/review/settings", s.handleReviewSettings)
	pages.GET("/review/session", s.handleReviewSession)
	pages.POST("/review/session", s.handleReviewAnswer)
	pages.GET("/register", s.handleRegisterForm)
	pages.POST("/register", s.handleRegister)
	pages.GET("/login", s.handleLoginForm)
	pages.POST("/login", s.handleLogin)
	pages.POST("/logout", s.handleLogout)
	pages.GET("/sandbox", s.handleSandbox)
	pages.GET("/sandbox/stream", s.handleSandboxStream)
	pages.POST("/sandbox/predictions", s.handleSandboxPredict)
	pages.POST("/sandbox/replay", s.handleSandboxReplay)
	pages.GET("/sandbox/console", s.handleSandboxConsole)
	pages.POST("/sandbox/console", s.handleSandboxConsoleCall)
	// Classroom quizzes: students join and play; instructors build quizzes,
	// host sessions and read results; admins hand out roles.
	pages.GET("/join", s.handleJoinForm)
	pages.POST("/join", s.handleJoin)
	pages.GET("/class", s.handleClassHome)
	pages.GET("/class/quizzes/new", s.handleQuizNew)
	pages.POST("/class/quizzes", s.handleQuizCreate)
	pages.GET("/class/quizzes/:id", s.handleQuizEdit)
	pages.POST("/class/quizzes/:id", s.handleQuizUpdate)
	pages.POST("/class/quizzes/:id/sessions", s.handleRunStart)
	pages.GET("/class/preview/:qid", s.handleHostPreview)
	pages.GET("/class/s/:id/host", s.handleHost)
	pages.GET("/class/s/:id/host/events", s.handleHostEvents)
	pages.POST("/class/s/:id/control", s.handleHostControl)
	pages.GET("/class/s/:id/qr.png", s.handleQR)
	pages.GET("/class/s/:id/results", s.handleResults)
	pages.GET("/class/s/:id/results.csv", s.handleResultsCSV)
	pages.GET("/class/s/:id/play", s.handlePlay)
	pages.GET("/class/s/:id/events", s.handlePlayEvents)
	if s.BenchCeiling {
		// The fan-out ceiling: behind the same middleware as a room's streams.
		pages.GET("/_ceiling/events", s.handleCeilingEvents)
	}
	pages.POST("/class/s/:id/answer", s.handlePlayAnswer)
	// The review queue: flagged and unsure explanations, and regrading.
	pages.GET("/class/grading", s.handleGradingQueue)
	pages.GET("/class/grading/:kind/:id", s.handleGradingItem)
	pages.POST("/class/grading/:kind/:id", s.handleRegrade)
	pages.GET("/class/items", s.handleItemStats)
	// Teachers' own questions: the editor, rubric workbench, preview,
	// import and export (handle_authored.go).
	pages.GET("/class/questions", s.handleAuthoredList)
	pages.GET("/class/questions/new", s.handleAuthoredNew)
	pages.POST("/class/questions", s.handleAuthoredCreate)
	pages.POST(authoredImportPath, s.handleAuthoredImport, middleware.BodyLimit(strconv.Itoa(importBodyBytes/1024)+"K"))
	pages.GET("/class/questions/export.zip", s.handleAuthoredExport)
	pages.GET("/class/questions/:id", s.handleAuthoredEdit)
	pages.POST("/class/questions/:id", s.handleAuthoredSave)
	pages.GET("/class/questions/:id/preview", s.handleAuthoredPreview)
	pages.POST("/class/questions/:id/share", s.handleAuthoredShare)
	pages.GET("/admin/users", s.handleAdminUsers)
	pages.POST("/admin/users/:id/role", s.handleAdminRole)
}

// Routes lists every registered route, for tests that must cover them all.
func (s *Server) Routes() []*echo.Route { return s.echo.Routes() }
