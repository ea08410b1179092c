package store

import (
	"context"
	"errors"
	"fmt"
	"os"
)

// createPrivate makes an empty database file at path, readable by its owner
// only, when none is there: it holds password hashes, and SQLite would make
// it 0644 (and its -wal and -shm files, which copy its mode). An existing
// file is left as it is.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600) // #nosec G304 -- the operator's own --db path
	if errors.Is(err, os.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// ErrNoDatabase is OpenExisting's error for a path with no database.
var ErrNoDatabase = errors.New("no database there")

// OpenExisting opens the database at path like Open, for commands that only
// read or update one: a mistyped path is refused rather than made into a
// new, empty database.
func OpenExisting(ctx context.Context, path string) (*DB, error) {
	if path != ":memory:" && !IsPostgresURL(path) { // a PostgreSQL database is made by its server, not here
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("store: %s: %w: check the path (--db or EXAMSIM_DB); this command does not create a database", path, ErrNoDatabase)
		}
	}
	return Open(ctx, path)
}
