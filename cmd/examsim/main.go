// Command examsim serves the exam-prep web app and its tools: checking a
// question bank, scoring an explanation from the shell, and more. This is the
// one place where the packages are wired together.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

const usage = `examsim: exam practice for structured error responses

Usage:
  examsim serve [--addr ADDR] [--db PATH] [--questions DIR] [--public-url URL]
  examsim questions check [DIR]
  examsim questions stats [--db PATH] [DIR]   (with --db: item statistics from stored answers)
  examsim score --question ID --lang LANG   (explanation on stdin)
  examsim rescore [--db PATH] [--all]       (re-score attempts after a rubric changes; teachers' bands stay)
  examsim scoring export [--db PATH] [--out DIR]
                                            (teachers' regrades as labelled-corpus JSONL)
  examsim user add NAME --role learner|instructor|admin [--db PATH]   (password on stdin or asked for)
  examsim backup FILE [--db PATH] [--force] (a consistent copy, while the server runs)
  examsim migrate-db --from PATH --to postgres://...   (copy a SQLite database into an empty PostgreSQL one)

--db takes a SQLite file or a postgres:// URL (README: "When one machine is not enough").

The load generator and benchmark driver are a separate command,
examsim-bench (cmd/examsim-bench), so this binary links no test helpers.

Run "examsim COMMAND --help" for a command's flags.
`

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go stopOnSignal(sigs, cancel, os.Stderr)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	cancel()
	os.Exit(code)
}

// windsDown is set by a command while it stops by itself, cleaning up, once
// its context is cancelled: serve once its bank is loaded, backup, loadtest
// and bench-web (which own temporary files and child processes). Any other
// command, or one still loading, may be blocked where no context reaches
// (reading stdin, a slow disk), so a signal ends it at once.
var windsDown atomic.Bool

// stopOnSignal cancels the commands' context on SIGINT or SIGTERM and exits
// with 128+signal unless the command winds down by itself; a second signal
// always exits at once. A stop needs no cleanup: SQLite keeps every
// committed write and rolls back the rest.
func stopOnSignal(sigs <-chan os.Signal, cancel context.CancelFunc, stderr io.Writer) {
	sig := <-sigs
	cancel()
	if windsDown.Load() {
		sig = <-sigs
	}
	fmt.Fprintf(stderr, "examsim: stopped by %s\n", signalName(sig))
	code := 1
	if s, ok := sig.(syscall.Signal); ok {
		code = 128 + int(s)
	}
	os.Exit(code)
}

// signalName is how a signal is named to the user.
func signalName(sig os.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// run executes one command and returns the process exit code: 0 success,
// 1 a failure the command reports (a broken bank), 2 a usage error.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "serve":
		return runServe(ctx, args[1:], stdout, stderr)
	case "questions":
		if len(args) < 2 {
			fmt.Fprint(stderr, "examsim questions: say check or stats, e.g. examsim questions check\n")
			return 2
		}
		switch args[1] {
		case "check":
			return runQuestionsCheck(args[2:], stdout, stderr)
		case "stats":
			return runQuestionsStats(ctx, args[2:], stdout, stderr)
		}
		fmt.Fprintf(stderr, "examsim questions: unknown command %q; use check or stats\n", args[1])
		return 2
	case "score":
		return runScore(args[1:], stdin, stdout, stderr)
	case "rescore":
		return runRescore(ctx, args[1:], stdout, stderr)
	case "scoring":
		return runScoring(ctx, args[1:], stdout, stderr)
	case "user":
		return runUser(ctx, args[1:], stdin, stdout, stderr)
	case "backup":
		windsDown.Store(true)
		return runBackup(ctx, args[1:], stdout, stderr)
	case "migrate-db":
		return runMigrateDB(ctx, args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "examsim: unknown command %q\n\n%s", args[0], usage)
	return 2
}
