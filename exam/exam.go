// Package exam holds the exam rules that need the question bank: grading a
// submitted exam and choosing the questions an exam setup draws from. The
// rules that need only the exam itself are methods in package examsim.
package exam

import (
	"slices"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/scoring"
)

// MissedWindow is how far back "questions missed recently" looks.
const MissedWindow = 30 * 24 * time.Hour

// Bank is the part of the question bank grading needs; *questions.Bank is one.
type Bank interface {
	Question(id string) (*questions.Question, bool)
}

// Grade marks every answer, scores its explanation with its rubric, and
// records when the exam was submitted: an exam submitted because time ran
// out counts as submitted at its deadline. It does not store the exam.
func Grade(bank Bank, e *examsim.Exam, now time.Time, auto bool) error {
	e.AutoSubmitted = auto
	e.SubmittedAt = now
	if auto {
		e.SubmittedAt = e.Deadline
	}
	e.Correct = 0
	for _, it := range e.Items {
		if err := ScoreItem(bank, it); err != nil {
			return err
		}
		if it.Correct {
			e.Correct++
		}
	}
	return nil
}

// ScoreItem marks an answer and scores its explanation, in the language it
// was written in. A question since removed from the bank counts as wrong.
// An explanation the scorer fails on is kept with its score pending, to be
// scored again later: the exam is never lost for it.
func ScoreItem(bank Bank, it *examsim.ExamItem) error {
	it.Correct = false
	it.SetScored(examsim.Verdict{})
	q, ok := bank.Question(it.QuestionID)
	if !ok || !it.Answered() {
		return nil
	}
	it.Correct = it.Choice == q.Answer
	if it.Explanation == "" {
		return nil
	}
	tx := q.In(it.Lang)
	it.SetScored(scoring.VerdictOf(tx.Rubric(), it.Choice, it.Explanation))
	return nil
}

// Pool returns, in the order of qs, the ids of the questions in one of
// topics, with concept when it is set, and in missed when it is not nil.
func Pool(qs []*questions.Question, topics []string, concept string, missed map[string]bool) []string {
	var out []string
	for _, q := range qs {
		if !slices.Contains(topics, q.Topic) {
			continue
		}
		if concept != "" && !slices.Contains(q.Concepts, concept) {
			continue
		}
		if missed != nil && !missed[q.ID] {
			continue
		}
		out = append(out, q.ID)
	}
	return out
}

// Missed returns the questions answered wrong within MissedWindow before
// now, in practice or in an exam.
func Missed(attempts []*examsim.Attempt, now time.Time) map[string]bool {
	out := map[string]bool{}
	since := now.Add(-MissedWindow)
	for _, a := range attempts {
		if !a.Correct && a.CreatedAt.After(since) {
			out[a.QuestionID] = true
		}
	}
	return out
}
