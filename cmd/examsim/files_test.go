package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandsCreateTheDatabasePrivate: every command that creates a
// database makes it readable by its owner only (it holds password hashes),
// whatever the umask.
func TestCommandsCreateTheDatabasePrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.db")
	if code, _, errOut := runCmd(t, "s3cret-pass\n", "user", "add", "prof_anna", "--db", path); code != 0 {
		t.Fatalf("user add: exit %d: %s", code, errOut)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(p)
		if err != nil {
			continue // -wal and -shm go with the last connection
		}
		if mode := fi.Mode().Perm(); mode != 0o600 {
			t.Errorf("%s has mode %v; want -rw------- (0600)", filepath.Base(p), mode)
		}
	}
}

// TestCommandsRefuseAMissingDatabase: a command that only reads or updates
// a database refuses a mistyped path, naming it, instead of making an
// empty database and reporting success on it.
func TestCommandsRefuseAMissingDatabase(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "exmasim.db")
	for _, args := range [][]string{
		{"rescore", "--db", missing},
		{"questions", "stats", "--db", missing},
		{"scoring", "export", "--db", missing, "--out", filepath.Join(dir, "out")},
	} {
		code, out, errOut := runCmd(t, "", args...)
		if code != 1 || !strings.Contains(errOut, missing) || !strings.Contains(errOut, "no database") {
			t.Errorf("%s with a missing database: exit %d, %q %q; want exit 1 naming the path", args[0], code, out, errOut)
		}
		if _, err := os.Stat(missing); err == nil {
			t.Fatalf("%s created %s", args[0], missing)
		}
	}
}
