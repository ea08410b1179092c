package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/examsim/examsim/store"
)

// runMigrateDB copies a SQLite database into an empty PostgreSQL one, for
// users who outgrow one machine and keep their history.
func runMigrateDB(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("migrate-db", flag.ContinueOnError)
	fs.SetOutput(stderr)
	from := fs.String("from", "./examsim.db", "the SQLite database to copy (stop examsim serve on it first)")
	to := fs.String("to", "", "the empty PostgreSQL database to copy into, as a postgres:// URL")
	fs.Usage = func() {
		fmt.Fprint(stderr, "Usage: examsim migrate-db --from ./examsim.db --to postgres://USER@HOST:5432/DATABASE\n"+
			"Copies every row into an empty PostgreSQL database, in one transaction, and checks each table's rows.\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || !store.IsPostgresURL(*to) || store.IsPostgresURL(*from) {
		fmt.Fprintln(stderr, "examsim migrate-db: --from is a SQLite file and --to a postgres:// URL")
		fs.Usage()
		return 2
	}
	if _, err := os.Stat(*from); err != nil {
		fmt.Fprintf(stderr, "examsim migrate-db: no SQLite database at %s: %v; pass --from PATH\n", *from, err)
		return 1
	}
	// The serving lock: no server writes to the source while it is copied.
	release, err := store.LockForServing(*from)
	var inUse *store.InUseError
	if errors.As(err, &inUse) {
		fmt.Fprintf(stderr, "examsim migrate-db: %v.\nStop it first: answers it takes during the copy would be left behind.\n", err)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "examsim migrate-db: cannot lock %s: %v\n", *from, err)
		return 1
	}
	defer release() // after the database is closed: deferred first, run last
	src, err := store.Open(ctx, *from)
	if err != nil {
		fmt.Fprintf(stderr, "examsim migrate-db: cannot open %s: %v\n", *from, err)
		return 1
	}
	defer src.Close()
	dst, err := store.Open(ctx, *to)
	if err != nil {
		fmt.Fprintf(stderr, "examsim migrate-db: cannot open %s: %v\n", store.DisplayName(*to), err)
		return 1
	}
	defer dst.Close()
	counts, err := store.CopyToPostgres(ctx, src, dst)
	var full *store.NotEmptyError
	if errors.As(err, &full) {
		fmt.Fprintf(stderr, "examsim migrate-db: %v\n", err)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "examsim migrate-db: %v\nNothing was committed: the target is still empty; fix the cause and run the same command again.\n", err)
		return 1
	}
	for _, c := range counts {
		fmt.Fprintf(stdout, "%-16s %8d rows, the same in both\n", c.Table, c.Rows)
	}
	fmt.Fprintf(stdout, "examsim: copied %s into %s; start examsim serve --db with the URL\n", *from, store.DisplayName(*to))
	return 0
}
