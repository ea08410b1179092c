package store

import (
	"encoding/hex"
	"strings"
	"testing"
)

// SessionColumns returns every stored session row's columns as text, for
// tests that check what the table does and does not keep.
func (db *DB) SessionColumns(tb testing.TB) [][]string {
	tb.Helper()
	// In the order they were stored: SQLite's rowid, PostgreSQL's ctid
	// (an UPDATE moves a row to the end; the tests that touch a session hold one).
	order := "rowid"
	if db.dialect == postgres {
		order = "ctid"
	}
	rows, err := db.db.Query(`SELECT token_hash, learner_id, created_at, last_seen_at, expires_at FROM sessions ORDER BY ` + order)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	var out [][]string
	for rows.Next() {
		r := make([]string, 5)
		var hash []byte
		if err := rows.Scan(&hash, &r[1], &r[2], &r[3], &r[4]); err != nil {
			tb.Fatal(err)
		}
		r[0] = strings.ToUpper(hex.EncodeToString(hash))
		out = append(out, r)
	}
	return out
}

// CommonPasswordCount is how many passwords the embedded list holds.
func CommonPasswordCount() int { return len(commonPasswords()) }
