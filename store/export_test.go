package store

import "testing"

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
