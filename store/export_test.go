package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
)

// CountRows counts a table's rows, for tests that check what is left after
// a deletion.
func (db *DB) CountRows(tb testing.TB, table string) int {
	tb.Helper()
	var n int
	if err := db.db.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil {
		tb.Fatal(err)
	}
	return n
}

// ExecSQL runs a statement, for tests that set up what an older version
// would have left in the database.
func (db *DB) ExecSQL(tb testing.TB, query string, args ...any) {
	tb.Helper()
	if _, err := db.db.Exec(query, args...); err != nil {
		tb.Fatal(err)
	}
}

// QueryString reads one text value (NULL as "<null>").
func (db *DB) QueryString(tb testing.TB, query string, args ...any) string {
	tb.Helper()
	var v *string
	if err := db.db.QueryRow(query, args...).Scan(&v); err != nil {
		tb.Fatal(err)
	}
	if v == nil {
		return "<null>"
	}
	return *v
}

// CopyTables and NotCopied are migrate-db's lists of tables.
var CopyTables, NotCopied = copyTables, notCopied

// TableRows reads every row of a table, each as the text of its columns,
// in the order of its first column, for comparing two databases.
func (db *DB) TableRows(tb testing.TB, table string) []string {
	tb.Helper()
	rows, err := db.db.Query(`SELECT * FROM ` + table + ` ORDER BY 1, 2`)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range ptrs {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			tb.Fatal(err)
		}
		var b strings.Builder
		for i, v := range vals {
			fmt.Fprintf(&b, "%s=%v ", cols[i], v)
		}
		out = append(out, b.String())
	}
	if err := rows.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// Tables lists the database's tables.
func (db *DB) Tables(tb testing.TB) []string {
	tb.Helper()
	q := `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`
	if db.dialect == postgres {
		q = `SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`
	}
	rows, err := db.db.Query(q)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			tb.Fatal(err)
		}
		out = append(out, n)
	}
	return out
}

// BeginSQL opens a transaction of its own, for tests that hold a row lock
// while the code under test runs; it is rolled back when the test ends.
func (db *DB) BeginSQL(tb testing.TB) *sql.Tx {
	tb.Helper()
	tx, err := db.db.BeginTx(context.Background(), nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = tx.Rollback() })
	return tx
}
