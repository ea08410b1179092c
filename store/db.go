// Package store owns persistence: the one place that opens the database,
// SQLite (a file, the default) or PostgreSQL (a postgres:// URL, for more
// than one instance), with each dialect's numbered migrations, and the
// implementations of the domain's services. The services write one SQL text
// for both; what differs is named in dialect.go and postgres.go.
package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/examsim/examsim/internal/namekey"
)

//go:embed migrations/*.sql migrations/postgres/*.sql
var migrations embed.FS

// DB is the application's database.
type DB struct {
	db      *sql.DB
	dialect *dialect
	now     func() time.Time
	memory  bool // one connection only, or each would see its own database
	// passwords hashes and checks passwords, at a cost tests may lower.
	passwords passwordHasher
}

// newDB wraps an open database of dialect d.
func newDB(sqlDB *sql.DB, d *dialect) *DB {
	return &DB{db: sqlDB, dialect: d, now: func() time.Time { return time.Now().UTC() }}
}

// Open opens (creating if needed) and migrates the database at path: a
// SQLite file, or a PostgreSQL database when path is a postgres:// URL.
// ":memory:" gives a private in-memory SQLite database, for tests.
//
// WAL lets readers run beside the writer; the busy timeout lets a writer
// wait for another instead of failing.
//
// Durability: synchronous=FULL, chosen so that examsim never loses an answer
// it has acknowledged. Handlers acknowledge only after the commit returned,
// and with FULL SQLite fsyncs the WAL at every commit, so a committed
// transaction survives the process being killed, the OS crashing and the
// power going. NORMAL would fsync only at checkpoints: it survives a killed
// process but may lose the last commits to a power cut (never corrupting
// the file). cmd/examsim's crash test SIGKILLs a server mid-burst and checks
// every acknowledged answer and PRAGMA integrity_check; store's tests check
// that every connection runs with FULL.
func Open(ctx context.Context, path string) (*DB, error) {
	if IsPostgresURL(path) {
		return openPostgres(ctx, path)
	}
	q := url.Values{}
	q.Set("_foreign_keys", "on")
	q.Set("_busy_timeout", "5000")
	q.Set("_synchronous", "FULL")
	q.Set("_txlock", "immediate")
	// A private in-memory database has no journal to speak of; a file gets WAL.
	dsn := "file::memory:?" + q.Encode()
	if path != ":memory:" {
		q.Set("_journal_mode", "WAL")
		if err := createPrivate(path); err != nil {
			return nil, fmt.Errorf("store: create %s: %w", path, err)
		}
		var err error
		if dsn, err = fileURI(path, q); err != nil {
			return nil, fmt.Errorf("store: open %s: %w", path, err)
		}
	}
	sqlDB, err := sql.Open(driverName, dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if path == ":memory:" {
		sqlDB.SetMaxOpenConns(1) // one connection, or each would see its own empty database
	}
	db := newDB(sqlDB, sqlite)
	db.memory = path == ":memory:"
	if err := sqlDB.PingContext(ctx); err != nil {
		_ = sqlDB.Close() // the open's error is the one to report
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if err := db.migrate(ctx); err != nil {
		_ = sqlDB.Close() // the migration's error is the one to report
		return nil, err
	}
	return db, nil
}

// fileURI makes the SQLite URI of a database file with parameters q. The
// path is a path, whatever characters it has: escaped, a "?" in it does not
// start parameters, a "#" a fragment, nor a "%" an escape. It is made
// absolute, so a name starting with "//" is not read as a host either.
func fileURI(path string, q url.Values) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return "file:" + (&url.URL{Path: filepath.ToSlash(abs)}).EscapedPath() + "?" + q.Encode(), nil
}

// Close closes the database.
func (db *DB) Close() error { return db.db.Close() }

// Ping checks that the database answers.
func (db *DB) Ping(ctx context.Context) error { return db.db.PingContext(ctx) }

// migrate applies each embedded migration of the dialect not yet recorded,
// in name order, each in its own transaction together with its record.
func (db *DB) migrate(ctx context.Context) error {
	if db.dialect == postgres {
		return db.migrateLocked(ctx)
	}
	return db.migrateAll(ctx)
}

func (db *DB) migrateAll(ctx context.Context) error {
	if _, err := db.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("store: migrations table: %w", err)
	}
	names, err := fs.Glob(migrations, db.dialect.migrations)
	if err != nil {
		return err
	}
	sort.Strings(names)
	if err := db.checkNotNewer(ctx, names); err != nil {
		return err
	}
	for _, name := range names {
		if err := db.migrateFile(ctx, name); err != nil {
			return fmt.Errorf("store: migration %s: %w", name, err)
		}
	}
	if err := db.refoldUsernameKeys(ctx); err != nil {
		return err
	}
	return db.fillUsernameKeys(ctx)
}

// refoldUsernameKeys recomputes every saved username key when they were
// made by another version of namekey.Of, in one transaction. As in
// fillUsernameKeys, of two accounts that now fold alike the older keeps
// the key and the other keeps none (and goes on working).
func (db *DB) refoldUsernameKeys(ctx context.Context) error {
	var version int
	if err := db.db.QueryRowContext(ctx, `SELECT version FROM name_key_version`).Scan(&version); err != nil {
		return fmt.Errorf("store: username key version: %w", err)
	}
	if version == namekey.Version {
		return nil
	}
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: refolding username keys: %w", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT id, username FROM learners WHERE username IS NOT NULL ORDER BY id`)
	if err != nil {
		return fmt.Errorf("store: refolding username keys: %w", err)
	}
	keys := map[int64]string{}
	var ids []int64
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			_ = rows.Close() // the scan error is the one to report
			return fmt.Errorf("store: refolding username keys: %w", err)
		}
		ids = append(ids, id)
		keys[id] = namekey.Of(name)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return fmt.Errorf("store: refolding username keys: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE learners SET username_key = NULL`); err != nil {
		return fmt.Errorf("store: refolding username keys: %w", err)
	}
	for _, id := range ids {
		err := db.alone(ctx, tx, func() error {
			_, err := tx.ExecContext(ctx, `UPDATE learners SET username_key = ? WHERE id = ?`, keys[id], id)
			return err
		})
		if err != nil && !isUnique(err) {
			return fmt.Errorf("store: username key of account %d: %w", id, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE name_key_version SET version = ?`, namekey.Version); err != nil {
		return fmt.Errorf("store: username key version: %w", err)
	}
	return tx.Commit()
}

// fillUsernameKeys gives every account made before migration 006 its
// username key. One whose key is taken by another account keeps none: it
// goes on working, and no new account can take a name like it. It is a
// no-op (one indexed query) once every account has a key.
func (db *DB) fillUsernameKeys(ctx context.Context) error {
	rows, err := db.db.QueryContext(ctx, `SELECT id, username FROM learners WHERE username IS NOT NULL AND username_key IS NULL`)
	if err != nil {
		return fmt.Errorf("store: username keys: %w", err)
	}
	type account struct {
		id   int64
		name string
	}
	var todo []account
	for rows.Next() {
		var a account
		if err := rows.Scan(&a.id, &a.name); err != nil {
			_ = rows.Close() // the scan error is the one to report
			return fmt.Errorf("store: username keys: %w", err)
		}
		todo = append(todo, a)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return fmt.Errorf("store: username keys: %w", err)
	}
	for _, a := range todo {
		_, err := db.db.ExecContext(ctx, `UPDATE learners SET username_key = ? WHERE id = ?`, namekey.Of(a.name), a.id)
		if err != nil && !isUnique(err) {
			return fmt.Errorf("store: username key of account %d: %w", a.id, err)
		}
	}
	return nil
}

func (db *DB) migrateFile(ctx context.Context, name string) error {
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM migrations WHERE name = ?`, name).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	body, err := fs.ReadFile(migrations, name)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, string(body)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO migrations (name, applied_at) VALUES (?, ?)`, name, db.now().Format(time.RFC3339)); err != nil {
		return err
	}
	return tx.Commit()
}

// Secret returns the named random secret, making it on first use, so cookies
// signed before a restart stay valid after it.
func (db *DB) Secret(ctx context.Context, name string) ([]byte, error) {
	var v []byte
	err := db.db.QueryRowContext(ctx, `SELECT value FROM secrets WHERE name = ?`, name).Scan(&v)
	if err == nil {
		return v, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("store: secret %s: %w", name, err)
	}
	v = make([]byte, 32)
	rand.Read(v)
	if _, err := db.db.ExecContext(ctx, `INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`, name, v); err != nil {
		return nil, fmt.Errorf("store: secret %s: %w", name, err)
	}
	// Another process may have won the race; read back whichever is stored.
	if err := db.db.QueryRowContext(ctx, `SELECT value FROM secrets WHERE name = ?`, name).Scan(&v); err != nil {
		return nil, fmt.Errorf("store: secret %s: %w", name, err)
	}
	return v, nil
}

// migrationsLock is the key of the PostgreSQL advisory lock that instances
// starting together take in turn, so that one of them migrates and the
// others find the work done.
const migrationsLock = 0x6578616d73696d // "examsim"

// migrateLocked migrates under pg_advisory_lock, held on one connection for
// the whole migration.
func (db *DB) migrateLocked(ctx context.Context) (err error) {
	conn, err := db.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("store: migrations: %w", connectError(err))
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(?)`, migrationsLock); err != nil {
		return fmt.Errorf("store: waiting for the migrations lock: %w", err)
	}
	defer func() {
		// A lock left behind goes with its connection; unlock on a fresh context.
		if _, uerr := conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(?)`, migrationsLock); uerr != nil {
			err = errors.Join(err, fmt.Errorf("store: releasing the migrations lock: %w", uerr))
		}
	}()
	return db.migrateAll(ctx)
}

// SchemaTooNewError is a database that a newer examsim has migrated: this
// one would not know its tables.
type SchemaTooNewError struct{ Unknown []string }

func (e *SchemaTooNewError) Error() string {
	return fmt.Sprintf("store: the database was migrated by a newer examsim (migrations %s are unknown to this one); run the newer examsim, or restore a backup made before it",
		strings.Join(e.Unknown, ", "))
}

// checkNotNewer refuses a database with migrations this binary lacks.
// Only PostgreSQL is checked: its instances upgrade one at a time, and an
// old one must not write into a newer schema.
func (db *DB) checkNotNewer(ctx context.Context, names []string) error {
	if db.dialect != postgres {
		return nil
	}
	known := map[string]bool{}
	for _, n := range names {
		known[n] = true
	}
	rows, err := db.db.QueryContext(ctx, `SELECT name FROM migrations ORDER BY name`)
	if err != nil {
		return fmt.Errorf("store: migrations: %w", err)
	}
	defer rows.Close()
	var unknown []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return fmt.Errorf("store: migrations: %w", err)
		}
		if !known[n] {
			unknown = append(unknown, n)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: migrations: %w", err)
	}
	if unknown != nil {
		return &SchemaTooNewError{Unknown: unknown}
	}
	return nil
}
