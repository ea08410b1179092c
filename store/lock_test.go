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

// TestLockForServingThroughALink: the lock is the database file's own, so a
// second server reaching the same file through a symlink or a hard link is
// refused as well.
func TestLockForServingThroughALink(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "examsim.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	symlink, hardlink := filepath.Join(dir, "symlink.db"), filepath.Join(dir, "hardlink.db")
	if err := os.Symlink(path, symlink); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(path, hardlink); err != nil {
		t.Fatal(err)
	}
	release, err := store.LockForServing(path)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	for _, other := range []string{symlink, hardlink} {
		var inUse *store.InUseError
		if _, err := store.LockForServing(other); !errors.As(err, &inUse) {
			t.Errorf("a second server through %s: %v, want an InUseError", filepath.Base(other), err)
		}
	}
}

// TestReadOnlyFilesDoNotBlockServing: a read-only (here immutable) lock
// file or database file does not stop serve from starting: reads go on,
// as README's Reliability section promises, and writes get storage_readonly.
func TestReadOnlyFilesDoNotBlockServing(t *testing.T) {
	for _, readOnly := range []string{"examsim.db.lock", "examsim.db"} {
		t.Run(readOnly, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "examsim.db")
			for _, name := range []string{"examsim.db", "examsim.db.lock"} {
				if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			setWritable(t, filepath.Join(dir, readOnly), false)
			t.Cleanup(func() { setWritable(t, filepath.Join(dir, readOnly), true) })
			release, err := store.LockForServing(path)
			if err != nil {
				t.Fatalf("with %s read-only: %v, want the lock", readOnly, err)
			}
			if err := release(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
