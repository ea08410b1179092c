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

// TestExamDateKeepsReviewsBeforeTheExam: a wrong answer on the exam's eve,
// whose recall would be below the target on the day, comes back at once
// rather than after the exam; a card that will still be recalled on the day keeps
// its FSRS due date.
func TestExamDateKeepsReviewsBeforeTheExam(t *testing.T) {
	exam := time.Date(2026, 5, 10, 0, 0, 0, 0, time.UTC)
	set := examsim.ReviewSettings{DesiredRetention: 0.9, ExamDate: exam}
	plain := examsim.DefaultReviewSettings()

	learned := schedule.Review(set, examsim.ReviewCard{}, examsim.RateGood, day0)
	learned = schedule.Review(set, learned, examsim.RateGood, learned.Due)
	eve := exam.Add(-20 * time.Hour)
	lapse := schedule.Review(set, examsim.ReviewCard{}, examsim.RateAgain, eve) // a new question, answered wrongly
	if free := schedule.Review(plain, examsim.ReviewCard{}, examsim.RateAgain, eve); !free.Due.After(exam) || schedule.RecallOn(set, free, exam) >= 0.9 {
		t.Fatalf("without an exam date the lapse is due %v: the case tests nothing", free.Due)
	}
	if !lapse.Due.Equal(eve) {
		t.Errorf("a lapse on the eve is due %v, want at once (%v)", lapse.Due, eve)
	}
	easy := schedule.Review(set, learned, examsim.RateEasy, eve)
	if want := schedule.Review(plain, learned, examsim.RateEasy, eve); !easy.Due.Equal(want.Due) {
		t.Errorf("an easy review on the eve is due %v, want FSRS's %v", easy.Due, want.Due)
	}
	// Two days out, the lapse comes back the day before the exam.
	early := schedule.Review(set, learned, examsim.RateAgain, exam.AddDate(0, 0, -2))
	if early.Due.After(exam) {
		t.Errorf("a lapse two days out is due %v, after the exam", early.Due)
	}
}

// TestForecastPlansTheWeakest: the plan is for the concept with the lowest
// recall on exam day, lists its new questions and its reviews due this
// week, and following it raises the concept's recall.
func TestForecastPlansTheWeakest(t *testing.T) {
	now := day0
	set := examsim.ReviewSettings{DesiredRetention: 0.9, ExamDate: now.AddDate(0, 0, 21)}
	strong := schedule.Review(set, examsim.ReviewCard{QuestionID: "s1"}, examsim.RateEasy, now.AddDate(0, 0, -1))
	weak := schedule.Review(set, examsim.ReviewCard{QuestionID: "w1"}, examsim.RateAgain, now.AddDate(0, 0, -1))
	f := schedule.Forecast(set, []*examsim.ReviewCard{&strong, &weak},
		map[string][]string{"strong": {"s1"}, "weak": {"w1", "w2"}}, now)
	if len(f.Concepts) != 2 || f.Concepts[0].Concept != "weak" || f.Plan.Concept != "weak" {
		t.Fatalf("forecast = %+v", f)
	}
	var steps []string
	for _, s := range f.Plan.Steps {
		steps = append(steps, s.QuestionID+map[bool]string{true: " new", false: " review"}[s.New])
	}
	if len(steps) != 2 || steps[0] != "w2 new" || steps[1] != "w1 review" {
		t.Errorf("steps = %v", steps)
	}
	if f.Plan.IfFollowed < set.DesiredRetention || f.Plan.IfFollowed <= f.Plan.Recall {
		t.Errorf("following the plan: %.3f from %.3f, want at least the target", f.Plan.IfFollowed, f.Plan.Recall)
	}
}
