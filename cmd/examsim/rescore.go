package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
)

// runRescore re-scores stored explanations whose rubric has changed since,
// so learners' history reflects the improved rubric.
func runRescore(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rescore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dbPath := fs.String("db", envOr("EXAMSIM_DB", "./examsim.db"), "SQLite database file or postgres:// URL (EXAMSIM_DB)")
	qdir := fs.String("questions", envOr("EXAMSIM_QUESTIONS", ""), "question bank folder (default: the embedded bank)")
	all := fs.Bool("all", false, "re-score every attempt, not only those scored with an older rubric version")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	bank, problems := loadBank(*qdir)
	if len(problems) > 0 {
		fmt.Fprintf(stderr, "examsim rescore: the question bank has problems; run examsim questions check:\n%s\n", problems.Error())
		return 1
	}
	db, err := store.Open(ctx, *dbPath)
	if err != nil {
		fmt.Fprintf(stderr, "examsim rescore: cannot open the database %s: %v\n", store.DisplayName(*dbPath), err)
		return 1
	}
	defer db.Close()
	attempts := store.NewAttemptService(db)
	var seen, changed, skipped, human int
	err = attempts.EachAttempt(ctx, func(a *examsim.Attempt) error {
		seen++
		if a.Human != nil {
			human++ // UpdateScore writes the automatic verdict only: the teacher's band stays
		}
		q, ok := bank.Question(a.QuestionID)
		if !ok || q.Text(a.Lang) == nil {
			skipped++ // the question left the bank; keep the old verdict
			return nil
		}
		rubric := q.Text(a.Lang).Rubric
		if !*all && a.RubricVersion == rubric.Version {
			return nil
		}
		res, err := rubric.Score(a.Explanation)
		if err != nil {
			skipped++
			return nil
		}
		a.SetScored(res.Verdict(rubric.Version))
		changed++
		return attempts.UpdateScore(ctx, a)
	})
	if err != nil {
		fmt.Fprintf(stderr, "examsim rescore: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "rescored %d of %d attempts (%d skipped: question or language no longer in the bank)\n", changed, seen, skipped)
	if human > 0 {
		fmt.Fprintf(stdout, "%d attempts have a teacher's band, which counts instead of the automatic one and was left as it is\n", human)
	}
	return 0
}
