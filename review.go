package examsim

import (
	"context"
	"time"
)

// ReviewCard is one question on one learner's spaced-review schedule. The
// schedule is FSRS-6 (package fsrs): the card's memory is its stability
// (days until the chance of recall falls to 90%) and difficulty (1–10);
// every answer to the question is a review rated from what examsim knows
// (ReviewRatingFor), and the next review falls when recall is predicted to
// drop to the learner's desired retention.
type ReviewCard struct {
	LearnerID  int64
	QuestionID string
	Stability  float64 // days
	Difficulty float64 // 1–10
	Reps       int     // answers so far
	Lapses     int     // wrong answers after a right one
	Due        time.Time
	LastRating ReviewRating
	ReviewedAt time.Time
}

// ReviewRating is how an answer went, as FSRS rates a review (1–4).
type ReviewRating int

// The four ratings, numbered as FSRS numbers them.
const (
	RateAgain ReviewRating = 1
	RateHard  ReviewRating = 2
	RateGood  ReviewRating = 3
	RateEasy  ReviewRating = 4
)

// ReviewRatingFor rates an answer from what examsim knows of it: a wrong
// answer is Again; a right one is rated by its explanation's band — band 0
// (wrong reasoning) or 1 (vague) Hard, band 2 (the key point) Good, band 3
// (complete) Easy. A right answer without an explanation is Good: nothing
// says it was a struggle, nothing says it was easy.
func ReviewRatingFor(correct, explained bool, band int) ReviewRating {
	switch {
	case !correct:
		return RateAgain
	case !explained:
		return RateGood
	case band <= 1:
		return RateHard
	case band == 2:
		return RateGood
	}
	return RateEasy
}

// AttemptRating rates an attempt, with the band that counts (a teacher's
// regrade over the automatic one). An explanation whose score is pending is
// rated as if there were none: no verdict is made up for it.
func AttemptRating(a *Attempt) ReviewRating {
	return ReviewRatingFor(a.Correct, a.Explanation != "" && (!a.Pending || a.Human != nil), a.EffectiveBand())
}

// IsDue reports whether the card is due at now.
func (c ReviewCard) IsDue(now time.Time) bool { return !now.Before(c.Due) }

// ReviewSettings are a learner's choices for their schedule.
type ReviewSettings struct {
	// DesiredRetention is the chance of recall a card is due at: higher
	// means more frequent reviews. Between MinRetention and MaxRetention.
	DesiredRetention float64
	// ExamDate is the day of the learner's exam (midnight UTC of that
	// date), zero when none is set. Reviews are planned to land before it.
	ExamDate time.Time
}

// The range a learner may choose their desired retention in; outside it
// FSRS either schedules absurdly often or lets most things be forgotten.
const (
	DefaultRetention = 0.9
	MinRetention     = 0.7
	MaxRetention     = 0.97
)

// DefaultReviewSettings are a learner's settings until they change them.
func DefaultReviewSettings() ReviewSettings {
	return ReviewSettings{DesiredRetention: DefaultRetention}
}

// Validate checks settings a learner sent.
func (s ReviewSettings) Validate() error {
	if !(s.DesiredRetention >= MinRetention && s.DesiredRetention <= MaxRetention) {
		return E(EINVALID, "review.err_retention", "Min", MinRetention, "Max", MaxRetention)
	}
	return nil
}

// ReviewService reads review schedules. Cards are written by the attempt
// and exam services as answers are stored.
type ReviewService interface {
	// ListReviewCards returns all of a learner's cards, the earliest due first.
	ListReviewCards(ctx context.Context, learnerID int64) ([]*ReviewCard, error)
	// CountDue counts the learner's cards due at now.
	CountDue(ctx context.Context, learnerID int64, now time.Time) (int, error)
	// ReviewSettings returns the learner's settings, the defaults when
	// they never changed them.
	ReviewSettings(ctx context.Context, learnerID int64) (ReviewSettings, error)
	// SetReviewSettings saves the learner's settings; future reviews use them.
	SetReviewSettings(ctx context.Context, learnerID int64, s ReviewSettings) error
	// StartSession starts a session, replacing the learner's last one.
	StartSession(ctx context.Context, s *ReviewSession) error
	// FindSession returns the learner's last session (ENOTFOUND if none).
	FindSession(ctx context.Context, learnerID int64) (*ReviewSession, error)
	// AnswerInSession stores the answer to the session's question at
	// position (a nil one skips it) and moves the session on, in one
	// transaction. A position the session has left is a conflict, so a
	// form sent twice counts once.
	AnswerInSession(ctx context.Context, learnerID int64, position int, a *Attempt) error
}

// SourceCram marks an answer given in cram mode: kept in the history, but
// it does not move the review schedule.
const SourceCram Source = "cram"

// MovesSchedule reports whether the attempt is a review on the learner's
// schedule: every answer is, except one given in cram mode.
func (a *Attempt) MovesSchedule() bool { return a.Source != SourceCram }

// ReviewMode is what a review session walks.
type ReviewMode string

const (
	// ModeReview walks the cards due today; each answer moves the schedule.
	ModeReview ReviewMode = "review"
	// ModeCram practises the weakest concepts' questions without moving it.
	ModeCram ReviewMode = "cram"
)

// ReviewSession is a learner's walk through a fixed list of questions, one
// at a time. It is kept on the server, so leaving and coming back resumes
// it at Position.
type ReviewSession struct {
	LearnerID   int64
	Mode        ReviewMode
	QuestionIDs []string
	Position    int   // index of the question to answer next
	Seed        int64 // shuffles each showing's options
	StartedAt   time.Time
}

// Done reports whether every question was answered.
func (s *ReviewSession) Done() bool { return s.Position >= len(s.QuestionIDs) }

// Current returns the question to answer next, shown as an exam item:
// options in an order of their own for this session and position, which a
// reload shows again and the next session shuffles anew. letters are the
// question's own option letters in their own order.
func (s *ReviewSession) Current(letters []string) *ExamItem {
	if s.Done() {
		return nil
	}
	items := ShuffleExam(s.Seed+int64(s.Position), []string{s.QuestionIDs[s.Position]}, 1, func(string) []string { return letters })
	items[0].Position = s.Position + 1
	return items[0]
}
