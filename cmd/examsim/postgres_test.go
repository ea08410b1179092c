package main

import (
	"context"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/examsim/examsim/internal/loadgen"
	"github.com/examsim/examsim/internal/pgtest"
	"github.com/examsim/examsim/store"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// examsim serve --db postgres://...: user add, a login, a practice answer,
// a live room whose answers are stored; backup points to pg_dump. (Many
// instances on one database: TestTwoInstancesOnOneDatabase.)
func TestServeOnPostgres(t *testing.T) {
	url := pgtest.URL(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	const user, password = "pg_teacher", "pg-Test-pass-7421"
	if code, out, errOut := runCmd(t, password+"\n", "user", "add", user, "--role", "instructor", "--db", url); code != 0 {
		t.Fatalf("user add exited %d: %s%s", code, out, errOut)
	}

	srvCtx, stop := context.WithCancel(ctx)
	defer stop()
	out, code := serveInProcess(srvCtx, "--db", url)
	if exited, c := waitServing(t, out, code); exited {
		t.Fatalf("serve exited %d:\n%s", c, out.String())
	}
	m := servingLine.FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no address in:\n%s", out.String())
	}
	base := m[1]

	tr := newTransport()
	defer tr.CloseIdleConnections()
	learner := loadgen.NewVUser(base, tr)
	if id := practiceAnswer(ctx, learner, "drifting-error-dict-keys", "The exit code said success while stderr said it failed, so I checked the output."); id == 0 {
		t.Error("a practice answer was not stored")
	} else if status, _, _, err := learner.Get(ctx, "/attempts/"+strconv.FormatInt(id, 10)); err != nil || status != http.StatusOK {
		t.Errorf("its result page: %d %v", status, err)
	}

	room, err := openRoom(ctx, base, tr, user, password, 2)
	if err != nil {
		t.Fatalf("opening a live room: %v", err)
	}
	class, err := room.joinAll(ctx, base, tr, "pgst", 5)
	if err != nil {
		t.Fatal(err)
	}
	if err := room.control(ctx, "next", -1); err != nil {
		t.Fatal(err)
	}
	for _, st := range class {
		if status, ok := room.answer(ctx, st, 0, "A", "Because the exit code is what the agent reads first."); !ok {
			t.Errorf("%s's answer: status %d", st.nick, status)
		}
	}
	stop()
	if c := <-code; c != 0 {
		t.Errorf("serve exited %d after a stop:\n%s", c, out.String())
	}
	stored, _ := storedAnswers(ctx, t, url, room.ID)
	for _, st := range class {
		if stored[answerKey{st.nick, 0}] == nil {
			t.Errorf("%s's acknowledged answer is not stored", st.nick)
		}
	}

	code2, _, errOut := runCmd(t, "", "backup", "x.dump", "--db", url)
	if code2 != 1 || !strings.Contains(errOut, "pg_dump") {
		t.Errorf("backup of a PostgreSQL database exited %d: %s", code2, errOut)
	}
	if strings.Contains(out.String(), "panic") || strings.Contains(out.String(), "goroutine ") {
		t.Errorf("the server's output has a stack trace:\n%s", out.String())
	}
}

// examsim migrate-db: a SQLite database moves into an empty PostgreSQL one
// and its accounts log in there; a second run into the now full database is
// refused, as is a copy while a server runs on the source.
func TestMigrateDB(t *testing.T) {
	ctx := context.Background()
	from := filepath.Join(t.TempDir(), "examsim.db")
	const password = "mig-Test-pass-7421"
	if code, out, errOut := runCmd(t, password+"\n", "user", "add", "mig_admin", "--role", "admin", "--db", from); code != 0 {
		t.Fatalf("user add exited %d: %s%s", code, out, errOut)
	}
	to := pgtest.URL(t)
	code, out, errOut := runCmd(t, "", "migrate-db", "--from", from, "--to", to)
	if code != 0 || !strings.Contains(out, "learners") || !strings.Contains(out, "1 rows, the same in both") {
		t.Fatalf("migrate-db exited %d:\n%s%s", code, out, errOut)
	}
	db, err := store.Open(ctx, to)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if l, err := store.NewLearnerService(db).Authenticate(ctx, "mig_admin", password); err != nil || l.Role != "admin" {
		t.Errorf("the account after the move: %v %v", l, err)
	}
	code, _, errOut = runCmd(t, "", "migrate-db", "--from", from, "--to", to)
	if code != 1 || !strings.Contains(errOut, "not empty") {
		t.Errorf("a second migrate-db exited %d: %s", code, errOut)
	}

	srvCtx, stop := context.WithCancel(ctx)
	defer stop()
	srvOut, srvCode := serveInProcess(srvCtx, "--db", from)
	if exited, c := waitServing(t, srvOut, srvCode); exited {
		t.Fatalf("serve exited %d:\n%s", c, srvOut.String())
	}
	code, _, errOut = runCmd(t, "", "migrate-db", "--from", from, "--to", pgtest.URL(t))
	if code != 1 || !strings.Contains(errOut, "Stop it first") {
		t.Errorf("migrate-db beside a running server exited %d: %s", code, errOut)
	}
}

// eachDB runs a command's test on a SQLite file and on a PostgreSQL
// database: the same commands, the same assertions.
func eachDB(t *testing.T, test func(t *testing.T, db string)) {
	t.Run("sqlite", func(t *testing.T) { test(t, filepath.Join(t.TempDir(), "examsim.db")) })
	t.Run("postgres", func(t *testing.T) { test(t, pgtest.URL(t)) })
}
