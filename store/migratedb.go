package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
)

// copyTables are the tables examsim migrate-db copies, parents before
// children, so every foreign key finds its row. The migrations table is
// each dialect's own, and name_key_version is carried over as a value.
// TestCopyTablesCoverTheSchema fails when a migration adds a table that is
// not listed here.
var copyTables = []string{
	"learners", "secrets", "exams", "attempts", "exam_items", "predictions", "review_cards", "review_settings", "review_sessions",
	"class_quizzes", "class_sessions", "class_players", "class_answers",
	"sessions", "score_flags", "human_grades",
	"authored_questions", "authored_question_versions", "authored_question_samples",
}

// notCopied are the tables of a schema that migrate-db leaves out, and why.
var notCopied = map[string]string{
	"migrations":       "each dialect records its own",
	"name_key_version": "carried over as a value",
	"room_leases":      "PostgreSQL's own: which running instance owns each live room",
}

// TableCount is one copied table and its rows, counted in both databases.
type TableCount struct {
	Table string
	Rows  int64
}

// NotEmptyError is a target database that already holds data: migrate-db
// copies into an empty database only, so nothing there is overwritten or
// mixed with the copy.
type NotEmptyError struct{ Tables []TableCount }

func (e *NotEmptyError) Error() string {
	var parts []string
	for _, t := range e.Tables {
		parts = append(parts, fmt.Sprintf("%s: %d rows", t.Table, t.Rows))
	}
	return fmt.Sprintf("the target database is not empty (%s); migrate-db copies into an empty database only: create a new one (createdb NAME) and pass its URL", strings.Join(parts, ", "))
}

// CopyToPostgres copies every row of the SQLite database src into dst, an
// empty PostgreSQL database, in one transaction: after a failure dst is as
// empty as before, and the copy can simply be run again. Each table's rows
// are counted in both databases before the commit; a difference fails the
// copy. Ids are kept, and each identity continues after the largest.
func CopyToPostgres(ctx context.Context, src, dst *DB) ([]TableCount, error) {
	if src.dialect != sqlite || dst.dialect != postgres {
		return nil, errors.New("store: migrate-db copies from a SQLite database into a PostgreSQL one")
	}
	var nonEmpty []TableCount
	for _, t := range copyTables {
		n, err := countRows(ctx, dst.db, t)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			nonEmpty = append(nonEmpty, TableCount{t, n})
		}
	}
	if nonEmpty != nil {
		return nil, &NotEmptyError{Tables: nonEmpty}
	}
	var counts []TableCount
	conn, err := dst.db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: %w", connectError(err))
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		pc, ok := dc.(*pgConn)
		if !ok {
			return fmt.Errorf("store: unexpected PostgreSQL connection %T", dc)
		}
		tx, err := pc.Conn.Conn().Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // a no-op after the commit
		for _, t := range copyTables {
			n, err := copyTable(ctx, src.db, tx, t)
			if err != nil {
				return fmt.Errorf("copying %s: %w", t, err)
			}
			counts = append(counts, TableCount{t, n})
		}
		var version int
		if err := src.db.QueryRowContext(ctx, `SELECT version FROM name_key_version`).Scan(&version); err != nil {
			return fmt.Errorf("reading name_key_version: %w", err)
		}
		if _, err := tx.Exec(ctx, `UPDATE name_key_version SET version = $1`, version); err != nil {
			return fmt.Errorf("writing name_key_version: %w", err)
		}
		// Check every table's count, in the source and in the copy, before
		// anything is committed.
		for _, c := range counts {
			var got int64
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM `+pgx.Identifier{c.Table}.Sanitize()).Scan(&got); err != nil {
				return err
			}
			want, err := countRows(ctx, src.db, c.Table)
			if err != nil {
				return err
			}
			if got != want || got != c.Rows {
				return fmt.Errorf("%s: %d rows in SQLite, %d copied, %d in PostgreSQL; nothing was committed", c.Table, want, c.Rows, got)
			}
		}
		return tx.Commit(ctx)
	})
	if err != nil {
		return nil, fmt.Errorf("store: migrate-db: %w", err)
	}
	return counts, nil
}

func countRows(ctx context.Context, db *sql.DB, table string) (int64, error) {
	var n int64
	// #nosec G202 -- a table name from copyTables
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM `+table).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: counting %s: %w", table, err)
	}
	return n, nil
}

// copyTable streams one table from SQLite into PostgreSQL with COPY, column
// by column as SQLite has them, and moves the table's identity past the
// largest id copied.
func copyTable(ctx context.Context, src *sql.DB, tx pgx.Tx, table string) (int64, error) {
	rows, err := src.QueryContext(ctx, `SELECT * FROM `+table) // #nosec G202 -- a table name from copyTables
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return 0, err
	}
	n, err := tx.CopyFrom(ctx, pgx.Identifier{table}, cols, &sqlRows{rows: rows, n: len(cols)})
	if err != nil {
		return 0, err
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	for _, c := range cols {
		if c == "id" {
			var seq *string // none for a text id (authored_questions)
			if err := tx.QueryRow(ctx, `SELECT pg_get_serial_sequence($1, 'id')`, table).Scan(&seq); err != nil {
				return 0, fmt.Errorf("finding the identity: %w", err)
			}
			if seq == nil {
				continue
			}
			_, err := tx.Exec(ctx, `SELECT setval(pg_get_serial_sequence($1, 'id'), COALESCE(max(id), 1), max(id) IS NOT NULL) FROM `+
				pgx.Identifier{table}.Sanitize(), table)
			if err != nil {
				return 0, fmt.Errorf("moving the identity past the copied ids: %w", err)
			}
		}
	}
	return n, nil
}

// sqlRows feeds database/sql rows to pgx's COPY.
type sqlRows struct {
	rows *sql.Rows
	n    int
	vals []any
	err  error
}

func (r *sqlRows) Next() bool {
	if !r.rows.Next() {
		return false
	}
	r.vals = make([]any, r.n)
	ptrs := make([]any, r.n)
	for i := range ptrs {
		ptrs[i] = &r.vals[i]
	}
	r.err = r.rows.Scan(ptrs...)
	return r.err == nil
}

func (r *sqlRows) Values() ([]any, error) { return r.vals, r.err }

func (r *sqlRows) Err() error {
	if r.err != nil {
		return r.err
	}
	return r.rows.Err()
}
