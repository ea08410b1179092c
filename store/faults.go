package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/examsim/examsim"
)

// storageError maps the SQLite errors that blame the storage, not the
// request, to EUNAVAILABLE: the write was rolled back whole, so nothing was
// acknowledged and nothing saved earlier is touched, and the same request
// succeeds once the operator has fixed the disk; SQLite needs no restart.
// Detail, which goes to the log, tells the operator what to do.
func storageError(kind errKind, err error) error {
	if isPostgresError(err) {
		return pgStorageError(kind, err)
	}
	switch kind {
	case kindFull:
		return &examsim.Error{Code: examsim.EUNAVAILABLE, MessageID: "error.storage_full",
			Detail: err.Error() + "; free space on the database's disk: writes resume by themselves"}
	case kindReadOnly:
		return &examsim.Error{Code: examsim.EUNAVAILABLE, MessageID: "error.storage_readonly",
			Detail: err.Error() + "; make the database file, its folder and its -wal and -shm files writable by the server, or remount the disk read-write"}
	}
	return &examsim.Error{Code: examsim.EUNAVAILABLE, MessageID: "error.unavailable",
		Detail: err.Error() + "; the disk under the database failed a read or write: check the system log"}
}

// IntegrityCheck runs PRAGMA integrity_check and returns nil when SQLite
// finds the database whole, or what it found wrong.
// On PostgreSQL, which has no such check without an extension (amcheck),
// it only checks that the database answers.
func (db *DB) IntegrityCheck(ctx context.Context) error {
	if db.dialect == postgres {
		return db.Ping(ctx)
	}
	return integrityCheck(ctx, db.db)
}

func integrityCheck(ctx context.Context, q interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}) error {
	var verdict string
	if err := q.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&verdict); err != nil {
		return fmt.Errorf("store: integrity check: %w", err)
	}
	if verdict != "ok" {
		return fmt.Errorf("store: integrity check: %s", verdict)
	}
	return nil
}

// Storage faults, for tests: a full disk and a read-only database, produced
// by SQLite itself rather than faked, so the tests see the errors a server
// would. Both settings belong to a connection, so while one is on every
// statement runs on a single connection of the pool.

// LimitPages caps the database at its current size plus extra pages, as a
// disk with that much room left would: a write that needs more fails with
// SQLITE_FULL. LimitPages(ctx, -1) lifts the cap.
func (db *DB) LimitPages(ctx context.Context, extra int64) error {
	if extra < 0 {
		return db.unpin(ctx, `PRAGMA max_page_count = 4294967294`)
	}
	if err := db.pin(ctx); err != nil {
		return err
	}
	var pages int64
	if err := db.db.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
		return fmt.Errorf("store: page count: %w", err)
	}
	// A pragma takes no bound parameters; the value is an integer we computed.
	if _, err := db.db.ExecContext(ctx, fmt.Sprintf(`PRAGMA max_page_count = %d`, pages+extra)); err != nil { // #nosec G201 -- an integer, not input
		return fmt.Errorf("store: limit pages: %w", err)
	}
	return nil
}

// SetQueryOnly refuses (on) or allows (off) every write, as a database that
// became read-only would: a write fails with SQLITE_READONLY.
func (db *DB) SetQueryOnly(ctx context.Context, on bool) error {
	if !on {
		return db.unpin(ctx, `PRAGMA query_only = OFF`)
	}
	if err := db.pin(ctx); err != nil {
		return err
	}
	if _, err := db.db.ExecContext(ctx, `PRAGMA query_only = ON`); err != nil {
		return fmt.Errorf("store: query only: %w", err)
	}
	return nil
}

// pin shrinks the pool to one connection, closing the others as they come
// back, so a per-connection setting applies to every statement.
func (db *DB) pin(ctx context.Context) error {
	db.db.SetMaxOpenConns(1)
	return db.db.PingContext(ctx)
}

func (db *DB) unpin(ctx context.Context, reset string) error {
	if _, err := db.db.ExecContext(ctx, reset); err != nil {
		return fmt.Errorf("store: %s: %w", reset, err)
	}
	if !db.memory {
		db.db.SetMaxOpenConns(0)
	}
	return nil
}
