package store_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
)

// disputeWorld is a database with a teacher's class, a student in it, a
// learner outside it, and one attempt each.
type disputeWorld struct {
	db                         *store.DB
	ds                         *store.DisputeService
	attempts                   *store.AttemptService
	teacher, otherTeacher      int64
	student, outsider          int64
	studentAttempt, outAttempt *examsim.Attempt
	classAnswer                *examsim.ClassAnswer
}

func newDisputeWorld(t *testing.T, open opener) *disputeWorld {
	t.Helper()
	ctx := context.Background()
	db := open(t)
	w := &disputeWorld{db: db, ds: store.NewDisputeService(db), attempts: store.NewAttemptService(db)}
	acc := store.NewLearnerService(db)
	mk := func(name string, role examsim.Role) int64 {
		l, err := acc.CreateAccount(ctx, name, "a less common passphrase", role)
		if err != nil {
			t.Fatal(err)
		}
		return l.ID
	}
	w.teacher, w.otherTeacher = mk("ines", examsim.RoleInstructor), mk("ivan", examsim.RoleInstructor)
	w.student, w.outsider = mk("lena", examsim.RoleLearner), mk("otto", examsim.RoleLearner)

	cls := store.NewClassroomService(db)
	quiz := &examsim.Quiz{OwnerID: w.teacher, Title: "Q", QuestionIDs: []string{"malformed-order-id"}, SecondsPerQuestion: 20,
		Scoring: examsim.ScoreCorrectness, Explanations: examsim.ExplainOptional}
	if err := cls.CreateQuiz(ctx, quiz); err != nil {
		t.Fatal(err)
	}
	run := &examsim.ClassRun{HostID: w.teacher, Mode: examsim.ModeLive, Quiz: *quiz, QuestionIndex: -1}
	if err := cls.CreateRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	player := &examsim.Player{RunID: run.ID, Nickname: "Lena", Lang: examsim.Polish, LearnerID: w.student, RejoinHash: []byte("h")}
	if err := cls.CreatePlayer(ctx, player); err != nil {
		t.Fatal(err)
	}
	w.classAnswer = &examsim.ClassAnswer{RunID: run.ID, PlayerID: player.ID, Answer: examsim.Answer{QuestionID: "malformed-order-id", Lang: examsim.Polish, Choice: "B", Correct: true, Explanation: "Błąd walidacji: popraw id.", Verdict: examsim.Verdict{Band: 3, Evidence: &examsim.Evidence{Confidence: 0.3}}}} // unsure, so it waits in the queue; its history copy needs no review
	if err := cls.SaveAnswers(ctx, []*examsim.ClassAnswer{w.classAnswer}); err != nil {
		t.Fatal(err)
	}
	mkAttempt := func(learner int64, text string) *examsim.Attempt {
		a := &examsim.Attempt{LearnerID: learner, Answer: examsim.Answer{QuestionID: "malformed-order-id", Lang: examsim.Thai, Choice: "B", Correct: true, Explanation: text, Verdict: examsim.Verdict{Band: 0, Concepts: []examsim.ConceptHit{{ID: "validation", Hit: false}}, RubricVersion: 1}}, CreatedAt: time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)}
		if err := w.attempts.CreateAttempt(ctx, a); err != nil {
			t.Fatal(err)
		}
		return a
	}
	w.studentAttempt = mkAttempt(w.student, "เป็น validation error ต้องแก้ id")
	w.outAttempt = mkAttempt(w.outsider, "outsider's explanation")
	return w
}

func attemptTarget(a *examsim.Attempt) examsim.Target {
	return examsim.Target{Kind: examsim.TargetAttempt, ID: a.ID}
}

func TestFlagIsIdempotentAndKeepsTheComment(t *testing.T) {
	eachDialect(t, testFlagIsIdempotentAndKeepsTheComment)
}

func testFlagIsIdempotentAndKeepsTheComment(t *testing.T, open opener) {
	ctx := context.Background()
	w := newDisputeWorld(t, open)
	target := attemptTarget(w.studentAttempt)
	if f, err := w.ds.FindFlag(ctx, target); err != nil || f != nil {
		t.Fatalf("before flagging: %+v, %v", f, err)
	}
	for _, comment := range []string{"ฉันตอบถูกแล้ว", ""} {
		if err := w.ds.FlagScore(ctx, &examsim.Flag{Target: target, LearnerID: w.student, Comment: comment}); err != nil {
			t.Fatal(err)
		}
	}
	f, err := w.ds.FindFlag(ctx, target)
	if err != nil || f == nil || f.Comment != "ฉันตอบถูกแล้ว" || !f.Open() {
		t.Fatalf("after flagging twice, the second without a comment: %+v, %v", f, err)
	}
	if n := w.db.CountRows(t, "score_flags"); n != 1 {
		t.Fatalf("%d flag rows, want 1", n)
	}
	if err := w.ds.FlagScore(ctx, &examsim.Flag{Target: target, LearnerID: w.student, Comment: "nowy komentarz"}); err != nil {
		t.Fatal(err)
	}
	if f, _ := w.ds.FindFlag(ctx, target); f.Comment != "nowy komentarz" {
		t.Errorf("a new comment should replace the old one: %q", f.Comment)
	}
	long := &examsim.Flag{Target: target, LearnerID: w.student, Comment: strings.Repeat("ą", examsim.MaxFlagComment+1)}
	if err := w.ds.FlagScore(ctx, long); examsim.ErrorCode(err) != examsim.ETOOLARGE {
		t.Errorf("an over-long comment: %v, want ETOOLARGE", err)
	}
	if f, _ := w.ds.FindFlag(ctx, target); f.Comment != "nowy komentarz" {
		t.Errorf("a refused comment changed the flag: %q", f.Comment)
	}
}

func TestConcurrentFlagsMakeOneRow(t *testing.T) { eachDialect(t, testConcurrentFlagsMakeOneRow) }

func testConcurrentFlagsMakeOneRow(t *testing.T, open opener) {
	ctx := context.Background()
	w := newDisputeWorld(t, open)
	target := attemptTarget(w.studentAttempt)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- w.ds.FlagScore(ctx, &examsim.Flag{Target: target, LearnerID: w.student})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := w.db.CountRows(t, "score_flags"); n != 1 {
		t.Fatalf("%d flag rows, want 1", n)
	}
}

func TestRegradeIsTheBandThatCounts(t *testing.T) { eachDialect(t, testRegradeIsTheBandThatCounts) }

func testRegradeIsTheBandThatCounts(t *testing.T, open opener) {
	ctx := context.Background()
	w := newDisputeWorld(t, open)
	a := w.studentAttempt
	reviews := store.NewReviewService(w.db)
	// The question's card replays every answer to it (this one and a
	// classroom answer); its stability follows the regrades.
	stability := func() float64 {
		t.Helper()
		cards, _ := reviews.ListReviewCards(ctx, w.student)
		if len(cards) != 1 || cards[0].Reps != 2 {
			t.Fatalf("review cards: %+v, want one card of two answers", cards)
		}
		return cards[0].Stability
	}
	stability()
	if err := w.ds.FlagScore(ctx, &examsim.Flag{Target: attemptTarget(a), LearnerID: w.student}); err != nil {
		t.Fatal(err)
	}
	g := &examsim.HumanGrade{Target: attemptTarget(a), Band: 3, Concepts: []examsim.ConceptHit{{ID: "validation", Hit: true}}, GraderID: w.teacher}
	if err := w.ds.Regrade(ctx, g); err != nil {
		t.Fatal(err)
	}
	got, err := w.attempts.FindAttempt(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Band != 0 || got.Human == nil || got.Human.Band != 3 || got.EffectiveBand() != 3 || got.Human.GraderID != w.teacher ||
		len(got.Human.Concepts) != 1 || !got.Human.Concepts[0].Hit {
		t.Fatalf("after the regrade: band %d, human %+v", got.Band, got.Human)
	}
	if f, _ := w.ds.FindFlag(ctx, attemptTarget(a)); f == nil || f.Open() {
		t.Errorf("the regrade should resolve the flag: %+v", f)
	}
	// Band 3 on a right answer rates it Easy instead of Hard: the card is
	// replanned, with a higher stability than band 0 gives it below.
	easy := stability()
	// The lists read the regrade too.
	list, _ := w.attempts.ListAttempts(ctx, w.student, 10)
	found := false
	for _, l := range list {
		if l.ID == a.ID {
			found = l.EffectiveBand() == 3
		}
	}
	if !found {
		t.Errorf("ListAttempts does not show attempt %d with the regraded band 3: %+v", a.ID, list)
	}
	// A rescore replaces the automatic verdict and leaves the teacher's alone.
	got.Band, got.RubricVersion = 2, 2
	if err := w.attempts.UpdateScore(ctx, got); err != nil {
		t.Fatal(err)
	}
	again, _ := w.attempts.FindAttempt(ctx, a.ID)
	if again.Band != 2 || again.EffectiveBand() != 3 {
		t.Errorf("after a rescore: band %d, effective %d, want 2 and 3", again.Band, again.EffectiveBand())
	}
	// Regrading again replaces the grade and puts the card back.
	if err := w.ds.Regrade(ctx, &examsim.HumanGrade{Target: attemptTarget(a), Band: 0, GraderID: w.teacher}); err != nil {
		t.Fatal(err)
	}
	if again, _ := w.attempts.FindAttempt(ctx, a.ID); again.EffectiveBand() != 0 {
		t.Errorf("a second regrade: effective band %d, want 0", again.EffectiveBand())
	}
	if hard := stability(); hard >= easy {
		t.Errorf("band 0 again: stability %v, want below the %v of the band 3 regrade", hard, easy)
	}
	for _, band := range []int{-1, 4} {
		if err := w.ds.Regrade(ctx, &examsim.HumanGrade{Target: attemptTarget(a), Band: band}); examsim.ErrorCode(err) != examsim.EINVALID {
			t.Errorf("band %d: %v, want EINVALID", band, err)
		}
	}
	if err := w.ds.Regrade(ctx, &examsim.HumanGrade{Target: examsim.Target{Kind: examsim.TargetAttempt, ID: 9999}, Band: 1}); examsim.ErrorCode(err) != examsim.ENOTFOUND {
		t.Errorf("an unknown attempt: %v, want ENOTFOUND", err)
	}
}

func TestGradingScope(t *testing.T) { eachDialect(t, testGradingScope) }

func testGradingScope(t *testing.T, open opener) {
	ctx := context.Background()
	w := newDisputeWorld(t, open)
	for _, a := range []*examsim.Attempt{w.studentAttempt, w.outAttempt} {
		if err := w.ds.FlagScore(ctx, &examsim.Flag{Target: attemptTarget(a), LearnerID: a.LearnerID, Comment: "please"}); err != nil {
			t.Fatal(err)
		}
	}
	answer := examsim.Target{Kind: examsim.TargetClassAnswer, ID: w.classAnswer.ID}
	ids := func(scope examsim.GradingScope) map[examsim.Target]*examsim.Gradable {
		t.Helper()
		list, err := w.ds.ListGradable(ctx, scope, 100)
		if err != nil {
			t.Fatal(err)
		}
		out := map[examsim.Target]*examsim.Gradable{}
		for _, g := range list {
			out[g.Target] = g
		}
		return out
	}
	// Sure and unknown-confidence answers nobody flagged do not wait.
	for _, ev := range []*examsim.Evidence{{Confidence: 0.9}, nil} {
		sure := &examsim.Attempt{LearnerID: w.student, Answer: examsim.Answer{QuestionID: "malformed-order-id", Lang: examsim.Thai, Choice: "B", Correct: true, Explanation: "sure", Verdict: examsim.Verdict{Band: 2, RubricVersion: 1, Evidence: ev}}}
		if err := w.attempts.CreateAttempt(ctx, sure); err != nil {
			t.Fatal(err)
		}
		if g := ids(examsim.GradingScope{All: true})[attemptTarget(sure)]; g != nil {
			t.Errorf("an unflagged attempt with evidence %+v waits in the queue", ev)
		}
	}
	teacher := ids(examsim.GradingScope{TeacherID: w.teacher})
	if len(teacher) != 2 || teacher[attemptTarget(w.studentAttempt)] == nil || teacher[answer] == nil {
		t.Fatalf("the teacher's queue: %v, want the student's attempt and class answer", teacher)
	}
	if g := teacher[attemptTarget(w.studentAttempt)]; !g.Flag.Open() || g.Flag.Comment != "please" || g.Name != "lena" {
		t.Errorf("the student's attempt in the queue: %+v %+v", g, g.Flag)
	}
	if g := teacher[answer]; g.Name != "Lena" || g.LearnerID != w.student || g.Flag != nil || g.Explanation != w.classAnswer.Explanation {
		t.Errorf("the class answer in the queue: %+v", g)
	}
	if other := ids(examsim.GradingScope{TeacherID: w.otherTeacher}); len(other) != 0 {
		t.Errorf("another teacher sees %v", other)
	}
	if all := ids(examsim.GradingScope{TeacherID: w.otherTeacher, All: true}); len(all) != 3 {
		t.Errorf("an admin sees %d, want 3", len(all))
	}
	if _, err := w.ds.FindGradable(ctx, attemptTarget(w.outAttempt), examsim.GradingScope{TeacherID: w.teacher}); examsim.ErrorCode(err) != examsim.ENOTFOUND {
		t.Errorf("an outsider's attempt for the teacher: %v, want ENOTFOUND", err)
	}
	if _, err := w.ds.FindGradable(ctx, answer, examsim.GradingScope{TeacherID: w.teacher}); err != nil {
		t.Errorf("the class answer for the teacher: %v", err)
	}

	// A regraded class answer leaves the queue and is kept beside its band.
	if err := w.ds.Regrade(ctx, &examsim.HumanGrade{Target: answer, Band: 2, GraderID: w.teacher}); err != nil {
		t.Fatal(err)
	}
	if teacher := ids(examsim.GradingScope{TeacherID: w.teacher}); teacher[answer] != nil {
		t.Errorf("a regraded, unflagged class answer is still queued")
	}
	g, err := w.ds.FindGradable(ctx, answer, examsim.GradingScope{TeacherID: w.teacher})
	if err != nil || g.Band != 3 || g.Human == nil || g.Human.Band != 2 {
		t.Fatalf("the regraded class answer: %+v, %v", g, err)
	}
	regraded, err := w.ds.ListRegraded(ctx)
	if err != nil || len(regraded) != 1 || regraded[0].Target != answer {
		t.Fatalf("ListRegraded: %v, %v", regraded, err)
	}
}

func TestExamItemsCarryTheirRegrade(t *testing.T) { eachDialect(t, testExamItemsCarryTheirRegrade) }

func testExamItemsCarryTheirRegrade(t *testing.T, open opener) {
	ctx := context.Background()
	db := open(t)
	ls, es, ds := store.NewLearnerService(db), store.NewExamService(db), store.NewDisputeService(db)
	l, _ := ls.CreateAnonymous(ctx)
	e := newExam(l.ID)
	if err := es.CreateExam(ctx, e); err != nil {
		t.Fatal(err)
	}
	it := &examsim.ExamItem{Position: 1, Answer: examsim.Answer{Choice: "B", Explanation: "x", Lang: examsim.English}, AnsweredAt: examStart}
	if err := es.SaveExamAnswer(ctx, e.ID, it, examStart); err != nil {
		t.Fatal(err)
	}
	e, _ = es.FindExam(ctx, e.ID)
	e.SubmittedAt, e.Items[0].Band = examStart.Add(time.Minute), 1
	if err := es.SubmitExam(ctx, e); err != nil {
		t.Fatal(err)
	}
	if err := ds.Regrade(ctx, &examsim.HumanGrade{Target: examsim.Target{Kind: examsim.TargetAttempt, ID: e.Items[0].AttemptID}, Band: 3}); err != nil {
		t.Fatal(err)
	}
	got, _ := es.FindExam(ctx, e.ID)
	if first := got.Items[0]; first.Band != 1 || first.EffectiveBand() != 3 {
		t.Errorf("the regraded exam item: band %d, effective %d", first.Band, first.EffectiveBand())
	}
	if second := got.Items[1]; second.Human != nil {
		t.Errorf("an unanswered item has a regrade: %+v", second.Human)
	}
}

func TestFlagsFollowAMergeAndGoWithTheLearner(t *testing.T) {
	eachDialect(t, testFlagsFollowAMergeAndGoWithTheLearner)
}

func testFlagsFollowAMergeAndGoWithTheLearner(t *testing.T, open opener) {
	ctx := context.Background()
	db := open(t)
	ls, as, ds := store.NewLearnerService(db), store.NewAttemptService(db), store.NewDisputeService(db)
	anon, _ := ls.CreateAnonymous(ctx)
	account, err := ls.CreateAccount(ctx, "vyvy", "a less common passphrase", examsim.RoleLearner)
	if err != nil {
		t.Fatal(err)
	}
	a := &examsim.Attempt{LearnerID: anon.ID, Answer: examsim.Answer{QuestionID: "malformed-order-id", Lang: examsim.Vietnamese, Choice: "B", Explanation: "lỗi validation"}}
	if err := as.CreateAttempt(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := ds.FlagScore(ctx, &examsim.Flag{Target: attemptTarget(a), LearnerID: anon.ID}); err != nil {
		t.Fatal(err)
	}
	if err := ds.Regrade(ctx, &examsim.HumanGrade{Target: attemptTarget(a), Band: 2}); err != nil {
		t.Fatal(err)
	}
	if err := ls.MergeAnonymous(ctx, anon.ID, account.ID); err != nil {
		t.Fatal(err)
	}
	if f, err := ds.FindFlag(ctx, attemptTarget(a)); err != nil || f == nil || f.LearnerID != account.ID {
		t.Fatalf("the flag after the merge: %+v, %v", f, err)
	}
	if err := ls.DeleteLearner(ctx, account.ID); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"score_flags", "human_grades"} {
		if n := db.CountRows(t, table); n != 0 {
			t.Errorf("%d rows left in %s after deleting the learner", n, table)
		}
	}
}

func TestRegradeKeepsTheTeachersNote(t *testing.T) { eachDialect(t, testRegradeKeepsTheTeachersNote) }

// testRegradeKeepsTheTeachersNote: the note written with a regrade comes
// back with the attempt, in the history list, with an exam's item and in
// the grading queue; a second regrade replaces it; one over the limit is
// refused and the earlier note stays.
func testRegradeKeepsTheTeachersNote(t *testing.T, open opener) {
	ctx := context.Background()
	w := newDisputeWorld(t, open)
	a := w.studentAttempt
	note := "Bạn đã nêu đúng lỗi validation — <b>không</b> cần retry. 🙂"
	if err := w.ds.Regrade(ctx, &examsim.HumanGrade{Target: attemptTarget(a), Band: 2, GraderID: w.teacher, Note: note}); err != nil {
		t.Fatal(err)
	}
	got, err := w.attempts.FindAttempt(ctx, a.ID)
	if err != nil || got.Human == nil {
		t.Fatalf("after the regrade: %+v, %v", got, err)
	}
	list, _ := w.attempts.ListAttempts(ctx, w.student, 10)
	var listed string
	for _, l := range list {
		if l.ID == a.ID && l.Human != nil {
			listed = l.Human.Note
		}
	}
	queued, err := w.ds.FindGradable(ctx, attemptTarget(a), examsim.GradingScope{All: true})
	if err != nil || queued.Human == nil {
		t.Fatalf("the grading queue's copy: %+v, %v", queued, err)
	}
	if diff := cmp.Diff([]string{note, note, note}, []string{got.Human.Note, listed, queued.Human.Note}); diff != "" {
		t.Errorf("the note read back (attempt, history, queue) (-want +got):\n%s", diff)
	}
	if err := w.ds.Regrade(ctx, &examsim.HumanGrade{Target: attemptTarget(a), Band: 3, GraderID: w.teacher}); err != nil {
		t.Fatal(err)
	}
	if again, _ := w.attempts.FindAttempt(ctx, a.ID); again.Human.Note != "" {
		t.Errorf("a regrade without a note kept the old one: %q", again.Human.Note)
	}
	long := strings.Repeat("ă", examsim.MaxTeacherNote+1)
	if err := w.ds.Regrade(ctx, &examsim.HumanGrade{Target: attemptTarget(a), Band: 1, Note: long}); examsim.ErrorCode(err) != examsim.ETOOLARGE {
		t.Errorf("a note of %d characters: %v, want ETOOLARGE", examsim.MaxTeacherNote+1, err)
	}
	if again, _ := w.attempts.FindAttempt(ctx, a.ID); again.EffectiveBand() != 3 {
		t.Errorf("a refused regrade changed the band to %d", again.EffectiveBand())
	}
	if err := w.ds.Regrade(ctx, &examsim.HumanGrade{Target: attemptTarget(a), Band: 1, Note: long[:2*examsim.MaxTeacherNote]}); err != nil {
		t.Errorf("a note of exactly %d characters: %v", examsim.MaxTeacherNote, err)
	}
}
