// Package schedule puts examsim's review cards on FSRS (package fsrs): it
// reviews a card with a learner's settings, keeps every review before
// their exam date, and forecasts recall on exam day. The store and the
// web layer both use it, so the rule lives in one place.
package schedule

import (
	"sort"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/fsrs"
)

// Scheduler returns the FSRS scheduler for the settings; settings that do
// not validate (never saved that way) get the default retention.
func Scheduler(set examsim.ReviewSettings) fsrs.Scheduler {
	s, err := fsrs.New(set.DesiredRetention)
	if err != nil || set.Validate() != nil {
		s, _ = fsrs.New(examsim.DefaultRetention)
	}
	return s
}

// fsrsCard is the card as FSRS sees it. examsim schedules without learning
// steps, so every reviewed card is in FSRS's Review state.
func fsrsCard(c examsim.ReviewCard) fsrs.Card {
	fc := fsrs.Card{Stability: c.Stability, Difficulty: c.Difficulty, Due: c.Due, Reps: c.Reps, Lapses: c.Lapses}
	if c.Reps > 0 {
		fc.State, fc.LastReview = fsrs.Review, c.ReviewedAt
	}
	return fc
}

// Review returns the card after an answer rated r at at. With an exam date
// ahead, a card that would otherwise come back after the exam with its
// recall on exam day below the desired retention comes back the day
// before the exam instead (or at once, on the eve itself), so every card
// gets its last review before the exam.
func Review(set examsim.ReviewSettings, c examsim.ReviewCard, r examsim.ReviewRating, at time.Time) examsim.ReviewCard {
	s := Scheduler(set)
	fc := s.Review(fsrsCard(c), fsrs.Rating(r), at)
	c.Stability, c.Difficulty, c.Reps, c.Lapses = fc.Stability, fc.Difficulty, fc.Reps, fc.Lapses
	c.LastRating, c.ReviewedAt, c.Due = r, at, fc.Due
	if exam := set.ExamDate; !exam.IsZero() && at.Before(exam) && c.Due.After(exam) &&
		s.Recall(c.Stability, exam.Sub(at).Hours()/24) < s.DesiredRetention {
		c.Due = exam.Add(-24 * time.Hour)
		if c.Due.Before(at) {
			c.Due = at
		}
	}
	return c
}

// RecallOn is the card's predicted chance of recall at at, on the FSRS
// forgetting curve; 0 for a card never reviewed.
func RecallOn(set examsim.ReviewSettings, c examsim.ReviewCard, at time.Time) float64 {
	return Scheduler(set).RecallAt(fsrsCard(c), at)
}

// ConceptRecall is a concept's predicted recall at some moment: the mean
// over its questions, a question never answered counting 0.
type ConceptRecall struct {
	Concept   string
	Recall    float64
	Questions []string // the concept's questions, the least recalled first
	Answered  int      // how many of them have a card
}

// Concepts forecasts each concept's recall at at from the learner's cards.
// questionsOf lists each concept's questions. The weakest concept comes
// first (ties by id).
func Concepts(set examsim.ReviewSettings, cards []*examsim.ReviewCard, questionsOf map[string][]string, at time.Time) []ConceptRecall {
	byQ := make(map[string]*examsim.ReviewCard, len(cards))
	for _, c := range cards {
		byQ[c.QuestionID] = c
	}
	recall := func(qid string) float64 {
		if c, ok := byQ[qid]; ok {
			return RecallOn(set, *c, at)
		}
		return 0
	}
	out := make([]ConceptRecall, 0, len(questionsOf))
	for concept, qids := range questionsOf {
		if len(qids) == 0 {
			continue
		}
		cr := ConceptRecall{Concept: concept, Questions: append([]string(nil), qids...)}
		sum := 0.0
		for _, q := range qids {
			sum += recall(q)
			if _, ok := byQ[q]; ok {
				cr.Answered++
			}
		}
		cr.Recall = sum / float64(len(qids))
		sort.SliceStable(cr.Questions, func(i, j int) bool {
			ri, rj := recall(cr.Questions[i]), recall(cr.Questions[j])
			if ri != rj {
				return ri < rj
			}
			return cr.Questions[i] < cr.Questions[j]
		})
		out = append(out, cr)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Recall != out[j].Recall {
			return out[i].Recall < out[j].Recall
		}
		return out[i].Concept < out[j].Concept
	})
	return out
}

// CramQuestions picks up to n questions to cram: the weakest concepts'
// least recalled questions, weakest concept first, each question once.
func CramQuestions(weakestFirst []ConceptRecall, n int) []string {
	seen := map[string]bool{}
	var out []string
	for _, cr := range weakestFirst {
		for _, q := range cr.Questions {
			if len(out) == n {
				return out
			}
			if !seen[q] {
				seen[q] = true
				out = append(out, q)
			}
		}
	}
	return out
}
