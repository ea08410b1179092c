// Package web owns HTTP: the route table, one small handler per action, the
// templ components they render, and the one place errors become pages.
package web

import (
	"io/fs"
	"log/slog"
	"net/netip"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/classroom"
	"github.com/examsim/examsim/i18n"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/sandbox"
	"github.com/examsim/examsim/web/internal/metrics"
)

// Config is what the server needs; cmd/examsim fills it in.
type Config struct {
	Bank    *questions.Bank
	Catalog *i18n.Catalog
	// Services are the storage services (store.NewServices), and /healthz's
	// Ping. Sessions keep browser sessions server-side (the session cookie
	// holds only a random token). The classroom pages answer 404 without
	// Classes and Accounts, flagging and the grading queue without
	// Disputes, /class/items without ItemStats, and /class/questions
	// without Authored.
	examsim.Services
	// Now is the clock exams, reviews, sessions and rate limits are timed
	// by; nil means time.Now. Tests set it to move time without sleeping.
	Now func() time.Time
	// CookieKey checks the signed identity cookies examsim set before it
	// kept sessions server-side, so anonymous learners keep their history
	// across the update; keep it secret and stable.
	CookieKey []byte
	// SecureCookies marks cookies Secure even on requests that do not look
	// like TLS; requests over TLS (directly or from a trusted proxy) always
	// get Secure cookies and HSTS.
	SecureCookies bool
	// TrustedProxies are the reverse proxies whose X-Forwarded-For and
	// X-Forwarded-Proto are believed; from anyone else they are ignored.
	TrustedProxies []netip.Prefix
	// RateLimits limits logins, registrations and joins; the zero value
	// means DefaultRateLimits.
	RateLimits RateLimits
	// Sandbox is the live MCP sandbox served at /mcp and watched on /sandbox.
	Sandbox *sandbox.Sandbox
	// MCPAllowAnyHost turns off the MCP SDK's refusal of non-local Host
	// headers on /mcp (its DNS-rebinding protection), for a deployment behind
	// a reverse proxy on the same machine that checks Host itself.
	MCPAllowAnyHost bool
	// MCPAllowedOrigins are the browser origins allowed on /mcp besides its
	// own; a request with any other Origin gets 403.
	MCPAllowedOrigins []string
	// MCPSessionsPerClient limits new MCP sessions per client address; the
	// zero value means DefaultMCPSessionsPerClient.
	MCPSessionsPerClient Limit
	// ConsoleSessionsPerClient limits new tool-console sessions per client
	// address; the zero value means DefaultConsoleSessionsPerClient.
	ConsoleSessionsPerClient Limit
	// AnonymousAnswersPerClient limits practice answers from learners
	// without an account per client address; the zero value means
	// DefaultAnonymousAnswersPerClient.
	AnonymousAnswersPerClient Limit
	Logger                    *slog.Logger

	// Classroom runs live classroom sessions on Classes.
	Classroom *classroom.Hub
	// BankFiles is the folder Bank was loaded from; teachers' questions are
	// checked and rendered with its topics. nil means the embedded bank.
	BankFiles fs.FS
	// MetricsToken lets /metrics be read from other hosts with
	// "Authorization: Bearer TOKEN"; from loopback it needs none.
	MetricsToken string
	// BodyTimeout is how long a request body may take to arrive once its
	// headers have; zero means DefaultBodyTimeout. A client trickling a body
	// is cut off with 408 rather than holding a connection for good.
	BodyTimeout time.Duration
	// PublicURL is the address students' phones open, such as
	// http://192.168.1.20:8080 (serve --public-url): the join URL and QR
	// code use it. Empty, they use the address the presenter screen was
	// opened at.
	PublicURL string
	// ListenAddr is the address the server listens on, and LANAddrs the
	// machine's addresses on its local networks: when students could not
	// reach the join URL, the presenter screen says how to serve on them.
	ListenAddr string
	LANAddrs   []string
	// BenchCeiling mounts GET /_ceiling, a fixed-bytes answer that load
	// runs measure pages against, and the fan-out ceiling (GET
	// /_ceiling/events, POST /_ceiling/fanout) that the classroom load run
	// measures a room's fan-out against (examsim serve --bench-ceiling). Off in
	// production: it is of no use to anyone else.
	BenchCeiling bool
}

// Server is the web application.
type Server struct {
	Config
	echo    *echo.Echo
	class   classState           // the classroom pages' own state
	metrics *metrics.Instruments // the one Prometheus registry and its instruments
	limits  limits               // rate limiters, made in New
	fanout  *fanoutCeiling       // the fan-out ceiling's streams; nil unless BenchCeiling
	fwd     forwards             // proxies to the instances owning other rooms
	// closing ends event streams when the server shuts down (CloseStreams).
	closing closer
}

// New returns a server with its routes registered.
func New(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Sandbox == nil {
		cfg.Sandbox = sandbox.New()
	}
	// The lessons on /learn are the lessons the sandbox offers over MCP.
	cfg.Sandbox.AddLessons(mcpLessons(cfg.Bank))
	s := &Server{Config: cfg, echo: echo.New(), metrics: metrics.New(cfg.Classroom)}
	s.limits, s.closing = newLimits(cfg), newCloser()
	if cfg.Classroom != nil && cfg.Classroom.Shared() && len(cfg.CookieKey) > 0 {
		cfg.Sandbox.SetSessionIDPrefix(s.mcpSessionPrefix(cfg.Classroom.Address()))
	}
	if cfg.BenchCeiling {
		s.fanout = newFanoutCeiling()
	}
	s.echo.HideBanner = true
	s.echo.HidePort = true
	s.echo.HTTPErrorHandler = s.handleError
	// Echo's c.RealIP and c.Scheme believe forwarding headers from anyone;
	// ours believe them only from a trusted proxy.
	s.echo.IPExtractor = s.clientIP
	s.echo.SchemeExtractor = s.schemeOf
	s.routes()
	return s
}

// mcpLessons are the bank's lessons, each language one MCP resource.
func mcpLessons(bank *questions.Bank) []sandbox.Lesson {
	if bank == nil {
		return nil
	}
	var out []sandbox.Lesson
	for _, tp := range bank.Topics {
		for lang, ls := range tp.Lessons {
			out = append(out, sandbox.Lesson{Topic: tp.ID, Lang: string(lang), Title: ls.Title, Summary: ls.Summary, Markdown: ls.Markdown})
		}
	}
	return out
}
