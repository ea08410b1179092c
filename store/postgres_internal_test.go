package store

import "testing"

func TestRebind(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`SELECT 1`, `SELECT 1`},
		{`a = ? AND b = ?`, `a = $1 AND b = $2`},
		{`x = '?' AND y = ?`, `x = '?' AND y = $1`},
		{`x = 'it''s?' AND y = ?`, `x = 'it''s?' AND y = $1`},
		{`"odd?name" = ?`, `"odd?name" = $1`},
		{"-- why?\nx = ?", "-- why?\nx = $1"},
		{`(?, ?, ?)`, `($1, $2, $3)`},
	} {
		if got := rebind(tc.in, 1); got != tc.want {
			t.Errorf("rebind(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
