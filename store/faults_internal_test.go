package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"

	"github.com/examsim/examsim"
)

// TestReadOnlyFileIsUnavailable writes through a connection SQLite opened
// read-only (mode=ro), the error a server gets when its database cannot be
// written, and checks that it reaches users as storage_readonly: transient,
// worth retrying once the operator has fixed it.
func TestReadOnlyFileIsUnavailable(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ro.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ro, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	_, err = ro.ExecContext(ctx, `INSERT INTO learners (created_at) VALUES ('2026-01-01T00:00:00Z')`)
	if err == nil {
		t.Fatal("a write through a read-only connection succeeded")
	}
	var e *examsim.Error
	mapped := dbError(err)
	if !errors.As(mapped, &e) || e.Code != examsim.EUNAVAILABLE || e.MessageID != "error.storage_readonly" || !e.Code.Retryable() {
		t.Errorf("dbError(%v) = %#v; want EUNAVAILABLE error.storage_readonly", err, mapped)
	}
}
