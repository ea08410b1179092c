package fsrs_test

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim/fsrs"
)

// The vectors below are the reference implementation's published tests:
// open-spaced-repetition/py-fsrs 6.3.1 (commit 3abe686), tests/test_basic.py
// (FSRS-6, default parameters, fuzzing off): test_review_card,
// test_memo_state and test_repeated_correct_reviews. py-fsrs schedules new cards through
// learning steps of 1 and 10 minutes and lapsed ones through a relearning
// step of 10 minutes, so those tests use the same steps here.

var start = time.Date(2022, 11, 29, 12, 30, 0, 0, time.UTC)

func pyScheduler() fsrs.Scheduler {
	s, err := fsrs.New(0.9)
	if err != nil {
		panic(err)
	}
	s.LearningSteps = []time.Duration{time.Minute, 10 * time.Minute}
	s.RelearningSteps = []time.Duration{10 * time.Minute}
	return s
}

// TestIntervalHistory is py-fsrs test_review_card: each review happens when
// the card falls due, and the interval is counted in whole days.
func TestIntervalHistory(t *testing.T) {
	g, a := fsrs.Good, fsrs.Again
	ratings := []fsrs.Rating{g, g, g, g, g, g, a, a, g, g, g, g, g}
	want := []int{0, 2, 11, 46, 163, 498, 0, 0, 2, 4, 7, 12, 21}

	s := pyScheduler()
	var c fsrs.Card
	at := start
	var got []int
	for _, r := range ratings {
		c = s.Review(c, r, at)
		got = append(got, int(c.Due.Sub(c.LastReview)/(24*time.Hour)))
		at = c.Due
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("intervals (-py-fsrs +ours):\n%s", diff)
	}
}

// TestMemoryState is py-fsrs test_memo_state: Again then Good on day 0 is a
// same-day review, so it checks FSRS-6's short-term stability too.
func TestMemoryState(t *testing.T) {
	type review struct {
		r     fsrs.Rating
		after int // days after the previous review
	}
	tests := []struct {
		name             string
		reviews          []review
		stability, diffi float64
	}{
		{"py-fsrs test_memo_state", []review{
			{fsrs.Again, 0}, {fsrs.Good, 0}, {fsrs.Good, 1}, {fsrs.Good, 3},
			{fsrs.Good, 8}, {fsrs.Good, 21},
		}, 53.62691, 6.3574867},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := pyScheduler()
			var c fsrs.Card
			at := start
			for _, rv := range tt.reviews {
				at = at.AddDate(0, 0, rv.after)
				c = s.Review(c, rv.r, at)
			}
			if math.Abs(c.Stability-tt.stability) > 1e-4 || math.Abs(c.Difficulty-tt.diffi) > 1e-4 {
				t.Errorf("S = %.4f, D = %.4f; py-fsrs says %.4f, %.4f", c.Stability, c.Difficulty, tt.stability, tt.diffi)
			}
		})
	}
}

// TestEasyFloorsDifficulty is py-fsrs test_repeated_correct_reviews: ten
// Easy reviews a microsecond apart bring difficulty to its floor of 1.
func TestEasyFloorsDifficulty(t *testing.T) {
	s := pyScheduler()
	var c fsrs.Card
	for i := range 10 {
		c = s.Review(c, fsrs.Easy, start.Add(time.Duration(i)*time.Microsecond))
	}
	if c.Difficulty != 1 {
		t.Errorf("difficulty %v after ten Easy reviews, want 1", c.Difficulty)
	}
}

// TestNoSteps is how examsim schedules: without learning steps every
// review, even Again on a new card, is due at least a day later (py-fsrs
// test_no_learning_steps and test_no_relearning_steps).
func TestNoSteps(t *testing.T) {
	s, _ := fsrs.New(0.9)
	c := s.Review(fsrs.Card{}, fsrs.Again, start)
	if c.State != fsrs.Review || c.Due.Sub(start) < 24*time.Hour {
		t.Errorf("new card rated Again: state %v due %v after, want Review, ≥ 1 day", c.State, c.Due.Sub(start))
	}
	c = s.Review(c, fsrs.Good, c.Due)
	c = s.Review(c, fsrs.Again, c.Due)
	if c.State != fsrs.Review || c.Due.Sub(c.LastReview) < 24*time.Hour || c.Lapses != 1 {
		t.Errorf("lapse: state %v, due %v after, lapses %d; want Review, ≥ 1 day, 1", c.State, c.Due.Sub(c.LastReview), c.Lapses)
	}
}

// TestForgettingCurve checks R(S) = 0.9 whatever S, that the curve falls,
// that DaysUntil inverts it, and that a higher desired retention gives a
// shorter interval.
func TestForgettingCurve(t *testing.T) {
	s, _ := fsrs.New(0.9)
	for _, st := range []float64{0.5, 3, 40, 400} {
		if r := s.Recall(st, st); math.Abs(r-0.9) > 1e-12 {
			t.Errorf("R(S=%v) = %v, want 0.9", st, r)
		}
		if s.Recall(st, st*2) >= s.Recall(st, st) {
			t.Errorf("recall does not fall for S=%v", st)
		}
		if d := s.DaysUntil(st, 0.7); math.Abs(s.Recall(st, d)-0.7) > 1e-9 {
			t.Errorf("DaysUntil(%v, 0.7) = %v does not invert Recall", st, d)
		}
	}
	s95, _ := fsrs.New(0.95)
	if a, b := s95.NextInterval(40), s.NextInterval(40); a >= b {
		t.Errorf("interval at retention 0.95 is %d, at 0.9 %d: want shorter", a, b)
	}
	if got := s.NextInterval(40); got != 40 {
		t.Errorf("at retention 0.9 the interval is S: got %d for S=40", got)
	}
}

func TestNewRejectsRetention(t *testing.T) {
	for _, r := range []float64{0, 1, -0.5, 1.2, math.NaN()} {
		if _, err := fsrs.New(r); err == nil {
			t.Errorf("New(%v) accepted", r)
		}
	}
}
