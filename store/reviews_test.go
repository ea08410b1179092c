package store_test

import (
	"context"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
)

// TestMigrationMovesSM2CardsToFSRS: a database as examsim left it before
// migration 013, with SM-2 cards, opens with FSRS cards that keep their
// due dates, take their interval as stability and their ease as a
// difficulty, and review on from there.
func TestMigrationMovesSM2CardsToFSRS(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sm2.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	l, err := store.NewLearnerService(db).CreateAnonymous(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Back to the schema before 013: the SM-2 table of migration 003.
	db.ExecSQL(t, `DROP TABLE review_cards`)
	db.ExecSQL(t, `DROP TABLE review_settings`)
	db.ExecSQL(t, `DROP TABLE review_sessions`)
	db.ExecSQL(t, `ALTER TABLE exams DROP COLUMN blueprint`)
	db.ExecSQL(t, `DELETE FROM migrations WHERE name = 'migrations/013_fsrs.sql'`)
	db.ExecSQL(t, `CREATE TABLE review_cards (
		learner_id INTEGER NOT NULL REFERENCES learners (id) ON DELETE CASCADE, question_id TEXT NOT NULL,
		repetitions INTEGER NOT NULL, interval_days INTEGER NOT NULL, ease REAL NOT NULL, due_at TEXT NOT NULL,
		last_quality INTEGER NOT NULL, reviewed_at TEXT NOT NULL, PRIMARY KEY (learner_id, question_id))`)
	sm2 := []struct {
		qid                string
		reps, ivl, quality int
		ease               float64
		reviewed, due      string
	}{
		{"q-wrong", 0, 1, 1, 1.96, "2026-05-01T10:00:00Z", "2026-05-02T10:00:00Z"},
		{"q-vague", 1, 1, 3, 2.36, "2026-05-01T10:00:00Z", "2026-05-02T10:00:00Z"},
		{"q-long", 4, 45, 5, 2.9, "2026-03-01T10:00:00Z", "2026-04-15T10:00:00Z"},
		{"q-floor", 2, 6, 4, 1.3, "2026-04-28T10:00:00Z", "2026-05-04T10:00:00Z"},
	}
	for _, c := range sm2 {
		db.ExecSQL(t, `INSERT INTO review_cards VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, l.ID, c.qid, c.reps, c.ivl, c.ease, c.due, c.quality, c.reviewed)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db, err = store.Open(ctx, path)
	if err != nil {
		t.Fatalf("migrating SM-2 cards: %v", err)
	}
	defer db.Close()
	rs := store.NewReviewService(db)
	cards, err := rs.ListReviewCards(ctx, l.ID)
	if err != nil {
		t.Fatal(err)
	}
	type card struct {
		QID        string
		Stability  float64
		Difficulty float64
		Reps       int
		Rating     examsim.ReviewRating
		Due        string
	}
	var got []card
	for _, c := range cards {
		got = append(got, card{c.QuestionID, c.Stability, math.Round(c.Difficulty*100) / 100, c.Reps, c.LastRating, c.Due.Format(time.RFC3339)})
	}
	want := []card{ // earliest due first
		{"q-long", 45, 6.25, 4, examsim.RateEasy, "2026-04-15T10:00:00Z"},
		{"q-vague", 1, 7.6, 1, examsim.RateHard, "2026-05-02T10:00:00Z"},
		{"q-wrong", 1, 8.6, 0, examsim.RateAgain, "2026-05-02T10:00:00Z"},
		{"q-floor", 6, 10, 2, examsim.RateGood, "2026-05-04T10:00:00Z"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("migrated cards (-want +got):\n%s", diff)
	}
	if n, _ := rs.CountDue(ctx, l.ID, time.Date(2026, 5, 3, 0, 0, 0, 0, time.UTC)); n != 3 {
		t.Errorf("%d cards due on 3 May, want the 3 SM-2 had due by then", n)
	}
	// A migrated card reviews on with FSRS: a right, complete answer a
	// day late pushes a 1-day card well out.
	as := store.NewAttemptService(db)
	at := time.Date(2026, 5, 3, 10, 0, 0, 0, time.UTC)
	if err := as.CreateAttempt(ctx, &examsim.Attempt{LearnerID: l.ID, Answer: examsim.Answer{QuestionID: "q-vague", Lang: examsim.English, Choice: "A", Correct: true, Explanation: "complete", Verdict: examsim.Verdict{Band: 3}}, CreatedAt: at}); err != nil {
		t.Fatal(err)
	}
	cards, _ = rs.ListReviewCards(ctx, l.ID)
	for _, c := range cards {
		if c.QuestionID == "q-vague" && (c.Reps != 2 || c.LastRating != examsim.RateEasy || c.Stability <= 1 || !c.Due.After(at.AddDate(0, 0, 2))) {
			t.Errorf("q-vague after an Easy review: %+v", c)
		}
	}
}

func TestReviewSettingsRoundTrip(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	rs := store.NewReviewService(db)
	l, _ := store.NewLearnerService(db).CreateAnonymous(ctx)
	if got, _ := rs.ReviewSettings(ctx, l.ID); got != examsim.DefaultReviewSettings() {
		t.Errorf("settings never saved = %+v, want the defaults", got)
	}
	exam := time.Date(2027, 1, 20, 0, 0, 0, 0, time.UTC)
	if err := rs.SetReviewSettings(ctx, l.ID, examsim.ReviewSettings{DesiredRetention: 0.95, ExamDate: exam}); err != nil {
		t.Fatal(err)
	}
	if got, _ := rs.ReviewSettings(ctx, l.ID); got.DesiredRetention != 0.95 || !got.ExamDate.Equal(exam) {
		t.Errorf("saved settings read back as %+v", got)
	}
	if err := rs.SetReviewSettings(ctx, l.ID, examsim.ReviewSettings{DesiredRetention: 0.5}); examsim.ErrorCode(err) != examsim.EINVALID {
		t.Errorf("retention 0.5: %v, want EINVALID", err)
	}
	if got, _ := rs.ReviewSettings(ctx, l.ID); got.DesiredRetention != 0.95 {
		t.Errorf("a refused change altered the settings: %+v", got)
	}
}

// TestReviewSession: a session walks its questions in order, each answer
// stored and scheduled with the step in one transaction; a form sent twice
// counts once; a cram answer is kept but leaves the schedule alone; and the
// session survives a restart.
func TestReviewSession(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "session.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	rs := store.NewReviewService(db)
	l, _ := store.NewLearnerService(db).CreateAnonymous(ctx)
	if _, err := rs.FindSession(ctx, l.ID); examsim.ErrorCode(err) != examsim.ENOTFOUND {
		t.Fatalf("no session yet: %v, want ENOTFOUND", err)
	}
	at := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	answer := func(qid string, src examsim.Source) *examsim.Attempt {
		return &examsim.Attempt{LearnerID: l.ID, Answer: examsim.Answer{QuestionID: qid, Lang: examsim.Polish, Choice: "A", Correct: true}, CreatedAt: at, Source: src}
	}
	if err := rs.StartSession(ctx, &examsim.ReviewSession{LearnerID: l.ID, Mode: examsim.ModeReview, QuestionIDs: []string{"q1", "q2", "q3"}, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	if err := rs.AnswerInSession(ctx, l.ID, 0, answer("q1", "")); err != nil {
		t.Fatal(err)
	}
	if err := rs.AnswerInSession(ctx, l.ID, 0, answer("q1", "")); examsim.ErrorCode(err) != examsim.ECONFLICT {
		t.Errorf("the same position again: %v, want ECONFLICT", err)
	}
	if err := rs.AnswerInSession(ctx, l.ID, 1, answer("q3", "")); examsim.ErrorCode(err) != examsim.EINVALID {
		t.Errorf("an answer to another question: %v, want EINVALID", err)
	}
	if err := rs.AnswerInSession(ctx, l.ID, 1, nil); err != nil { // skipped
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rs, as := store.NewReviewService(db), store.NewAttemptService(db)
	got, err := rs.FindSession(ctx, l.ID)
	if err != nil || got.Position != 2 || got.Done() || got.Mode != examsim.ModeReview || !cmp.Equal(got.QuestionIDs, []string{"q1", "q2", "q3"}) || got.Seed != 7 {
		t.Fatalf("resumed session = %+v, %v", got, err)
	}
	if attempts, _ := as.ListAttempts(ctx, l.ID, 10); len(attempts) != 1 {
		t.Errorf("%d attempts, want the one answer", len(attempts))
	}
	if cards, _ := rs.ListReviewCards(ctx, l.ID); len(cards) != 1 || cards[0].QuestionID != "q1" {
		t.Errorf("cards after one review answer: %+v", cards)
	}

	// Cram: stored, not scheduled.
	if err := rs.StartSession(ctx, &examsim.ReviewSession{LearnerID: l.ID, Mode: examsim.ModeCram, QuestionIDs: []string{"q1", "q9"}, Seed: 8}); err != nil {
		t.Fatal(err)
	}
	before, _ := rs.ListReviewCards(ctx, l.ID)
	for i, qid := range []string{"q1", "q9"} {
		if err := rs.AnswerInSession(ctx, l.ID, i, answer(qid, examsim.SourceCram)); err != nil {
			t.Fatal(err)
		}
	}
	after, _ := rs.ListReviewCards(ctx, l.ID)
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("cram moved the schedule:\n%s", diff)
	}
	if s, _ := rs.FindSession(ctx, l.ID); !s.Done() {
		t.Errorf("cram session not done after both answers: %+v", s)
	}
	if attempts, _ := as.ListAttempts(ctx, l.ID, 10); len(attempts) != 3 || attempts[0].Source != examsim.SourceCram {
		t.Errorf("cram answers are kept in the history: %d attempts", len(attempts))
	}
}
