package store

import "testing"

// SessionColumns returns every stored session row's columns as text, for
// tests that check what the table does and does not keep.
func (db *DB) SessionColumns(tb testing.TB) [][]string {
	tb.Helper()
	rows, err := db.db.Query(`SELECT hex(token_hash), learner_id, created_at, last_seen_at, expires_at FROM sessions ORDER BY rowid`)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	var out [][]string
	for rows.Next() {
		r := make([]string, 5)
		if err := rows.Scan(&r[0], &r[1], &r[2], &r[3], &r[4]); err != nil {
			tb.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// CommonPasswordCount is how many passwords the embedded list holds.
func CommonPasswordCount() int { return len(commonPasswords()) }
