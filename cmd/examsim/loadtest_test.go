package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web/webtest"
)

// TestLoadtestSmall runs the load generator against a real server in this
// process at a small size, so it cannot rot: every answer is acknowledged
// and none is lost. Speed is not checked here; BENCHMARKS.md keeps that.
func TestLoadtestSmall(t *testing.T) {
	app := webtest.Start(t)
	if _, err := store.NewLearnerService(app.DB).CreateAccount(context.Background(), "loadteacher", "load-pass-1", examsim.RoleInstructor); err != nil {
		t.Fatal(err)
	}
	res, err := loadTest(context.Background(), loadConfig{URL: app.URL, Instructor: "loadteacher", Password: "load-pass-1",
		Students: 50, Rooms: 1, Questions: 2, Think: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(res)
	if res.Students != 50 || res.Answers != 100 || res.Acked != 100 || res.Lost != 0 {
		t.Errorf("result = %s; want 50 students, 100 answers, all acknowledged, none lost", res)
	}
	if res.RSSMB <= 0 {
		t.Errorf("the server's memory was not read from /metrics: %s", res)
	}
	for _, field := range []string{"students=", "answers=", "acked=", "lost=", "p50_submit_ms=", "p99_submit_ms=", "p99_fanout_ms=", "rss_mb="} {
		if !strings.Contains(res.String(), field) {
			t.Errorf("the summary line lacks %s: %s", field, res)
		}
	}
}

func TestLoadtestNeedsPassword(t *testing.T) {
	t.Setenv("EXAMSIM_LOADTEST_PASSWORD", "")
	code, _, errOut := runCmd(t, "", "loadtest", "--instructor", "x")
	if code != 2 || !strings.Contains(errOut, "EXAMSIM_LOADTEST_PASSWORD") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// TestUserAdd adds accounts from the shell, the password from stdin, never
// from a flag, while another connection (a running server) has the
// database open.
func TestUserAdd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "users.db")
	db, err := store.Open(context.Background(), path) // the "server"
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	code, out, errOut := runCmd(t, "s3cret-pass\n", "user", "add", "prof_anna", "--role", "instructor", "--db", path)
	if code != 0 || !strings.Contains(out, "prof_anna (instructor") {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	l, err := store.NewLearnerService(db).Authenticate(context.Background(), "prof_anna", "s3cret-pass")
	if err != nil || l.Role != examsim.RoleInstructor {
		t.Errorf("the account = %+v, %v", l, err)
	}
	if code, _, errOut := runCmd(t, "s3cret-pass\n", "user", "add", "prof_anna", "--db", path); code != 1 || !strings.Contains(errOut, "taken") {
		t.Errorf("a taken name: exit %d %s", code, errOut)
	}
	if code, _, _ := runCmd(t, "s3cret-pass\n", "user", "add", "x1", "--role", "king", "--db", path); code != 2 {
		t.Errorf("an unknown role: exit %d", code)
	}
	if code, _, errOut := runCmd(t, "", "user", "add", "nopass", "--db", path); code != 1 || !strings.Contains(errOut, "password") {
		t.Errorf("no password: exit %d %s", code, errOut)
	}
	if _, err := os.Stat(path + "-wal"); err != nil {
		t.Logf("no WAL file (%v); the server and the command shared the database anyway", err)
	}
}
