package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions/exchange/exchangetest"
	"github.com/examsim/examsim/store"
)

// populated is a SQLite database with a row in every table migrate-db
// copies: accounts, practice, an exam, a live room's answers, a flag, a
// regrade, a prediction, a review card, review settings and session, and a
// login session.
func populated(t *testing.T) (*disputeWorld, string) {
	t.Helper()
	ctx := context.Background()
	w := newDisputeWorld(t, MustOpenDB)
	if err := w.ds.FlagScore(ctx, &examsim.Flag{Target: attemptTarget(w.studentAttempt), LearnerID: w.student, Comment: "too low"}); err != nil {
		t.Fatal(err)
	}
	if err := w.ds.Regrade(ctx, &examsim.HumanGrade{Target: attemptTarget(w.outAttempt), Band: 2, GraderID: w.teacher}); err != nil {
		t.Fatal(err)
	}
	if err := store.NewExamService(w.db).CreateExam(ctx, newExam(w.student)); err != nil {
		t.Fatal(err)
	}
	if err := store.NewPredictionService(w.db).CreatePrediction(ctx, &examsim.Prediction{LearnerID: w.student, Scenario: "transient",
		Agent: "structured", Generic: true, Decision: 2, Predicted: "retry", Expected: "retry", Correct: true}); err != nil {
		t.Fatal(err)
	}
	wrong := &examsim.Attempt{LearnerID: w.student, Answer: examsim.Answer{QuestionID: "q-wrong", Lang: examsim.English, Choice: "C"}}
	if err := w.attempts.CreateAttempt(ctx, wrong); err != nil { // a wrong answer makes a review card
		t.Fatal(err)
	}
	reviews := store.NewReviewService(w.db)
	if err := reviews.SetReviewSettings(ctx, w.student, examsim.ReviewSettings{DesiredRetention: 0.9,
		ExamDate: time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	if err := reviews.StartSession(ctx, &examsim.ReviewSession{LearnerID: w.student, Mode: examsim.ModeReview,
		QuestionIDs: []string{"q-wrong"}, Seed: 7, StartedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	token, err := store.NewSessionService(w.db).CreateSession(ctx, w.student, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.db.Secret(ctx, "cookie"); err != nil {
		t.Fatal(err)
	}
	authored := store.NewAuthoredQuestionService(w.db)
	q := exchangetest.Question()
	q.AuthorID = w.teacher
	if err := authored.Create(ctx, q); err != nil {
		t.Fatal(err)
	}
	if err := authored.SetSamples(ctx, w.teacher, q.ID, []examsim.RubricSample{{Lang: examsim.English, Text: "No access.", Expected: 2}}); err != nil {
		t.Fatal(err)
	}
	return w, token
}

// migrate-db's copy: every table's rows arrive as they were, a login
// session goes on working, ids continue after the copied ones, and a second
// copy into the now full database is refused.
func TestCopyToPostgres(t *testing.T) {
	ctx := context.Background()
	w, token := populated(t)
	dst := MustOpenPostgres(t)
	counts, err := store.CopyToPostgres(ctx, w.db, dst)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range counts {
		if c.Rows == 0 {
			t.Errorf("the test database has no %s: the copy of that table goes untested", c.Table)
		}
		if diff := cmp.Diff(w.db.TableRows(t, c.Table), dst.TableRows(t, c.Table)); diff != "" {
			t.Errorf("%s differs after the copy (-sqlite +postgres):\n%s", c.Table, diff)
		}
	}
	l, err := store.NewSessionService(dst).ResumeSession(ctx, token, time.Now())
	if err != nil || l.ID != w.student {
		t.Errorf("a session made on SQLite, resumed on PostgreSQL: %v %v", l, err)
	}
	if _, err := store.NewLearnerService(dst).Authenticate(ctx, "LENA", "a less common passphrase"); err != nil {
		t.Errorf("logging in after the copy, the name in other case: %v", err)
	}
	fresh, err := store.NewLearnerService(dst).CreateAnonymous(ctx)
	if err != nil {
		t.Fatalf("a new learner after the copy: %v", err)
	}
	if fresh.ID <= w.outsider {
		t.Errorf("a new learner got id %d, not after the copied ids", fresh.ID)
	}
	_, err = store.CopyToPostgres(ctx, w.db, dst)
	var full *store.NotEmptyError
	if !errors.As(err, &full) {
		t.Fatalf("a second copy into the same database: %v", err)
	}
}

// A copy that fails leaves the target empty, so it can be run again once
// the cause is fixed.
func TestCopyToPostgresFailsWhole(t *testing.T) {
	ctx := context.Background()
	w, _ := populated(t)
	dst := MustOpenPostgres(t)
	// human_grades is copied last: everything before it was copied when this fails.
	dst.ExecSQL(t, `ALTER TABLE human_grades ADD CONSTRAINT refuse_all CHECK (band < 0)`)
	if _, err := store.CopyToPostgres(ctx, w.db, dst); err == nil {
		t.Fatal("the copy succeeded against a constraint refusing its rows")
	}
	for _, table := range store.CopyTables {
		if n := dst.CountRows(t, table); n != 0 {
			t.Errorf("after a failed copy %s holds %d rows", table, n)
		}
	}
	dst.ExecSQL(t, `ALTER TABLE human_grades DROP CONSTRAINT refuse_all`)
	if _, err := store.CopyToPostgres(ctx, w.db, dst); err != nil {
		t.Fatalf("the copy run again: %v", err)
	}
}

// Every table of the schema is copied or named as left out, on both
// dialects: a migration adding a table must add it to migrate-db too.
func TestCopyTablesCoverTheSchema(t *testing.T) {
	for name, db := range map[string]*store.DB{"sqlite": MustOpenDB(t), "postgres": MustOpenPostgres(t)} {
		for _, table := range db.Tables(t) {
			if _, left := store.NotCopied[table]; !left && !slices.Contains(store.CopyTables, table) {
				t.Errorf("%s: migrate-db neither copies nor leaves out the table %s", name, table)
			}
		}
	}
	if diff := cmp.Diff(MustOpenDB(t).Tables(t), MustOpenPostgres(t).Tables(t)); diff != "" {
		t.Errorf("the dialects' tables differ (-sqlite +postgres):\n%s", diff)
	}
}
