package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/classroom"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/scoring"
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
	db, err := store.OpenExisting(ctx, *dbPath)
	if err != nil {
		fmt.Fprintf(stderr, "examsim rescore: cannot open the database %s: %v\n", store.DisplayName(*dbPath), err)
		return 1
	}
	defer db.Close()
	attempts := store.NewAttemptService(db)
	var seen, changed, skipped, human, failed int
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
		rubric := q.Text(a.Lang).Rubric()
		if !*all && !a.Pending && a.RubricVersion == rubric.Version {
			return nil
		}
		// One item never stops the run: its problem is reported and the
		// others are rescored.
		if err := rescoreOne(ctx, attempts, rubric, a); err != nil {
			failed++
			fmt.Fprintf(stderr, "examsim rescore: attempt %d (%s, %s): %v; it keeps its earlier verdict, and rescore tries it again next time\n",
				a.ID, a.QuestionID, a.Lang, err)
			return nil
		}
		changed++
		return nil
	})
	if err != nil {
		fmt.Fprintf(stderr, "examsim rescore: %v\n", err)
		return 1
	}
	classChanged, classFailed := rescorePendingClassAnswers(ctx, store.NewClassroomService(db), bank, stderr)
	failed += classFailed
	fmt.Fprintf(stdout, "rescored %d of %d attempts (%d skipped: question or language no longer in the bank)\n", changed, seen, skipped)
	if classChanged > 0 {
		fmt.Fprintf(stdout, "scored %d class answers whose score was pending\n", classChanged)
	}
	if human > 0 {
		fmt.Fprintf(stdout, "%d attempts have a teacher's band, which counts instead of the automatic one and was left as it is\n", human)
	}
	if failed > 0 {
		fmt.Fprintf(stdout, "%d answers could not be rescored (listed above); run rescore again once the cause is fixed\n", failed)
		return 1
	}
	return 0
}

// rescoreOne scores one attempt again and stores its verdict. A scorer
// failure or a panic comes back as an error, never stops the caller.
func rescoreOne(ctx context.Context, attempts *store.AttemptService, rubric *scoring.Rubric, a *examsim.Attempt) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("rescoring failed: %v", p)
		}
	}()
	v := scoring.VerdictOf(rubric, a.Choice, a.Explanation)
	if v.Pending {
		return fmt.Errorf("the scorer failed on its explanation (a bug; the server log has the details)")
	}
	a.SetScored(v)
	if err := attempts.UpdateScore(ctx, a); err != nil {
		return fmt.Errorf("storing its new verdict: %w", err)
	}
	return nil
}

// rescorePendingClassAnswers scores the class answers whose score is
// pending, adding the explanation's points a right answer earns (the
// pending answer earned the right answer's alone). Like attempts, one that
// fails is reported and the rest go on.
func rescorePendingClassAnswers(ctx context.Context, classes *store.ClassroomService, bank *questions.Bank, stderr io.Writer) (changed, failed int) {
	pending, err := classes.ListPendingAnswers(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "examsim rescore: listing pending class answers: %v; run rescore again\n", err)
		return 0, 1
	}
	for _, a := range pending {
		q, ok := bank.Question(a.QuestionID)
		if !ok || q.Text(a.Lang) == nil {
			continue // the question left the bank: it stays pending
		}
		rubric := q.Text(a.Lang).Rubric()
		v := scoring.VerdictOf(rubric, a.Choice, a.Explanation)
		if v.Pending {
			failed++
			fmt.Fprintf(stderr, "examsim rescore: class answer %d (%s, %s): the scorer failed on its explanation (a bug; the log has the details); it stays pending\n", a.ID, a.QuestionID, a.Lang)
			continue
		}
		a.SetScored(v)
		if a.Correct {
			a.Points += classroom.ExplanationPoints * a.Score() / 100
		}
		if err := classes.UpdateAnswerScore(ctx, a); err != nil {
			failed++
			fmt.Fprintf(stderr, "examsim rescore: class answer %d (%s, %s): storing its verdict: %v; it stays pending\n", a.ID, a.QuestionID, a.Lang, err)
			continue
		}
		changed++
	}
	return changed, failed
}
