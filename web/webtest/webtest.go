// Package webtest starts the whole web app for tests: real SQLite in a
// temporary file, the embedded bank and the real catalogs, on an httptest
// server.
package webtest

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/examsim/examsim/classroom"
	"github.com/examsim/examsim/i18n"
	"github.com/examsim/examsim/internal/pgtest"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/questions/exchange"
	"github.com/examsim/examsim/sandbox"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web"
)

// App is a running app and what tests need to know about it.
type App struct {
	*httptest.Server
	Bank *questions.Bank
	DB   *store.DB
	// Classroom is the app's classroom hub.
	Classroom *classroom.Hub
	// Clock is the app's clock for exams, reviews, sessions and rate
	// limits: it stands still until a test moves it, so timing tests never
	// sleep.
	Clock *Clock
	// Web is the app's handler, for tests that list its routes.
	Web *web.Server
}

// Option changes how Start starts the app.
type Option func(*options)

type options struct {
	configure []func(*web.Config)
	tls       bool
	bank      *questions.Bank
	database  string
}

// WithBank serves bank instead of the embedded one.
func WithBank(bank *questions.Bank) Option { return func(o *options) { o.bank = bank } }

// WithConfig lets a test change the app's configuration before it starts,
// for example to lower a rate limit or trust a proxy.
func WithConfig(f func(*web.Config)) Option {
	return func(o *options) { o.configure = append(o.configure, f) }
}

// WithDatabase serves the database at path (a SQLite file or a postgres://
// URL) instead of a fresh one: a test that serves one database from two
// apps, or serves it again after copying it.
func WithDatabase(path string) Option { return func(o *options) { o.database = path } }

// WithTLS serves the app over HTTPS; the server's Client trusts it.
func WithTLS() Option { return func(o *options) { o.tls = true } }

// Clock is a clock that only moves when told to.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// embeddedBank and catalogs are parsed once per test binary and shared by
// every app it starts: both are read-only once loaded, and parsing the bank
// for each test server was a quarter of the web tests' CPU time.
var (
	embeddedBank = sync.OnceValues(func() (*questions.Bank, questions.Problems) {
		fsys, name := questions.Embedded()
		return questions.Load(fsys, name)
	})
	catalogs = sync.OnceValues(i18n.Load)
)

// Start starts the app and stops it when the test ends.
func Start(tb testing.TB, opts ...Option) *App {
	tb.Helper()
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	ctx := context.Background()
	// SQLite, or PostgreSQL under EXAMSIM_TEST_POSTGRES (README, "When one
	// machine is not enough").
	path := o.database
	if path == "" {
		path = pgtest.ForSuite(tb, filepath.Join(tb.TempDir(), "examsim.db"))
	}
	db, err := store.Open(ctx, path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = db.Close() }) // the test is over: nothing reads it again
	// Tests need no slow hashes: bcrypt at its default cost was 43% of the
	// web tests' CPU time.
	if err := db.SetPasswordCost(bcrypt.MinCost); err != nil {
		tb.Fatal(err)
	}
	bank := o.bank
	if bank == nil {
		var problems questions.Problems
		if bank, problems = embeddedBank(); len(problems) > 0 {
			tb.Fatalf("the embedded bank has problems:\n%s", problems.Error())
		}
	}
	catalog, err := catalogs()
	if err != nil {
		tb.Fatal(err)
	}
	key, err := db.Secret(ctx, "cookie")
	if err != nil {
		tb.Fatal(err)
	}
	clock := &Clock{now: time.Now().UTC()}
	services := store.NewServices(db)
	if o.bank == nil { // as serve wires it: teachers' questions beside the bank's
		fsys, _ := questions.Embedded()
		bank = bank.WithAuthored(exchange.NewResolver(fsys, services.Authored).Lookup)
	}
	hub := classroom.NewHub(classroom.Config{Store: services.Classes, Bank: bank, Now: clock.Now})
	tb.Cleanup(hub.Close) // runs after srv.Close: the writer outlives every request
	cfg := web.Config{Services: services, Bank: bank, Catalog: catalog, CookieKey: key, Now: clock.Now, Sandbox: sandbox.New(), Classroom: hub}
	for _, f := range o.configure {
		f(&cfg)
	}
	handler := web.New(cfg)
	srv := httptest.NewUnstartedServer(handler)
	if o.tls {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	tb.Cleanup(srv.Close)
	tb.Cleanup(hub.CloseStreams) // runs first, so srv.Close does not wait on open event streams
	return &App{Server: srv, Bank: bank, DB: db, Clock: clock, Classroom: hub, Web: handler}
}
