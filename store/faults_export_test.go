package store

import (
	"context"
	"testing"
)

// ConnPragmas returns what n distinct pool connections report for a
// pragma, to check that a setting holds on every connection, not just one.
func (db *DB) ConnPragmas(tb testing.TB, pragma string, n int) []string {
	tb.Helper()
	ctx := context.Background()
	var out []string
	for range n {
		conn, err := db.db.Conn(ctx) // held, so the next one is another connection
		if err != nil {
			tb.Fatal(err)
		}
		defer conn.Close()
		var v string
		if err := conn.QueryRowContext(ctx, `PRAGMA `+pragma).Scan(&v); err != nil {
			tb.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}
