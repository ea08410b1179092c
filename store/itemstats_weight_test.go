package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
)

// TestItemResponsesCountOnlyAnswersWithWeight: forty new anonymous
// visitors answering one question once each (a script's burst) count for
// nothing; an account's answer counts, and so does an anonymous learner's
// once they have answered examsim.MinAnonymousHistory questions.
func TestItemResponsesCountOnlyAnswersWithWeight(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	ls, as := store.NewLearnerService(db), store.NewAttemptService(db)
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	answer := func(learner int64, qid string, correct bool) {
		t.Helper()
		a := &examsim.Attempt{LearnerID: learner, Answer: examsim.Answer{QuestionID: qid, Choice: "A", Correct: correct, Lang: examsim.English}, CreatedAt: t0}
		a.Misconceptions, a.RubricVersion = []string{}, 1
		if err := as.CreateAttempt(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 40; i++ {
		drive, _ := ls.CreateAnonymous(ctx)
		answer(drive.ID, "q1", false)
	}
	account, err := ls.CreateAccount(ctx, "weighty", "long enough pass", examsim.RoleLearner)
	if err != nil {
		t.Fatal(err)
	}
	answer(account.ID, "q1", true)
	regular, _ := ls.CreateAnonymous(ctx)
	for i := 0; i < examsim.MinAnonymousHistory; i++ {
		answer(regular.ID, "q"+string(rune('1'+i)), true)
	}
	newcomer, _ := ls.CreateAnonymous(ctx)
	for i := 0; i < examsim.MinAnonymousHistory-1; i++ {
		answer(newcomer.ID, "q"+string(rune('1'+i)), false)
	}
	got, err := store.NewItemStatsService(db).Responses(ctx)
	if err != nil {
		t.Fatal(err)
	}
	who := map[string]int{}
	for _, r := range got {
		who[r.Respondent]++
	}
	want := map[string]int{
		"learner:" + itoa(account.ID): 1,
		"learner:" + itoa(regular.ID): examsim.MinAnonymousHistory,
	}
	if len(who) != len(want) || who["learner:"+itoa(account.ID)] != 1 || who["learner:"+itoa(regular.ID)] != examsim.MinAnonymousHistory {
		t.Errorf("respondents counted: %v; want only %v", who, want)
	}
}
