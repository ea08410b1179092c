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
