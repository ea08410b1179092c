package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
)

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
