// Package webtest starts the whole web app for tests: real SQLite in a
// temporary file, the embedded bank and the real catalogs, on an httptest
// server.
package webtest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/examsim/examsim/i18n"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web"
)

// App is a running app and what tests need to know about it.
type App struct {
	*httptest.Server
	Bank *questions.Bank
	DB   *store.DB
}

// Start starts the app and stops it when the test ends.
func Start(tb testing.TB) *App {
	tb.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(tb.TempDir(), "examsim.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	fsys, name := questions.Embedded()
	bank, problems := questions.Load(fsys, name)
	if len(problems) > 0 {
		tb.Fatalf("the embedded bank has problems:\n%s", problems.Error())
	}
	catalog, err := i18n.Load()
	if err != nil {
		tb.Fatal(err)
	}
	key, err := db.Secret(ctx, "cookie")
	if err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(web.New(web.Config{
		Bank: bank, Catalog: catalog, CookieKey: key,
		Learners: store.NewLearnerService(db), Attempts: store.NewAttemptService(db),
		Ping: func(r *http.Request) error { return db.Ping(r.Context()) },
	}))
	tb.Cleanup(srv.Close)
	return &App{Server: srv, Bank: bank, DB: db}
}
