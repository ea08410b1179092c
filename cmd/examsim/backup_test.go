package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/examsim/examsim/store"
)

// TestBackupCommand backs up a database that a "server" holds open, then
// checks the command's refusals: an existing file without --force, no file,
// no database.
func TestBackupCommand(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "live.db")
	db, err := store.Open(ctx, path) // the running server
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	learner, err := store.NewLearnerService(db).CreateAnonymous(ctx)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "nightly.db")
	code, out, errOut := runCmd(t, "", "backup", file, "--db", path)
	if code != 0 || !strings.Contains(out, "backed up") || !strings.Contains(out, "integrity ok") {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	copyDB, err := store.Open(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.NewLearnerService(copyDB).FindLearner(ctx, learner.ID); err != nil {
		t.Errorf("the backup lacks the learner: %v", err)
	}
	copyDB.Close()

	before, _ := os.ReadFile(file)
	code, _, errOut = runCmd(t, "", "backup", "--db", path, file)
	if code != 1 || !strings.Contains(errOut, "--force") {
		t.Errorf("an existing file without --force: exit %d %s", code, errOut)
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Error("the refused backup changed the existing file")
	}
	if code, out, errOut := runCmd(t, "", "backup", file, "--db", path, "--force"); code != 0 {
		t.Errorf("--force: exit %d %s%s", code, out, errOut)
	}
	if code, _, _ := runCmd(t, "", "backup", "--db", path); code != 2 {
		t.Errorf("no file: exit %d, want 2", code)
	}
	missing := filepath.Join(dir, "typo.db")
	if code, _, errOut := runCmd(t, "", "backup", filepath.Join(dir, "b.db"), "--db", missing); code != 1 || !strings.Contains(errOut, "no database") {
		t.Errorf("a missing database: exit %d %s", code, errOut)
	}
}
