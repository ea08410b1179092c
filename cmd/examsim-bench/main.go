// Command examsim-bench holds the development tools that measure examsim:
// the classroom load generator and the whole-app benchmark driver. They live
// apart from cmd/examsim so that the server binary links no test helpers.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

const usage = `examsim-bench: load and benchmark tools for examsim (see BENCHMARKS.md)

Usage:
  examsim-bench loadtest --url URL --instructor NAME --students N --rooms R --questions Q
                                   (password in EXAMSIM_LOADTEST_PASSWORD)
  examsim-bench web --examsim bin/examsim [--duration 10s] [--connections 200] [--bank-size 200,1000]
                                   (startup, RSS and wrk against local examsim serve processes)

Run "examsim-bench COMMAND --help" for a command's flags.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes one command and returns the exit code: 0 success, 1 a
// failure, 2 a usage error.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "loadtest":
		return runLoadtest(ctx, args[1:], stdout, stderr)
	case "web", "bench-web":
		return runBenchWeb(ctx, args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "examsim-bench: unknown command %q\n\n%s", args[0], usage)
	return 2
}
