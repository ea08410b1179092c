package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/examsim/examsim/questions"
)

// loadBank loads the bank in dir, or the embedded one when dir is empty.
func loadBank(dir string) (*questions.Bank, questions.Problems) {
	return loadBankWith(questions.Load, dir)
}

// loadBankForServing is loadBank for serve: the rubrics are parsed on first
// use, or by Bank.Complete, which serve runs once it listens.
func loadBankForServing(dir string) (*questions.Bank, questions.Problems) {
	return loadBankWith(questions.LoadDeferred, dir)
}

func loadBankWith(load func(fs.FS, string) (*questions.Bank, questions.Problems), dir string) (*questions.Bank, questions.Problems) {
	if dir == "" {
		fsys, name := questions.Embedded()
		return load(fsys, name)
	}
	return load(os.DirFS(dir), strings.TrimSuffix(dir, "/"))
}

// bankFiles is the folder a bank loads from: dir, or the embedded bank.
func bankFiles(dir string) fs.FS {
	if dir == "" {
		fsys, _ := questions.Embedded()
		return fsys
	}
	return os.DirFS(dir)
}

func runQuestionsCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("questions check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cues := fs.Bool("cues", true, "also run the cue check (questions/FORMAT.md, \"The cue check\")")
	fs.Usage = func() {
		fmt.Fprint(stderr, "Usage: examsim questions check [--cues=false] [DIR]   (default: the embedded bank)\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	bank, problems := loadBank(fs.Arg(0))
	if len(problems) == 0 {
		problems = bank.Render() // serve renders on first view; check renders all now
	}
	if len(problems) > 0 {
		fmt.Fprintln(stdout, problems.Error())
		fmt.Fprintf(stderr, "%d problems; fix them and run the check again\n", len(problems))
		return 1
	}
	for _, w := range bank.Warnings {
		fmt.Fprintf(stdout, "warning: %s\n", w)
	}
	if *cues {
		var failures []questions.Message
		for _, c := range questions.Cues(bank) {
			failures = append(failures, c.Failures()...)
		}
		if len(failures) > 0 {
			for _, f := range failures {
				fmt.Fprintf(stdout, "cue check: %s\n", f)
			}
			fmt.Fprintf(stderr, "%d cues give answers away (examsim questions stats prints every figure); see questions/FORMAT.md, \"The cue check\"\n", len(failures))
			return 1
		}
	}
	fmt.Fprintln(stdout, bankSummary(bank))
	return 0
}

// bankSummary is the one line a clean bank gets.
func bankSummary(b *questions.Bank) string {
	var langs []string
	for _, l := range b.Langs() {
		langs = append(langs, string(l))
	}
	return fmt.Sprintf("%d questions, languages: %s", len(b.Questions), strings.Join(langs, " "))
}
