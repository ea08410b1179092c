package store_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
)

func TestPredictionsAreStoredNewestFirstAndMerged(t *testing.T) {
	eachDialect(t, testPredictionsAreStoredNewestFirstAndMerged)
}

func testPredictionsAreStoredNewestFirstAndMerged(t *testing.T, open opener) {
	ctx := context.Background()
	db := open(t)
	ls, ps := store.NewLearnerService(db), store.NewPredictionService(db)
	anon, err := ls.CreateAnonymous(ctx)
	if err != nil {
		t.Fatal(err)
	}
	first := &examsim.Prediction{LearnerID: anon.ID, Scenario: "empty", Agent: "naive", Decision: 1,
		Predicted: "accept", Expected: "accept", Correct: true}
	second := &examsim.Prediction{LearnerID: anon.ID, Scenario: "transient", Agent: "structured", Generic: true, Decision: 2,
		Predicted: "retry", Expected: "escalate"}
	for _, p := range []*examsim.Prediction{first, second} {
		if err := ps.CreatePrediction(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ps.ListPredictions(ctx, anon.ID, 10)
	if err != nil {
		t.Fatal(err)
	}
	opts := cmpopts.IgnoreFields(examsim.Prediction{}, "CreatedAt")
	if diff := cmp.Diff([]*examsim.Prediction{second, first}, got, opts); diff != "" {
		t.Errorf("predictions (-want +got):\n%s", diff)
	}

	// Logging in to an account keeps what was predicted anonymously.
	acct, err := ls.CreateAnonymous(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ls.Register(ctx, acct.ID, "predictor", "correct horse"); err != nil {
		t.Fatal(err)
	}
	if err := ls.MergeAnonymous(ctx, anon.ID, acct.ID); err != nil {
		t.Fatal(err)
	}
	moved, err := ps.ListPredictions(ctx, acct.ID, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(moved) != 2 {
		t.Errorf("after the merge the account has %d predictions, want 2", len(moved))
	}
}
