package examsim_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim"
)

func TestReviewQuality(t *testing.T) {
	tests := []struct {
		name      string
		correct   bool
		explained bool
		band      int
		want      int
		review    bool
	}{
		{"wrong", false, true, 3, 1, true},
		{"wrong, no explanation", false, false, 0, 1, true},
		{"right, wrong reasoning", true, true, 0, 2, true},
		{"right, vague", true, true, 1, 3, true},
		{"right, key point", true, true, 2, 4, false},
		{"right, complete", true, true, 3, 5, false},
		{"right, no explanation", true, false, 0, 4, false},
	}
	for _, tt := range tests {
		q := examsim.ReviewQuality(tt.correct, tt.explained, tt.band)
		if q != tt.want || examsim.NeedsReview(q) != tt.review {
			t.Errorf("%s: quality %d needs review %v, want %d %v", tt.name, q, examsim.NeedsReview(q), tt.want, tt.review)
		}
	}
}

// TestSM2Schedule follows one card through a sequence of answers and checks
// each step against SM-2 worked by hand.
func TestSM2Schedule(t *testing.T) {
	day0 := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	type step struct {
		quality     int
		at          int // days after day0
		reps        int
		interval    int
		ease        float64
		dueDaysFrom int // days after day0
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"perfect answers grow the interval by the ease", []step{
			{5, 0, 1, 1, 2.6, 1},
			{5, 1, 2, 6, 2.7, 7},
			{5, 7, 3, 16, 2.8, 23},  // round(6 × 2.7) = 16
			{5, 23, 4, 45, 2.9, 68}, // round(16 × 2.8) = 45
		}},
		{"quality 3 passes but lowers the ease", []step{
			{3, 0, 1, 1, 2.36, 1},
			{3, 1, 2, 6, 2.22, 7},
			{3, 7, 3, 13, 2.08, 20}, // round(6 × 2.22) = 13
		}},
		{"a failure starts over and keeps a lowered ease", []step{
			{4, 0, 1, 1, 2.5, 1},
			{4, 1, 2, 6, 2.5, 7},
			{1, 7, 0, 1, 1.96, 8}, // 2.5 + 0.1 − 4 × (0.08 + 4 × 0.02) = 1.96
			{4, 8, 1, 1, 1.96, 9},
			{4, 9, 2, 6, 1.96, 15},
			{4, 15, 3, 12, 1.96, 27}, // round(6 × 1.96) = 12
		}},
		{"the ease never drops below 1.3", []step{
			{0, 0, 0, 1, 1.7, 1},
			{0, 1, 0, 1, 1.3, 2},
			{0, 2, 0, 1, 1.3, 3},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := examsim.NewReviewCard(7, "malformed-order-id")
			for i, s := range tt.steps {
				at := day0.AddDate(0, 0, s.at)
				c = c.Review(s.quality, at)
				want := examsim.ReviewCard{
					LearnerID: 7, QuestionID: "malformed-order-id", Repetitions: s.reps, IntervalDays: s.interval,
					Ease: s.ease, Due: day0.AddDate(0, 0, s.dueDaysFrom), LastQuality: s.quality, ReviewedAt: at,
				}
				if diff := cmp.Diff(want, c); diff != "" {
					t.Fatalf("step %d (quality %d) (-want +got):\n%s", i+1, s.quality, diff)
				}
				if c.IsDue(c.Due.Add(-time.Second)) || !c.IsDue(c.Due) {
					t.Fatalf("step %d: IsDue is wrong around %v", i+1, c.Due)
				}
			}
		})
	}
}

func TestReviewClampsQuality(t *testing.T) {
	at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	if got, want := examsim.NewReviewCard(1, "q").Review(9, at), examsim.NewReviewCard(1, "q").Review(5, at); !cmp.Equal(got, want) {
		t.Errorf("quality 9 should count as 5: %+v vs %+v", got, want)
	}
	if got, want := examsim.NewReviewCard(1, "q").Review(-3, at), examsim.NewReviewCard(1, "q").Review(0, at); !cmp.Equal(got, want) {
		t.Errorf("quality -3 should count as 0: %+v vs %+v", got, want)
	}
}
