package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/examsim/examsim/store"
)

// runBackup copies the database into one file while the server keeps
// running, with SQLite's online backup API (see store.Backup).
func runBackup(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dbPath := fs.String("db", envOr("EXAMSIM_DB", "./examsim.db"), "the SQLite database to copy, as in serve (EXAMSIM_DB)")
	force := fs.Bool("force", false, "replace FILE if it exists")
	fs.Usage = func() {
		fmt.Fprint(stderr, "Usage: examsim backup FILE [--db PATH] [--force]\n"+
			"Copies the database into FILE while the server runs. README says how to restore it.\n")
		fs.PrintDefaults()
	}
	// Flags may come before or after the file.
	var file string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		if file != "" {
			fmt.Fprintf(stderr, "examsim backup: one file at a time; got %q and %q\n", file, fs.Arg(0))
			return 2
		}
		file, rest = fs.Arg(0), fs.Args()[1:]
	}
	if file == "" {
		fs.Usage()
		return 2
	}
	if store.IsPostgresURL(*dbPath) {
		fmt.Fprint(stderr, postgresBackupAdvice)
		return 1
	}
	info, err := store.Backup(ctx, *dbPath, file, *force)
	if errors.Is(err, store.ErrBackupExists) {
		fmt.Fprintf(stderr, "examsim backup: %s exists; pick a new name, or pass --force to replace it\n", file)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "examsim backup: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "examsim: backed up %s to %s (%d pages, %d bytes, integrity ok)\n", *dbPath, file, info.Pages, info.Bytes)
	return 0
}

// postgresBackupAdvice is what examsim backup says about a PostgreSQL
// database, which it does not copy: PostgreSQL's own tools do it better.
const postgresBackupAdvice = `examsim backup: copies SQLite databases only; this is a PostgreSQL database.
Back it up with PostgreSQL's own pg_dump, while the servers run:
  pg_dump --format=custom --file=examsim.dump 'postgres://USER@HOST:5432/DATABASE'
and restore it into an empty database with:
  pg_restore --dbname='postgres://USER@HOST:5432/NEWDATABASE' examsim.dump
Back up the whole database: every table, the migrations table and secrets (the key that signs
cookies) included. Nothing else is needed: examsim keeps no files beside the database.
`
