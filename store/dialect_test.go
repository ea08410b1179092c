package store_test

import (
	"context"
	"testing"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
)

// A negative limit lists everything, on both dialects (PostgreSQL refuses
// LIMIT -1, which SQLite reads as no limit).
func TestNegativeLimitIsNoLimit(t *testing.T) { eachDialect(t, testNegativeLimitIsNoLimit) }

func testNegativeLimitIsNoLimit(t *testing.T, open opener) {
	ctx := context.Background()
	db := open(t)
	ls, cs := store.NewLearnerService(db), store.NewClassroomService(db)
	host, run, _ := hostedRoom(t, ls, cs, "host_l", 0)
	again := &examsim.ClassRun{HostID: host.ID, Mode: examsim.ModeLive, Quiz: run.Quiz, Phase: examsim.PhaseLobby}
	if err := cs.CreateRun(ctx, again); err != nil {
		t.Fatal(err)
	}
	as, es, ps := store.NewAttemptService(db), store.NewExamService(db), store.NewPredictionService(db)
	for range 2 {
		if err := as.CreateAttempt(ctx, &examsim.Attempt{LearnerID: host.ID, Answer: examsim.Answer{QuestionID: "q1", Lang: examsim.English, Choice: "A"}}); err != nil {
			t.Fatal(err)
		}
		if err := es.CreateExam(ctx, newExam(host.ID)); err != nil {
			t.Fatal(err)
		}
		if err := ps.CreatePrediction(ctx, &examsim.Prediction{LearnerID: host.ID, Scenario: "s", Agent: "a", Predicted: "p", Expected: "e"}); err != nil {
			t.Fatal(err)
		}
	}
	runs, err := cs.ListRuns(ctx, host.ID, -1)
	if err != nil || len(runs) != 2 {
		t.Errorf("ListRuns(-1): %d runs, %v", len(runs), err)
	}
	attempts, err := as.ListAttempts(ctx, host.ID, -1)
	if err != nil || len(attempts) != 2 {
		t.Errorf("ListAttempts(-1): %d attempts, %v", len(attempts), err)
	}
	exams, err := es.ListExams(ctx, host.ID, -1)
	if err != nil || len(exams) != 2 {
		t.Errorf("ListExams(-1): %d exams, %v", len(exams), err)
	}
	preds, err := ps.ListPredictions(ctx, host.ID, -1)
	if err != nil || len(preds) != 2 {
		t.Errorf("ListPredictions(-1): %d predictions, %v", len(preds), err)
	}
	if _, err := store.NewDisputeService(db).ListGradable(ctx, examsim.GradingScope{All: true}, -1); err != nil {
		t.Errorf("ListGradable(-1): %v", err)
	}
}
