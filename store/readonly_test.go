package store_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/examsim/examsim/store"
)

// setWritable makes a file read-only or writable again, as an operator's
// chmod would. Root ignores file modes, so for root the file is made
// immutable (chattr +i) instead: then even root's writes fail, with the
// EPERM a read-only file system gives.
func setWritable(t *testing.T, path string, writable bool) {
	t.Helper()
	if os.Geteuid() == 0 {
		flag := "-i"
		if !writable {
			flag = "+i"
			t.Cleanup(func() { _ = exec.Command("chattr", "-i", path).Run() })
		}
		if out, err := exec.Command("chattr", flag, path).CombinedOutput(); err != nil {
			t.Skipf("running as root, and chattr %s cannot make the database read-only here: %v %s", flag, err, out)
		}
		return
	}
	mode := os.FileMode(0o444)
	if writable {
		mode = 0o644
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// TestReadOnlyStartRecovers starts on a database whose file is really
// read-only (its folder is not, so SQLite can make the -wal and -shm files
// it needs to read a WAL database): writes fail with storage_readonly, and once the files are
// writable again they succeed without reopening the database (README:
// writes recover with no restart).
func TestReadOnlyStartRecovers(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "examsim.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.NewLearnerService(db).CreateAnonymous(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	setWritable(t, path, false)
	db, err = store.Open(ctx, path)
	if err != nil {
		t.Fatalf("opening a read-only database to read it: %v", err)
	}
	defer db.Close()
	ls := store.NewLearnerService(db)
	for i := 0; i < 3; i++ { // on more than one connection of the pool
		_, err := ls.CreateAnonymous(ctx)
		wantStorageError(t, err, "error.storage_readonly")
	}

	setWritable(t, path, true)
	for i := 0; i < 5; i++ {
		if _, err := ls.CreateAnonymous(ctx); err != nil {
			t.Fatalf("write %d after the files became writable: %v", i, err)
		}
	}
}
