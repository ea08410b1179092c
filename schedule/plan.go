package schedule

import (
	"time"

	"github.com/examsim/examsim"
)

// Week is how far ahead a plan looks.
const Week = 7 * 24 * time.Hour

// KeepToSchedule returns the card as it stands at the exam if, from now on,
// the learner reviews it every time it falls due before then (an overdue
// card at once) and recalls it (Good).
func KeepToSchedule(set examsim.ReviewSettings, c examsim.ReviewCard, now, exam time.Time) examsim.ReviewCard {
	for range 200 { // a card reviewed Good grows its interval; 200 is far more than any exam is away
		if c.Reps == 0 || !c.Due.Before(exam) {
			break
		}
		at := c.Due
		if at.Before(now) {
			at = now
		}
		if !at.After(c.ReviewedAt) { // due at once (the exam eve): review it later that day
			at = c.ReviewedAt.Add(time.Hour)
		}
		c = Review(set, c, examsim.RateGood, at)
	}
	return c
}

// PlanStep is one thing to do this week for a concept.
type PlanStep struct {
	QuestionID string
	New        bool      // never answered: answer it for the first time
	Due        time.Time // when to review it (now for a new question)
}

// WeekPlan is what to do this week to raise the concept whose recall on
// exam day is forecast lowest.
type WeekPlan struct {
	Concept string
	// Recall is the concept's forecast recall on exam day if nothing more
	// is done; IfFollowed if the steps are done this week (each answer
	// recalled) and every card is then reviewed when due until the exam.
	Recall, IfFollowed float64
	Steps              []PlanStep
}

// ExamForecast is a learner's outlook for their exam.
type ExamForecast struct {
	Exam     time.Time
	Target   float64         // the desired retention: the recall to reach
	Concepts []ConceptRecall // recall on exam day if nothing more is done, weakest first
	Plan     WeekPlan        // for the weakest concept; empty when there are none
}

// Forecast is the learner's exam-day outlook at now: each concept's recall
// on exam day as things stand, and this week's plan for the weakest.
func Forecast(set examsim.ReviewSettings, cards []*examsim.ReviewCard, questionsOf map[string][]string, now time.Time) ExamForecast {
	f := ExamForecast{Exam: set.ExamDate, Target: Scheduler(set).DesiredRetention}
	f.Concepts = Concepts(set, cards, questionsOf, set.ExamDate)
	if len(f.Concepts) == 0 {
		return f
	}
	weakest := f.Concepts[0]
	byQ := make(map[string]*examsim.ReviewCard, len(cards))
	for _, c := range cards {
		byQ[c.QuestionID] = c
	}
	weekEnd := now.Add(Week)
	if set.ExamDate.Before(weekEnd) {
		weekEnd = set.ExamDate
	}
	plan := WeekPlan{Concept: weakest.Concept, Recall: weakest.Recall}
	sum := 0.0
	for _, qid := range weakest.Questions {
		c, ok := byQ[qid]
		switch {
		case !ok:
			plan.Steps = append(plan.Steps, PlanStep{QuestionID: qid, New: true, Due: now})
			first := Review(set, examsim.ReviewCard{QuestionID: qid}, examsim.RateGood, now)
			sum += RecallOn(set, KeepToSchedule(set, first, now, set.ExamDate), set.ExamDate)
		default:
			if c.Due.Before(weekEnd) {
				due := c.Due
				if due.Before(now) {
					due = now
				}
				plan.Steps = append(plan.Steps, PlanStep{QuestionID: qid, Due: due})
			}
			sum += RecallOn(set, KeepToSchedule(set, *c, now, set.ExamDate), set.ExamDate)
		}
	}
	plan.IfFollowed = sum / float64(len(weakest.Questions))
	f.Plan = plan
	return f
}
