package pgtest_test

import (
	"context"
	"database/sql"
	"testing"

	"github.com/examsim/examsim/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// Each test gets its own empty database on the one cluster.
func TestURLGivesAFreshDatabase(t *testing.T) {
	ctx := context.Background()
	a, b := pgtest.URL(t), pgtest.URL(t)
	if a == b {
		t.Fatalf("two tests share %s", a)
	}
	da, err := sql.Open("pgx", a)
	if err != nil {
		t.Fatal(err)
	}
	defer da.Close()
	if _, err := da.ExecContext(ctx, `CREATE TABLE t (x int)`); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("pgx", b)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM pg_tables WHERE tablename = 't'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatal("a table made in one test's database is in another's")
	}
	var v string
	if err := da.QueryRowContext(ctx, `SHOW server_version`).Scan(&v); err != nil {
		t.Fatal(err)
	}
	t.Logf("PostgreSQL %s", v)
}
