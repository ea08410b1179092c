package web_test

import (
	"context"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/pgtest"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web/webtest"
)

// Every page shows the same after migrate-db: a SQLite database is filled
// through the app (practice with explanations, an exam, a review card and
// session, a flagged answer the teacher regraded, a classroom run with its
// results, a teacher's own question), copied to a fresh PostgreSQL database
// as `examsim migrate-db` copies it, and both are served; the learner's and
// the teacher's pages, exports included, must match byte for byte once the
// per-response nonces and CSRF tokens are set aside.
func TestEveryPageTheSameAfterMigrateDB(t *testing.T) {
	if testing.Short() {
		t.Skip("fills, copies and serves two databases")
	}
	ctx := context.Background()
	sqlitePath := filepath.Join(t.TempDir(), "examsim.db")
	a := &classApp{App: webtest.Start(t, webtest.WithDatabase(sqlitePath)), t: t}
	ines := a.account("ines", examsim.RoleInstructor)
	lena := a.account("lena", examsim.RoleLearner)

	// A teacher's own question.
	if p := ines.post("/class/questions/new", "/class/questions", editorForm("A tool answers `429` with Retry-After: 30.")); p.status != http.StatusSeeOther {
		t.Fatalf("saving a teacher's question: %d %s", p.status, p.text("[data-testid=form-error]"))
	}

	// A classroom run lena plays, to the podium.
	run, code := a.startRun(ines, "optional")
	if p := lena.post("/join?code="+code, "/join", url.Values{"code": {code}, "nickname": {"Lena"}, "lang": {"pl"}}); p.status != http.StatusSeeOther {
		t.Fatalf("lena joins: %d", p.status)
	}
	for i, qid := range classQuestions {
		control(t, ines, run, "next", i-1)
		q, _ := a.Bank.Question(qid)
		choice := q.Answer
		if i == 1 {
			choice = wrongOption(a, qid)
		}
		if p := answer(t, lena, run, i, choice, "Błąd walidacji: agent może poprawić dane wejściowe, ponowienie nie pomoże."); p.status != http.StatusOK {
			t.Fatalf("lena's class answer %d: %d %s", i, p.status, p.body)
		}
		control(t, ines, run, "reveal", i)
	}
	control(t, ines, run, "next", len(classQuestions)-1)

	// Practice with explanations; one is flagged and regraded.
	attempt, id := practise(t, lena, "malformed-order-id", "B", "Coś z identyfikatorem, ponowienie nie pomoże")
	practise(t, lena, "empty-result-retry-loop", "A", "Pusty wynik to poprawna odpowiedź, nie błąd dostępu.")
	if p := lena.post(attempt, attempt+"/flag", url.Values{"comment": {"Przecież to błąd walidacji"}}); p.status != http.StatusSeeOther {
		t.Fatalf("flag: %d", p.status)
	}
	grading := "/class/grading/attempt/" + id
	if p := ines.post(grading, grading, url.Values{"band": {"3"}}); p.status != http.StatusSeeOther {
		t.Fatalf("regrade: %d %s", p.status, p.text("[data-testid=form-error]"))
	}

	// An exam, answered in part and submitted.
	exam := startExam(t, lena, url.Values{"count": {"3"}})
	if p := lena.post(exam+"/q/1", exam+"/q/1", url.Values{"choice": {"A"}, "explanation": {"Ponowienie po czasie z Retry-After."}}); p.status != http.StatusSeeOther {
		t.Fatalf("exam answer: %d", p.status)
	}
	if p := lena.post(exam+"/review", exam+"/submit", url.Values{}); p.status != http.StatusSeeOther {
		t.Fatalf("exam submit: %d", p.status)
	}

	// Review: the cards come due, and a session starts.
	a.Clock.Advance(72 * time.Hour)
	if p := lena.post("/review", "/review/start", url.Values{"mode": {"review"}}); p.header.Get("Location") != "/review/session" {
		t.Fatalf("starting a review session went to %q", p.header.Get("Location"))
	}

	// migrate-db's copy, into a fresh PostgreSQL database.
	pgURL := pgtest.URL(t)
	dst, err := store.Open(ctx, pgURL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.CopyToPostgres(ctx, a.DB, dst); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	// Both served afresh, as after a restart: a live room's activity log,
	// kept in memory only, is not the database's to carry.
	servedFrom := func(path string) func(c *client) *client {
		app := webtest.Start(t, webtest.WithDatabase(path))
		app.Clock.Advance(a.Clock.Now().Sub(app.Clock.Now()))                                 // one moment on both
		return func(c *client) *client { return &client{tb: t, base: app.URL, http: c.http} } // the same cookies: the key moved too
	}
	onA, onB := servedFrom(sqlitePath), servedFrom(pgURL)

	runID := strings.TrimPrefix(run, "/class/s/")
	pages := []struct {
		who   string
		c     *client
		paths []string
	}{
		{"lena", lena, []string{"/", "/me", "/me/history.csv", "/me/history.json", attempt, "/practice", "/review", "/review/session",
			exam + "/results", "/exam", run + "/play"}},
		{"ines", ines, []string{"/class", run + "/host", run + "/results", run + "/results.csv", "/class/grading", grading,
			"/class/items", "/class/questions", "/class/questions/rate-limited-lookup", "/class/questions/rate-limited-lookup/preview",
			"/class/quizzes/" + quizIDOf(t, a, runID), "/me"}},
	}
	for _, who := range pages {
		for _, path := range who.paths {
			pa, pb := onA(who.c).get(path), onB(who.c).get(path)
			if pa.status != http.StatusOK {
				t.Errorf("%s %s on SQLite: status %d, want a page to compare", who.who, path, pa.status)
				continue
			}
			if pb.status != pa.status {
				t.Errorf("%s %s: status %d on PostgreSQL, %d on SQLite", who.who, path, pb.status, pa.status)
				continue
			}
			if diff := cmp.Diff(comparable(pa.body), comparable(pb.body)); diff != "" {
				t.Errorf("%s %s differs after migrate-db (-SQLite +PostgreSQL):\n%s", who.who, path, diff)
			}
		}
	}
}

// perResponse is what differs between any two responses of one server:
// the CSP nonce and the masked CSRF token.
var perResponse = regexp.MustCompile(`(nonce|_csrf" value|data-csrf|csrf-token" content)="[^"]*"`)

// comparable is a page with its per-response values blanked, as lines, so
// a difference shows where it is.
func comparable(body string) []string {
	return strings.Split(perResponse.ReplaceAllString(body, `$1="…"`), "\n")
}

// quizIDOf is the id of the quiz a run was started from.
func quizIDOf(t *testing.T, a *classApp, runID string) string {
	t.Helper()
	id, _ := strconv.ParseInt(runID, 10, 64)
	run, err := store.NewClassroomService(a.DB).FindRun(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return strconv.FormatInt(run.Quiz.ID, 10)
}
