package schedule_test

import (
	"testing"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/schedule"
)

var day0 = time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)

// TestReviewFollowsFSRS: a first answer takes FSRS-6's initial stability
// for its rating and comes back after round(S) days, at least one; a
// higher desired retention brings a card back sooner.
func TestReviewFollowsFSRS(t *testing.T) {
	set := examsim.DefaultReviewSettings()
	tests := []struct {
		r         examsim.ReviewRating
		stability float64
		days      int
	}{
		{examsim.RateAgain, 0.212, 1},
		{examsim.RateHard, 1.2931, 1},
		{examsim.RateGood, 2.3065, 2},
		{examsim.RateEasy, 8.2956, 8},
	}
	for _, tt := range tests {
		c := schedule.Review(set, examsim.ReviewCard{QuestionID: "q"}, tt.r, day0)
		if c.Stability != tt.stability || !c.Due.Equal(day0.AddDate(0, 0, tt.days)) || c.Reps != 1 || c.LastRating != tt.r {
			t.Errorf("rating %d: %+v, want S %v due in %d days", tt.r, c, tt.stability, tt.days)
		}
	}
	c := schedule.Review(set, examsim.ReviewCard{}, examsim.RateEasy, day0)
	c = schedule.Review(set, c, examsim.RateGood, c.Due)
	strict := set
	strict.DesiredRetention = 0.97
	if a, b := schedule.Review(strict, c, examsim.RateGood, c.Due), schedule.Review(set, c, examsim.RateGood, c.Due); !a.Due.Before(b.Due) {
		t.Errorf("retention 0.97 due %v, 0.9 due %v: want sooner", a.Due, b.Due)
	}
}
