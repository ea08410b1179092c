package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
)

var examStart = time.Date(2026, 5, 14, 9, 0, 0, 0, time.UTC)

func newExam(learnerID int64) *examsim.Exam {
	return &examsim.Exam{
		LearnerID: learnerID, Lang: examsim.Vietnamese, Topics: []string{"structured-errors"}, PassMark: 72, Seed: 99,
		StartedAt: examStart, Deadline: examStart.Add(10 * time.Minute),
		Items: []*examsim.ExamItem{
			{Position: 1, Answer: examsim.Answer{QuestionID: "malformed-order-id"}, Options: []string{"C", "A", "D", "B"}},
			{Position: 2, Answer: examsim.Answer{QuestionID: "empty-result-retry-loop"}, Options: []string{"B", "D", "A", "C"}},
			{Position: 3, Answer: examsim.Answer{QuestionID: "refund-over-limit-retries"}, Options: []string{"A", "C", "B", "D"}},
		},
	}
}

func TestExamRoundTripAndDeadline(t *testing.T) { eachDialect(t, testExamRoundTripAndDeadline) }

func testExamRoundTripAndDeadline(t *testing.T, open opener) {
	ctx := context.Background()
	db := open(t)
	ls, es := store.NewLearnerService(db), store.NewExamService(db)
	l, _ := ls.CreateAnonymous(ctx)
	e := newExam(l.ID)
	if err := es.CreateExam(ctx, e); err != nil {
		t.Fatal(err)
	}
	got, err := es.FindExam(ctx, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(e, got, cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("exam round trip (-want +got):\n%s", diff)
	}

	answer := &examsim.ExamItem{Position: 2, Answer: examsim.Answer{Choice: "D", Explanation: "Kết quả rỗng hợp lệ, retry không giúp gì.", Lang: examsim.Vietnamese}, Flagged: true, AnsweredAt: examStart.Add(time.Minute)}
	if err := es.SaveExamAnswer(ctx, e.ID, answer, examStart.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	got, _ = es.FindExam(ctx, e.ID)
	it := got.Items[1]
	if it.Choice != "D" || !it.Flagged || it.Explanation != answer.Explanation || !it.AnsweredAt.Equal(answer.AnsweredAt) {
		t.Errorf("saved answer = %+v", it)
	}

	// At the deadline and after, answers are refused; so are unknown positions.
	for _, at := range []time.Duration{10 * time.Minute, time.Hour} {
		late := &examsim.ExamItem{Position: 1, Answer: examsim.Answer{Choice: "A"}}
		if err := es.SaveExamAnswer(ctx, e.ID, late, examStart.Add(at)); examsim.ErrorCode(err) != examsim.ECONFLICT {
			t.Errorf("answer at +%v: %v, want a conflict", at, err)
		}
	}
	if got, _ := es.FindExam(ctx, e.ID); got.Items[0].Choice != "" {
		t.Error("a late answer was stored")
	}
	if err := es.SaveExamAnswer(ctx, e.ID, &examsim.ExamItem{Position: 9, Answer: examsim.Answer{Choice: "A"}}, examStart); examsim.ErrorCode(err) != examsim.ENOTFOUND {
		t.Errorf("position 9: %v", err)
	}
	if _, err := es.FindExam(ctx, 12345); examsim.ErrorCode(err) != examsim.ENOTFOUND {
		t.Errorf("missing exam: %v", err)
	}
}

func TestSubmitExamRecordsAttemptsAndReviews(t *testing.T) {
	eachDialect(t, testSubmitExamRecordsAttemptsAndReviews)
}

func testSubmitExamRecordsAttemptsAndReviews(t *testing.T, open opener) {
	ctx := context.Background()
	db := open(t)
	ls, es, as, rs := store.NewLearnerService(db), store.NewExamService(db), store.NewAttemptService(db), store.NewReviewService(db)
	l, _ := ls.CreateAnonymous(ctx)
	e := newExam(l.ID)
	if err := es.CreateExam(ctx, e); err != nil {
		t.Fatal(err)
	}
	// Question 1 right with a complete explanation, 2 wrong, 3 unanswered.
	e.Items[0].Choice, e.Items[0].Correct, e.Items[0].Explanation, e.Items[0].Band = "A", true, "validation", 3
	e.Items[0].Lang, e.Items[0].AnsweredAt = examsim.Vietnamese, examStart.Add(2*time.Minute)
	e.Items[1].Choice, e.Items[1].Lang, e.Items[1].AnsweredAt = "B", examsim.Vietnamese, examStart.Add(3*time.Minute)
	e.Items[0].Concepts = []examsim.ConceptHit{{ID: "validation-category", Hit: true}}
	e.Correct, e.SubmittedAt, e.AutoSubmitted = 1, e.Deadline, true
	if err := es.SubmitExam(ctx, e); err != nil {
		t.Fatal(err)
	}
	if err := es.SubmitExam(ctx, e); examsim.ErrorCode(err) != examsim.ECONFLICT {
		t.Errorf("second submission: %v, want a conflict", err)
	}
	if err := es.SaveExamAnswer(ctx, e.ID, &examsim.ExamItem{Position: 3, Answer: examsim.Answer{Choice: "A"}}, examStart); examsim.ErrorCode(err) != examsim.ECONFLICT {
		t.Errorf("answer after submission: %v, want a conflict", err)
	}

	got, _ := es.FindExam(ctx, e.ID)
	if !got.Submitted() || !got.AutoSubmitted || got.Correct != 1 || !got.SubmittedAt.Equal(e.Deadline) {
		t.Errorf("submitted exam = %+v", got)
	}
	if got.Items[0].Band != 3 || got.Items[0].AttemptID == 0 || got.Items[2].AttemptID != 0 {
		t.Errorf("item results: %+v / %+v", got.Items[0], got.Items[2])
	}
	attempts, _ := as.ListAttempts(ctx, l.ID, 10)
	if len(attempts) != 2 {
		t.Fatalf("%d attempts, want 2 (the unanswered question is not an attempt)", len(attempts))
	}
	for _, a := range attempts {
		if a.Source != examsim.SourceExam || a.ExamID != e.ID {
			t.Errorf("attempt %d: source %q exam %d", a.ID, a.Source, a.ExamID)
		}
	}
	// A rescore of the exam answer's attempt (or its pending score, once
	// scored) reaches the exam's review too: one verdict in both places.
	first, _ := as.FindAttempt(ctx, got.Items[0].AttemptID)
	first.SetScored(examsim.Verdict{Band: 1, RubricVersion: 5, Evidence: &examsim.Evidence{Confidence: 0.3}})
	if err := as.UpdateScore(ctx, first); err != nil {
		t.Fatal(err)
	}
	if again, _ := es.FindExam(ctx, e.ID); again.Items[0].Band != 1 || again.Items[0].RubricVersion != 5 || again.Items[0].Evidence == nil || again.Items[1].Band != 0 {
		t.Errorf("after its attempt was rescored the exam answer reads %+v", again.Items[0].Verdict)
	}
	// Both answers go on the review schedule: the wrong one (Again) the
	// next day, the complete one (Easy) days later.
	cards, _ := rs.ListReviewCards(ctx, l.ID)
	answeredAt := examStart.Add(3 * time.Minute)
	if len(cards) != 2 || cards[0].QuestionID != "empty-result-retry-loop" || !cards[0].Due.Equal(answeredAt.AddDate(0, 0, 1)) ||
		cards[0].LastRating != examsim.RateAgain || cards[1].LastRating != examsim.RateEasy || !cards[1].Due.After(answeredAt.AddDate(0, 0, 5)) {
		t.Fatalf("review cards = %+v %+v", cards[0], cards[len(cards)-1])
	}
	if n, _ := rs.CountDue(ctx, l.ID, examStart.Add(time.Hour)); n != 0 {
		t.Errorf("due after an hour: %d", n)
	}
	if n, _ := rs.CountDue(ctx, l.ID, examStart.AddDate(0, 0, 2)); n != 1 {
		t.Errorf("due after two days: %d", n)
	}
	exams, err := es.ListExams(ctx, l.ID, 10)
	if err != nil || len(exams) != 1 || len(exams[0].Items) != 3 {
		t.Fatalf("list: %v %+v", err, exams)
	}
}

func TestPracticeAttemptsMoveTheReviewSchedule(t *testing.T) {
	eachDialect(t, testPracticeAttemptsMoveTheReviewSchedule)
}

func testPracticeAttemptsMoveTheReviewSchedule(t *testing.T, open opener) {
	ctx := context.Background()
	db := open(t)
	ls, as, rs := store.NewLearnerService(db), store.NewAttemptService(db), store.NewReviewService(db)
	l, _ := ls.CreateAnonymous(ctx)
	answer := func(qid string, correct bool, expl string, band int, at time.Time) {
		t.Helper()
		if err := as.CreateAttempt(ctx, &examsim.Attempt{LearnerID: l.ID, Answer: examsim.Answer{QuestionID: qid, Lang: examsim.Thai, Choice: "A", Correct: correct, Explanation: expl, Verdict: examsim.Verdict{Band: band}}, CreatedAt: at}); err != nil {
			t.Fatal(err)
		}
	}
	day := examStart
	answer("q-right", true, "ครบถ้วน", 3, day)  // complete: Easy
	answer("q-vague", true, "ไม่แน่ใจ", 1, day) // low band: Hard
	answer("q-wrong", false, "", 0, day)        // wrong: Again
	answer("q-wrong", true, "ครบถ้วน", 3, day.AddDate(0, 0, 1))
	cards, _ := rs.ListReviewCards(ctx, l.ID)
	got := map[string]*examsim.ReviewCard{}
	for _, c := range cards {
		got[c.QuestionID] = c
	}
	if len(cards) != 3 {
		t.Fatalf("cards = %v", got)
	}
	// First answers: FSRS-6's initial stabilities w2 (Easy), w1 (Hard),
	// w0 (Again), due after round(S) days, at least one.
	for qid, want := range map[string]struct {
		s   float64
		due int
	}{"q-right": {8.2956, 8}, "q-vague": {1.2931, 1}} {
		if c := got[qid]; c.Reps != 1 || c.Stability != want.s || !c.Due.Equal(day.AddDate(0, 0, want.due)) {
			t.Errorf("%s = %+v, want S %v due in %d days", qid, c, want.s, want.due)
		}
	}
	// Wrong, then right a day later: stability grows past the first one.
	if c := got["q-wrong"]; c.Reps != 2 || c.LastRating != examsim.RateEasy || c.Stability <= 0.212 || !c.Due.After(day.AddDate(0, 0, 2)) {
		t.Errorf("wrong-then-right card = %+v", c)
	}
	attempts, _ := as.ListAttempts(ctx, l.ID, 10)
	if attempts[0].Source != examsim.SourcePractice || attempts[0].ExamID != 0 {
		t.Errorf("a practice attempt reads as %q exam %d", attempts[0].Source, attempts[0].ExamID)
	}
}

func TestMergeAndDeleteCoverExamsAndReviews(t *testing.T) {
	eachDialect(t, testMergeAndDeleteCoverExamsAndReviews)
}

func testMergeAndDeleteCoverExamsAndReviews(t *testing.T, open opener) {
	ctx := context.Background()
	db := open(t)
	ls, es, as, rs := store.NewLearnerService(db), store.NewExamService(db), store.NewAttemptService(db), store.NewReviewService(db)
	anon, _ := ls.CreateAnonymous(ctx)
	e := newExam(anon.ID)
	es.CreateExam(ctx, e)
	as.CreateAttempt(ctx, &examsim.Attempt{LearnerID: anon.ID, Answer: examsim.Answer{QuestionID: "q1", Choice: "B", Lang: examsim.English}})
	acct, _ := ls.CreateAnonymous(ctx)
	ls.Register(ctx, acct.ID, "minh", "long enough")
	as.CreateAttempt(ctx, &examsim.Attempt{LearnerID: acct.ID, Answer: examsim.Answer{QuestionID: "q1", Choice: "C", Lang: examsim.English}})
	if err := ls.MergeAnonymous(ctx, anon.ID, acct.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := es.ListExams(ctx, acct.ID, 10); len(got) != 1 {
		t.Errorf("exam not merged: %d", len(got))
	}
	if cards, _ := rs.ListReviewCards(ctx, acct.ID); len(cards) != 1 {
		t.Errorf("review cards after merge: %d, want the account's one", len(cards))
	}

	// Another learner's data survives the deletion.
	other, _ := ls.CreateAnonymous(ctx)
	as.CreateAttempt(ctx, &examsim.Attempt{LearnerID: other.ID, Answer: examsim.Answer{QuestionID: "q1", Choice: "B", Lang: examsim.English}})
	if err := ls.DeleteLearner(ctx, acct.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := ls.FindLearner(ctx, acct.ID); examsim.ErrorCode(err) != examsim.ENOTFOUND {
		t.Errorf("deleted learner still found: %v", err)
	}
	for _, table := range []string{"attempts", "exams", "exam_items", "review_cards"} {
		if n := db.CountRows(t, table); n != map[string]int{"attempts": 1, "review_cards": 1}[table] {
			t.Errorf("%s: %d rows left", table, n)
		}
	}
	if err := ls.DeleteLearner(ctx, acct.ID); examsim.ErrorCode(err) != examsim.ENOTFOUND {
		t.Errorf("deleting twice: %v", err)
	}
}
