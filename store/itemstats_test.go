package store_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
)

// TestItemResponsesFromEverySource stores practice answers, a signed-in and
// an anonymous classroom player's answers, and checks that every answer
// comes back once, with the respondent it belongs to.
func TestItemResponsesFromEverySource(t *testing.T) { eachDialect(t, testItemResponsesFromEverySource) }

func testItemResponsesFromEverySource(t *testing.T, open opener) {
	ctx := context.Background()
	db := open(t)
	ls, as, cs := store.NewLearnerService(db), store.NewAttemptService(db), store.NewClassroomService(db)
	ann, _ := ls.CreateAnonymous(ctx)
	host, _ := ls.CreateAccount(ctx, "host_stats", "long enough pass", examsim.RoleInstructor)
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i, a := range []*examsim.Attempt{
		{LearnerID: ann.ID, Answer: examsim.Answer{QuestionID: "q1", Choice: "B", Correct: false}, CreatedAt: t0.Add(2 * time.Minute)},
		{LearnerID: host.ID, Answer: examsim.Answer{QuestionID: "q2", Choice: "C", Correct: true}, CreatedAt: t0.Add(time.Minute), Source: examsim.SourceExam},
	} {
		a.Lang, a.Misconceptions, a.RubricVersion = examsim.English, []string{}, 1
		if err := as.CreateAttempt(ctx, a); err != nil {
			t.Fatalf("attempt %d: %v", i, err)
		}
	}
	quiz := &examsim.Quiz{OwnerID: host.ID, Title: "q", QuestionIDs: []string{"q1"}, SecondsPerQuestion: 20,
		Scoring: examsim.ScoreCorrectness, Explanations: examsim.ExplainOptional}
	if err := cs.CreateQuiz(ctx, quiz); err != nil {
		t.Fatal(err)
	}
	run := &examsim.ClassRun{HostID: host.ID, Mode: examsim.ModeLive, Quiz: *quiz, Phase: examsim.PhaseQuestion}
	if err := cs.CreateRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	anon := &examsim.Player{RunID: run.ID, Nickname: "anon", Lang: examsim.English, RejoinHash: []byte{1}}
	signed := &examsim.Player{RunID: run.ID, Nickname: "ann", Lang: examsim.English, RejoinHash: []byte{2}, LearnerID: ann.ID}
	for _, p := range []*examsim.Player{anon, signed} {
		if err := cs.CreatePlayer(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	// Saving the signed-in player's answer copies it into their attempts
	// (earlier than the B above, though stored later), so its class_answers
	// row must not count twice.
	err := cs.SaveAnswers(ctx, []*examsim.ClassAnswer{
		{RunID: run.ID, PlayerID: anon.ID, Answer: examsim.Answer{QuestionID: "q1", Lang: examsim.English, Choice: "D", Verdict: examsim.Verdict{Misconceptions: []string{}}}, CreatedAt: t0},
		{RunID: run.ID, PlayerID: signed.ID, Answer: examsim.Answer{QuestionID: "q1", Lang: examsim.English, Choice: "A", Correct: true, Verdict: examsim.Verdict{Misconceptions: []string{}}}, CreatedAt: t0},
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := store.NewItemStatsService(db).Responses(ctx)
	if err != nil {
		t.Fatal(err)
	}
	learner := func(id int64) string { return "learner:" + itoa(id) }
	want := []examsim.Response{
		{Respondent: learner(ann.ID), QuestionID: "q1", Choice: "A", Correct: true},
		{Respondent: learner(host.ID), QuestionID: "q2", Choice: "C", Correct: true},
		{Respondent: learner(ann.ID), QuestionID: "q1", Choice: "B", Correct: false},
		{Respondent: "player:" + itoa(anon.ID), QuestionID: "q1", Choice: "D", Correct: false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("responses (-want +got):\n%s", diff)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
