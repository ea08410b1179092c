package examsim

import (
	"context"
	"math"
	"time"
)

// ReviewCard schedules one question for one learner with SM-2 (SuperMemo 2,
// Wozniak 1990): every answer is graded 0–5; a grade of 3 or more lengthens
// the interval (1 day, 6 days, then the last interval times the ease), a
// lower grade starts the repetitions over, and every grade adjusts the ease.
type ReviewCard struct {
	LearnerID    int64
	QuestionID   string
	Repetitions  int     // successful reviews in a row
	IntervalDays int     // days from the last review to Due
	Ease         float64 // SM-2's E-Factor, never below MinEase
	Due          time.Time
	LastQuality  int
	ReviewedAt   time.Time
}

// SM-2's constants.
const (
	InitialEase = 2.5
	MinEase     = 1.3
)

// ReviewQuality grades an answer for SM-2 (0–5). A wrong answer is 1. A
// right answer is graded by its explanation: band 0 (wrong reasoning) 2,
// band 1 (vague) 3, band 2 4, band 3 5; without an explanation it is 4.
func ReviewQuality(correct, explained bool, band int) int {
	switch {
	case !correct:
		return 1
	case !explained:
		return 4
	case band <= 0:
		return 2
	case band == 1:
		return 3
	case band == 2:
		return 4
	}
	return 5
}

// AttemptQuality grades an attempt for SM-2 by the band that counts. An
// explanation whose score is pending is graded as if there were none: no
// verdict is made up for it.
func AttemptQuality(a *Attempt) int {
	return ReviewQuality(a.Correct, a.Explanation != "" && (!a.Pending || a.Human != nil), a.EffectiveBand())
}

// NeedsReview reports whether an answer of this quality puts a question on
// the review schedule: a wrong answer, or a right one with a low band.
func NeedsReview(quality int) bool { return quality <= 3 }

// NewReviewCard returns a card that has never been reviewed.
func NewReviewCard(learnerID int64, questionID string) ReviewCard {
	return ReviewCard{LearnerID: learnerID, QuestionID: questionID, Ease: InitialEase}
}

// Review returns the card after an answer of quality (0–5) at at.
func (c ReviewCard) Review(quality int, at time.Time) ReviewCard {
	quality = min(max(quality, 0), 5)
	if c.Ease == 0 {
		c.Ease = InitialEase
	}
	if quality >= 3 {
		switch c.Repetitions {
		case 0:
			c.IntervalDays = 1
		case 1:
			c.IntervalDays = 6
		default:
			c.IntervalDays = int(math.Round(float64(c.IntervalDays) * c.Ease))
		}
		c.Repetitions++
	} else {
		// Start over, keeping the ease (SM-2 step 6).
		c.Repetitions = 0
		c.IntervalDays = 1
	}
	miss := float64(5 - quality)
	c.Ease = max(c.Ease+0.1-miss*(0.08+miss*0.02), MinEase)
	// Round to avoid float drift in what is stored and compared.
	c.Ease = math.Round(c.Ease*1000) / 1000
	c.LastQuality = quality
	c.ReviewedAt = at
	c.Due = at.AddDate(0, 0, c.IntervalDays)
	return c
}

// IsDue reports whether the card is due at now.
func (c ReviewCard) IsDue(now time.Time) bool { return !now.Before(c.Due) }

// ReviewService reads review schedules. Cards are written by the attempt
// and exam services as answers are stored.
type ReviewService interface {
	// ListReviewCards returns all of a learner's cards, the most overdue first.
	ListReviewCards(ctx context.Context, learnerID int64) ([]*ReviewCard, error)
	// CountDue counts the learner's cards due at now.
	CountDue(ctx context.Context, learnerID int64, now time.Time) (int, error)
}
