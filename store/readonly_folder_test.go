package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/examsim/examsim/store"
)

// TestReadOnlyFolderAfterACleanStop: a clean stop removes the -wal and -shm
// files; with the folder then read-only, SQLite cannot make them again.
// The database still opens, reads go on, writes get storage_readonly, and
// once the folder is writable again writes succeed with no restart.
func TestReadOnlyFolderAfterACleanStop(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "examsim.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	first, err := store.NewLearnerService(db).CreateAnonymous(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Secret(ctx, "cookie"); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil { // a clean stop: -wal and -shm are gone
		t.Fatal(err)
	}

	setWritable(t, dir, false)
	db, err = store.Open(ctx, path)
	if err != nil {
		t.Fatalf("opening the database in a read-only folder after a clean stop: %v", err)
	}
	defer db.Close()
	if _, err := db.Secret(ctx, "cookie"); err != nil {
		t.Errorf("reading the cookie key: %v", err)
	}
	ls := store.NewLearnerService(db)
	if l, err := ls.FindLearner(ctx, first.ID); err != nil || l.ID != first.ID {
		t.Errorf("reading a learner: %+v %v", l, err)
	}
	_, err = ls.CreateAnonymous(ctx)
	wantStorageError(t, err, "error.storage_readonly")

	setWritable(t, dir, true)
	if _, err := ls.CreateAnonymous(ctx); err != nil {
		t.Fatalf("a write after the folder became writable: %v", err)
	}
}
