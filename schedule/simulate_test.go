package schedule_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/schedule"
)

// A simulated learner on the FSRS forgetting curve: their memory of each
// question is the card's own FSRS-6 state (the default parameters are the
// learner), so at every review they recall a question with the card's
// predicted retrievability, and forget it otherwise.

// simBank is shaped like examsim's bank: six objectives of five questions.
func simBank() (questionsOf map[string][]string, order []string) {
	questionsOf = map[string][]string{}
	for o := 1; o <= 6; o++ {
		concept := fmt.Sprintf("2.2.%d", o)
		for q := 1; q <= 5; q++ {
			id := fmt.Sprintf("q%d-%d", o, q)
			questionsOf[concept] = append(questionsOf[concept], id)
		}
	}
	for q := 1; q <= 5; q++ { // interleaved, as a learner meets them
		for o := 1; o <= 6; o++ {
			order = append(order, fmt.Sprintf("q%d-%d", o, q))
		}
	}
	return questionsOf, order
}

type simResult struct {
	conceptRecall map[string]float64 // on exam day, mean over the concept's questions
	overall       float64
	reviews       int
	examScore     float64 // a sampled exam: share of questions recalled
}

// simulate runs one learner from day 0 to the exam: six new questions a
// day for five days, then every due card each evening, until the day the
// learner stops reviewing (stopDay; past the exam for one who keeps on).
func simulate(seed uint64, set examsim.ReviewSettings, start time.Time, stopDay int, withExam bool) simResult {
	sched := set // the settings reviews are scheduled with
	if !withExam {
		sched.ExamDate = time.Time{}
	}
	rng := rand.New(rand.NewPCG(seed, seed*7919+1))
	questionsOf, order := simBank()
	cards := map[string]*examsim.ReviewCard{}
	var res simResult
	rateRight := func() examsim.ReviewRating {
		switch x := rng.Float64(); {
		case x < 0.15:
			return examsim.RateHard
		case x < 0.85:
			return examsim.RateGood
		}
		return examsim.RateEasy
	}
	days := int(set.ExamDate.Sub(start).Hours() / 24)
	next := 0
	for day := 0; day < days; day++ {
		evening := start.AddDate(0, 0, day).Add(19 * time.Hour)
		for i := 0; i < 6 && next < len(order); i++ { // first answers: half are right
			qid := order[next]
			next++
			r := examsim.RateAgain
			if rng.Float64() < 0.5 {
				r = rateRight()
			}
			c := schedule.Review(sched, examsim.ReviewCard{QuestionID: qid}, r, evening)
			cards[qid] = &c
		}
		if day >= stopDay {
			continue
		}
		for pass := range 3 { // a card due again at once comes back later that evening
			at := evening.Add(time.Duration(pass) * time.Hour)
			for _, qid := range order {
				c, ok := cards[qid]
				if !ok || !c.IsDue(at) {
					continue
				}
				r := examsim.RateAgain
				if rng.Float64() < schedule.RecallOn(set, *c, at) {
					r = rateRight()
				}
				*c = schedule.Review(sched, *c, r, at)
				res.reviews++
			}
		}
	}
	res.conceptRecall = map[string]float64{}
	recalled := 0
	for concept, qids := range questionsOf {
		sum := 0.0
		for _, qid := range qids {
			r := schedule.RecallOn(set, *cards[qid], set.ExamDate)
			sum += r
			res.overall += r / float64(len(order))
			if rng.Float64() < r {
				recalled++
			}
		}
		res.conceptRecall[concept] = sum / float64(len(qids))
	}
	res.examScore = float64(recalled) / float64(len(order))
	return res
}

type simSummary struct {
	overall, minConcept, examScore, reviewsPerDay float64
	allAtTarget                                   float64 // share of learners with every concept at the target
	worstConcept                                  map[string]float64
}

func runLearners(n int, set examsim.ReviewSettings, start time.Time, stopDay int, withExam bool) simSummary {
	s := simSummary{worstConcept: map[string]float64{}}
	days := set.ExamDate.Sub(start).Hours() / 24
	for i := range n {
		r := simulate(uint64(i+1), set, start, stopDay, withExam)
		s.overall += r.overall / float64(n)
		s.examScore += r.examScore / float64(n)
		s.reviewsPerDay += float64(r.reviews) / days / float64(n)
		lowest, ok := 1.0, true
		for c, v := range r.conceptRecall {
			s.worstConcept[c] += v / float64(n)
			lowest = min(lowest, v)
			if v < set.DesiredRetention {
				ok = false
			}
		}
		s.minConcept += lowest / float64(n)
		if ok {
			s.allAtTarget += 1 / float64(n)
		}
	}
	return s
}

// TestSimulatedLearnersReachTheTargetOnExamDay: learners who follow the
// plan (all new questions in the first days, then every due card each
// evening) reach the target recall on exam day, on average per concept;
// learners who stop reviewing half way do not, so the check can fail.
func TestSimulatedLearnersReachTheTargetOnExamDay(t *testing.T) {
	start := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
	const learners = 300
	for _, tt := range []struct {
		retention float64
		examIn    int
	}{{0.9, 30}, {0.9, 14}, {0.85, 30}, {0.95, 30}} {
		set := examsim.ReviewSettings{DesiredRetention: tt.retention, ExamDate: start.AddDate(0, 0, tt.examIn)}
		t.Run(fmt.Sprintf("retention %.2f, exam in %d days", tt.retention, tt.examIn), func(t *testing.T) {
			follow := runLearners(learners, set, start, tt.examIn, true)
			t.Logf("following the plan: mean recall on exam day %.3f, weakest concept per learner %.3f, sampled exam score %.3f, learners with every concept at %.2f: %.0f%%, reviews a day %.1f",
				follow.overall, follow.minConcept, follow.examScore, tt.retention, 100*follow.allAtTarget, follow.reviewsPerDay)
			for c, v := range follow.worstConcept {
				if v < tt.retention {
					t.Errorf("concept %s: mean recall on exam day %.3f, below the target %.2f", c, v, tt.retention)
				}
			}
			if follow.allAtTarget < 0.95 {
				t.Errorf("only %.0f%% of learners have every concept at the target", 100*follow.allAtTarget)
			}
			if follow.overall < tt.retention {
				t.Errorf("mean recall on exam day %.3f, below the target %.2f", follow.overall, tt.retention)
			}
			plain := runLearners(learners, set, start, tt.examIn, false)
			t.Logf("the same learners on FSRS without the exam date: mean recall on exam day %.3f, weakest concept per learner %.3f, learners with every concept at %.2f: %.0f%%, reviews a day %.1f",
				plain.overall, plain.minConcept, tt.retention, 100*plain.allAtTarget, plain.reviewsPerDay)
			stop := runLearners(learners, set, start, tt.examIn/2, true)
			t.Logf("stopping half way: mean recall on exam day %.3f, weakest concept per learner %.3f, sampled exam score %.3f",
				stop.overall, stop.minConcept, stop.examScore)
			if stop.overall >= tt.retention {
				t.Errorf("learners who stop reviewing half way still reach %.3f: the check cannot tell", stop.overall)
			}
		})
	}
}
