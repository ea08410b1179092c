package store_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/examsim/examsim/store"
)

// TestLockForServing: a second server on the same database is refused,
// saying who holds it; once the first lets go, the next one gets it.
func TestLockForServing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "examsim.db")
	release, err := store.LockForServing(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = store.LockForServing(path)
	var inUse *store.InUseError
	if !errors.As(err, &inUse) {
		t.Fatalf("a second lock on the same database: %v, want an InUseError", err)
	}
	if inUse.PID != os.Getpid() || !strings.Contains(err.Error(), path) {
		t.Errorf("the refusal %q should name the database and the holder's pid %d", err, os.Getpid())
	}
	if other, err := store.LockForServing(filepath.Join(t.TempDir(), "other.db")); err != nil {
		t.Errorf("another database is locked too: %v", err)
	} else {
		_ = other()
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	again, err := store.LockForServing(path)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	_ = again()
}
