package store

import (
	"context"
	"database/sql"
	"errors"
	"math"

	"github.com/mattn/go-sqlite3"
)

// dialect is what differs between the two databases examsim stores in. The
// services share their SQL; the few differences live here, named.
type dialect struct {
	name string
	// migrations is the glob of the dialect's numbered migrations.
	migrations string
	// abortsOnError: PostgreSQL aborts a whole transaction when one of its
	// statements fails; SQLite backs out that statement alone. Where a
	// statement may fail and the transaction go on, PostgreSQL needs a
	// savepoint around it (see alone).
	abortsOnError bool
	// execHops: mattn's SQLite driver runs each statement given a context
	// that can be cancelled on a goroutine of its own and waits for it, so
	// under load every statement of a transaction queues twice for a CPU.
	execHops bool
}

var (
	sqlite   = &dialect{name: "sqlite", migrations: "migrations/*.sql", execHops: true}
	postgres = &dialect{name: "postgres", migrations: "migrations/postgres/*.sql", abortsOnError: true}
)

// Dialect names the database db stores in: "sqlite" or "postgres".
func (db *DB) Dialect() string { return db.dialect.name }

// alone runs fn, one statement of tx, so that its failure undoes only what
// fn did and tx goes on, as SQLite does by itself.
func (db *DB) alone(ctx context.Context, tx *sql.Tx, fn func() error) error {
	if !db.dialect.abortsOnError {
		return fn()
	}
	if _, err := tx.ExecContext(ctx, `SAVEPOINT alone`); err != nil {
		return err
	}
	if err := fn(); err != nil {
		if _, rerr := tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT alone`); rerr != nil {
			return errors.Join(err, rerr)
		}
		return err
	}
	_, err := tx.ExecContext(ctx, `RELEASE SAVEPOINT alone`)
	return err
}

// batchContext is the context a group commit writes under. Where each
// statement would otherwise hop goroutines (execHops) the batch is not
// cancelled midway: a SQLite write's wait is bounded by its busy timeout,
// and a commit once begun is worth finishing for those who wait on it.
func (db *DB) batchContext(ctx context.Context) context.Context {
	if db.dialect.execHops {
		return context.WithoutCancel(ctx)
	}
	return ctx
}

// errKind is what a driver error means to examsim, whichever the database.
type errKind int

const (
	kindUnique errKind = iota + 1
	kindForeignKey
	kindConstraint // another constraint: a check, a NOT NULL
	kindBusy       // locked, restarting, unreachable: worth a retry
	kindFull
	kindReadOnly
	kindIO
)

// kindOf classifies a SQLite or PostgreSQL error; ok is false for any other.
func kindOf(err error) (errKind, bool) {
	if err == nil {
		return 0, false
	}
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch {
		case se.ExtendedCode == sqlite3.ErrConstraintUnique:
			return kindUnique, true
		case se.ExtendedCode == sqlite3.ErrConstraintForeignKey:
			return kindForeignKey, true
		case se.Code == sqlite3.ErrConstraint:
			return kindConstraint, true
		case se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked:
			return kindBusy, true
		case se.Code == sqlite3.ErrFull:
			return kindFull, true
		case se.Code == sqlite3.ErrReadonly:
			return kindReadOnly, true
		case se.Code == sqlite3.ErrIoErr:
			return kindIO, true
		}
		return 0, false
	}
	return pgErrorKind(err)
}

func isUnique(err error) bool {
	k, ok := kindOf(err)
	return ok && k == kindUnique
}

// isConstraint reports a row refused by a constraint, such as a foreign key
// to a deleted room: only that statement is undone.
func isConstraint(err error) bool {
	k, ok := kindOf(err)
	return ok && (k == kindUnique || k == kindForeignKey || k == kindConstraint)
}

// isForeignKey reports a row refused for a foreign key: its room or player
// was deleted, so the quiz is not running any more.
func isForeignKey(err error) bool {
	k, ok := kindOf(err)
	return ok && k == kindForeignKey
}

// limitArg is a LIMIT's argument: a negative limit is no limit, as SQLite
// reads LIMIT -1, where PostgreSQL would refuse it.
func limitArg(limit int) int64 {
	if limit < 0 {
		return math.MaxInt64
	}
	return int64(limit)
}
