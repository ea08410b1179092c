//go:build unix

package store_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/examsim/examsim/store"
)

// TestLockForServingNamesTheHolderThroughAHardLink: a second server reaching
// the database through a hard link (whose lock file would be another name)
// is told the holder's pid all the same.
func TestLockForServingNamesTheHolderThroughAHardLink(t *testing.T) {
	dir := t.TempDir()
	path, hardlink := filepath.Join(dir, "examsim.db"), filepath.Join(dir, "hardlink.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
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
	_, err = store.LockForServing(hardlink)
	var inUse *store.InUseError
	if !errors.As(err, &inUse) || inUse.PID != os.Getpid() || !strings.Contains(err.Error(), "pid") {
		t.Errorf("through a hard link: %v; want the holder's pid %d named", err, os.Getpid())
	}
}

// TestLockFileIsNotFollowed: a symlink planted at DB.lock (by whoever owns
// the folder) is not followed when the pid is written, so a server run as
// root cannot be made to overwrite another file; nor is a lock file that is
// not a regular file used.
func TestLockFileIsNotFollowed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "examsim.db")
	victim := filepath.Join(dir, "passwd")
	if err := os.WriteFile(victim, []byte("root:x:0:0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, path+".lock"); err != nil {
		t.Fatal(err)
	}
	release, err := store.LockForServing(path)
	if err != nil {
		t.Fatalf("a planted lock file should cost only the pid, not the start: %v", err)
	}
	defer release()
	if b, _ := os.ReadFile(victim); string(b) != "root:x:0:0\n" {
		t.Errorf("the file the symlink pointed at was overwritten: %q", b)
	}
	fifo := filepath.Join(t.TempDir(), "other.db")
	if err := syscall.Mkfifo(fifo+".lock", 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		rel, err := store.LockForServing(fifo)
		if err == nil {
			rel()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("a FIFO at the lock file: %v", err)
		}
	case <-time.After(10 * time.Second): // a guard against a hang, not a timed assertion
		t.Fatal("LockForServing blocked opening a FIFO planted at the lock file")
	}
}
