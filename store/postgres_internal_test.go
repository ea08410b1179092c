package store

import (
	"io/fs"
	"path"
	"testing"
)

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

// Every SQLite migration has its PostgreSQL mirror of the same name, and
// no mirror lacks its SQLite migration: a migration added for one dialect
// only fails here, by name, before any query meets the missing table.
func TestEveryMigrationHasItsPostgresMirror(t *testing.T) {
	names := func(glob string) map[string]bool {
		files, err := fs.Glob(migrations, glob)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, f := range files {
			out[path.Base(f)] = true
		}
		return out
	}
	lite, pg := names(sqlite.migrations), names(postgres.migrations)
	if len(lite) == 0 {
		t.Fatal("no SQLite migrations found")
	}
	for n := range lite {
		if !pg[n] {
			t.Errorf("store/migrations/%s has no PostgreSQL mirror: write store/migrations/postgres/%s", n, n)
		}
	}
	for n := range pg {
		if !lite[n] {
			t.Errorf("store/migrations/postgres/%s mirrors no SQLite migration", n)
		}
	}
}
