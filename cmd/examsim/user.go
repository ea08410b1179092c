package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
)

// runUser manages accounts from the shell. It opens the database the way
// serve does (WAL, a busy timeout), so it works while the server runs.
func runUser(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "add" {
		fmt.Fprint(stderr, "examsim user: say add, e.g. examsim user add NAME --role instructor --db ./examsim.db\n")
		return 2
	}
	fs := flag.NewFlagSet("user add", flag.ContinueOnError)
	fs.SetOutput(stderr)
	role := fs.String("role", "learner", "the account's role: learner, instructor or admin")
	dbPath := fs.String("db", envOr("EXAMSIM_DB", "./examsim.db"), "SQLite database file or postgres:// URL, as in serve (EXAMSIM_DB)")
	fs.Usage = func() {
		fmt.Fprint(stderr, "Usage: examsim user add NAME [--role learner|instructor|admin] [--db PATH]\n"+
			"The password is read from standard input (its first line), or asked for when that is a terminal.\n")
		fs.PrintDefaults()
	}
	// Flags may come before or after the name.
	rest := args[1:]
	var name string
	for {
		if err := fs.Parse(rest); err != nil {
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		if name != "" {
			fmt.Fprintf(stderr, "examsim user add: one name at a time; got %q and %q\n", name, fs.Arg(0))
			return 2
		}
		name, rest = fs.Arg(0), fs.Args()[1:]
	}
	if name == "" {
		fs.Usage()
		return 2
	}
	r, ok := examsim.ParseRole(*role)
	if !ok {
		fmt.Fprintf(stderr, "examsim user add: unknown role %q; use learner, instructor or admin\n", *role)
		return 2
	}
	password, err := readPassword(stdin, stderr, name)
	if err != nil {
		fmt.Fprintf(stderr, "examsim user add: %v\n", err)
		return 1
	}
	db, err := store.Open(ctx, *dbPath)
	if err != nil {
		fmt.Fprintf(stderr, "examsim user add: cannot open the database %s: %v\n", store.DisplayName(*dbPath), err)
		return 1
	}
	defer db.Close()
	l, err := store.NewLearnerService(db).CreateAccount(ctx, name, password, r)
	if err != nil {
		switch examsim.ErrorCode(err) {
		case examsim.ECONFLICT:
			fmt.Fprintf(stderr, "examsim user add: %q is taken; pick another name (an admin can change roles at /admin/users)\n", name)
		case examsim.EINVALID:
			fmt.Fprintf(stderr, "examsim user add: a username has 3 to 32 letters, digits, dots, dashes or underscores, and a password at least %d characters and at most %d bytes (a letter outside English takes 2 to 4), and not one of the most common passwords\n",
				store.MinPassword, store.MaxPassword)
		default:
			fmt.Fprintf(stderr, "examsim user add: %v\n", err)
		}
		return 1
	}
	fmt.Fprintf(stdout, "examsim: added %s (%s, id %d)\n", l.Username, l.Role, l.ID)
	return 0
}

// readPassword asks twice on a terminal, without echo; otherwise it reads
// the first line of stdin, so scripts can pipe it in. Never a flag: flags
// show in ps and in shell history.
func readPassword(stdin io.Reader, stderr io.Writer, name string) (string, error) {
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintf(stderr, "Password for %s: ", name)
		a, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(stderr)
		if err != nil {
			return "", err
		}
		fmt.Fprint(stderr, "Again: ")
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(stderr)
		if err != nil {
			return "", err
		}
		if string(a) != string(b) {
			return "", fmt.Errorf("the two passwords differ")
		}
		return string(a), nil
	}
	line, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil && line == "" {
		return "", fmt.Errorf("no password on standard input: pipe it in, as in echo \"$PASSWORD\" | examsim user add %s --role ROLE", name)
	}
	return strings.TrimRight(line, "\r\n"), nil
}
