// Package fsrs is the Free Spaced Repetition Scheduler, version 6 (FSRS-6),
// the scheduler Anki has used since 23.10, written from its published
// description: a card's memory is its stability S (days until recall falls
// to 90%) and difficulty D (1–10); its retrievability R is the chance of
// recall after t days, R = (1 + f·t/S)^−w20 with f chosen so R(S) = 0.9.
// Each review with a rating Again/Hard/Good/Easy moves S and D; a review on
// the same day as the last one uses FSRS-6's short-term stability formula.
// The next interval is the time until R falls to the desired retention.
//
// It imports nothing but the standard library, so it can be checked on its
// own against the reference implementations' test vectors (fsrs_test.go).
package fsrs

import (
	"fmt"
	"math"
	"time"
)

// Rating is how a review went.
type Rating int

// The four ratings, numbered as FSRS numbers them.
const (
	Again Rating = 1
	Hard  Rating = 2
	Good  Rating = 3
	Easy  Rating = 4
)

func (r Rating) String() string {
	switch r {
	case Again:
		return "again"
	case Hard:
		return "hard"
	case Good:
		return "good"
	case Easy:
		return "easy"
	}
	return fmt.Sprintf("rating(%d)", int(r))
}

// Valid reports whether r is one of the four ratings.
func (r Rating) Valid() bool { return r >= Again && r <= Easy }

// State is where a card is in its life.
type State int

// A new card is Learning; a card that left its learning steps is Review;
// a Review card rated Again goes through its relearning steps as
// Relearning. With no steps (as examsim schedules) every reviewed card is
// in Review.
const (
	Learning   State = 1
	Review     State = 2
	Relearning State = 3
)

// Parameters are FSRS-6's 21 weights w0–w20.
type Parameters [21]float64

// DefaultParameters are FSRS-6's published defaults (py-fsrs 6,
// fsrs/scheduler.py DEFAULT_PARAMETERS; the same in fsrs-rs and ts-fsrs).
var DefaultParameters = Parameters{
	0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666,
	0.796, 1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658,
	0.1542,
}

// Bounds of the memory state.
const (
	MinStability  = 0.001
	MinDifficulty = 1.0
	MaxDifficulty = 10.0
	// DefaultRetention is the desired chance of recall when a card is due.
	DefaultRetention = 0.9
	// DefaultMaximumInterval caps an interval at 100 years, as Anki does.
	DefaultMaximumInterval = 36500
)

// Scheduler holds the settings a schedule is computed with. Its zero
// LearningSteps and RelearningSteps mean none: every review schedules whole
// days, which is what a once-a-day review of exam questions wants.
type Scheduler struct {
	W                Parameters
	DesiredRetention float64
	LearningSteps    []time.Duration
	RelearningSteps  []time.Duration
	MaximumInterval  int // days
}

// New returns a scheduler with the default parameters, the given desired
// retention and no (re)learning steps. It fails for a retention outside
// (0, 1), the one setting a user may change.
func New(retention float64) (Scheduler, error) {
	if !(retention > 0 && retention < 1) {
		return Scheduler{}, fmt.Errorf("fsrs: desired retention %v is not between 0 and 1 (exclusive); 0.9 is the usual choice", retention)
	}
	return Scheduler{W: DefaultParameters, DesiredRetention: retention, MaximumInterval: DefaultMaximumInterval}, nil
}

// Card is the memory state and schedule of one item. The zero Card is new:
// never reviewed, due at once.
type Card struct {
	State      State
	Step       int // index into the (re)learning steps while State is not Review
	Stability  float64
	Difficulty float64
	Due        time.Time
	LastReview time.Time
	Reps       int // reviews so far
	Lapses     int // times a Review card was rated Again
}

// IsNew reports whether the card was never reviewed.
func (c Card) IsNew() bool { return c.LastReview.IsZero() }

func (s Scheduler) decay() float64 { return -s.W[20] }

// factor makes R(S) = 0.9 whatever the decay.
func (s Scheduler) factor() float64 { return math.Pow(0.9, 1/s.decay()) - 1 }

// Recall is the forgetting curve: the chance of recalling an item of
// stability S after days days.
func (s Scheduler) Recall(stability, days float64) float64 {
	if stability <= 0 {
		return 0
	}
	return math.Pow(1+s.factor()*max(days, 0)/stability, s.decay())
}

// Retrievability is the card's chance of recall at at, counting whole days
// since its last review as the reference implementations do; 0 for a new card.
func (s Scheduler) Retrievability(c Card, at time.Time) float64 {
	if c.IsNew() {
		return 0
	}
	return s.Recall(c.Stability, float64(elapsedDays(c.LastReview, at)))
}

// RecallAt is the card's chance of recall at at on the continuous curve
// (fractions of a day count), for forecasts rather than for scheduling.
func (s Scheduler) RecallAt(c Card, at time.Time) float64 {
	if c.IsNew() {
		return 0
	}
	return s.Recall(c.Stability, at.Sub(c.LastReview).Hours()/24)
}

// DaysUntil is the time, in days, until an item of stability S falls to
// recall r: the inverse of Recall.
func (s Scheduler) DaysUntil(stability, r float64) float64 {
	return stability / s.factor() * (math.Pow(r, 1/s.decay()) - 1)
}

// NextInterval is the whole number of days, at least 1 and at most the
// maximum interval, until a card of stability S falls to the desired
// retention.
func (s Scheduler) NextInterval(stability float64) int {
	days := int(math.Round(s.DaysUntil(stability, s.DesiredRetention)))
	maxIvl := s.MaximumInterval
	if maxIvl <= 0 {
		maxIvl = DefaultMaximumInterval
	}
	return min(max(days, 1), maxIvl)
}

// elapsedDays counts whole days from last to at, never negative.
func elapsedDays(last, at time.Time) int {
	return max(int(at.Sub(last)/(24*time.Hour)), 0)
}

// Review returns the card after a review rated r at at. It panics on a
// rating that is not one of the four: callers map their grades first.
func (s Scheduler) Review(c Card, r Rating, at time.Time) Card {
	if !r.Valid() {
		panic(fmt.Sprintf("fsrs: %v is not a rating", r))
	}
	if c.State == 0 {
		c.State = Learning
	}
	sameDay := !c.IsNew() && elapsedDays(c.LastReview, at) < 1
	switch {
	case c.IsNew():
		c.Stability = s.initialStability(r)
		c.Difficulty = clampDifficulty(s.initialDifficulty(r))
	case sameDay:
		c.Stability = s.shortTermStability(c.Stability, r)
		c.Difficulty = s.nextDifficulty(c.Difficulty, r)
	default:
		c.Stability = s.nextStability(c.Difficulty, c.Stability, s.Retrievability(c, at), r)
		c.Difficulty = s.nextDifficulty(c.Difficulty, r)
	}
	if c.State == Review && r == Again {
		c.Lapses++
	}
	c.Reps++

	var next time.Duration
	switch c.State {
	case Learning, Relearning:
		steps := s.LearningSteps
		if c.State == Relearning {
			steps = s.RelearningSteps
		}
		next = s.stepInterval(&c, steps, r)
	case Review:
		if r == Again && len(s.RelearningSteps) > 0 {
			c.State, c.Step = Relearning, 0
			next = s.RelearningSteps[0]
		} else {
			next = days(s.NextInterval(c.Stability))
		}
	}
	c.Due = at.Add(next)
	c.LastReview = at
	return c
}

// stepInterval moves a Learning or Relearning card through steps, graduating
// it to Review when they run out.
func (s Scheduler) stepInterval(c *Card, steps []time.Duration, r Rating) time.Duration {
	graduate := func() time.Duration {
		c.State, c.Step = Review, 0
		return days(s.NextInterval(c.Stability))
	}
	if len(steps) == 0 || (c.Step >= len(steps) && r != Again) {
		return graduate()
	}
	switch r {
	case Again:
		c.Step = 0
		return steps[0]
	case Hard:
		switch {
		case c.Step == 0 && len(steps) == 1:
			return steps[0] * 3 / 2
		case c.Step == 0:
			return (steps[0] + steps[1]) / 2
		}
		return steps[c.Step]
	case Good:
		if c.Step+1 == len(steps) {
			return graduate()
		}
		c.Step++
		return steps[c.Step]
	}
	return graduate() // Easy
}

func days(n int) time.Duration { return time.Duration(n) * 24 * time.Hour }

func clampDifficulty(d float64) float64 { return min(max(d, MinDifficulty), MaxDifficulty) }

func clampStability(s float64) float64 { return max(s, MinStability) }

// initialStability is S0(G) = w[G−1].
func (s Scheduler) initialStability(r Rating) float64 { return clampStability(s.W[r-1]) }

// initialDifficulty is D0(G) = w4 − e^(w5·(G−1)) + 1, unclamped.
func (s Scheduler) initialDifficulty(r Rating) float64 {
	return s.W[4] - math.Exp(s.W[5]*float64(r-1)) + 1
}

// nextDifficulty is D' = w7·D0(Easy) + (1−w7)·(D + ΔD·(10−D)/9) with
// ΔD = −w6·(G−3): linear damping, then mean reversion towards D0(Easy).
func (s Scheduler) nextDifficulty(d float64, r Rating) float64 {
	delta := -s.W[6] * float64(r-3)
	damped := d + (10-d)*delta/9
	return clampDifficulty(s.W[7]*s.initialDifficulty(Easy) + (1-s.W[7])*damped)
}

// shortTermStability is FSRS-6's same-day update S' = S·e^(w17·(G−3+w18))·S^−w19;
// a Good or Easy review never lowers S.
func (s Scheduler) shortTermStability(stability float64, r Rating) float64 {
	inc := math.Exp(s.W[17]*(float64(r)-3+s.W[18])) * math.Pow(stability, -s.W[19])
	if r >= Good {
		inc = max(inc, 1)
	}
	return clampStability(stability * inc)
}

func (s Scheduler) nextStability(d, stability, retr float64, r Rating) float64 {
	if r == Again {
		return clampStability(s.forgetStability(d, stability, retr))
	}
	return clampStability(s.recallStability(d, stability, retr, r))
}

// forgetStability is the stability after a lapse:
// min(w11·D^−w12·((S+1)^w13 − 1)·e^(w14·(1−R)), S/e^(w17·w18)).
func (s Scheduler) forgetStability(d, stability, retr float64) float64 {
	long := s.W[11] * math.Pow(d, -s.W[12]) * (math.Pow(stability+1, s.W[13]) - 1) * math.Exp((1-retr)*s.W[14])
	short := stability / math.Exp(s.W[17]*s.W[18])
	return min(long, short)
}

// recallStability is S' = S·(1 + e^w8·(11−D)·S^−w9·(e^(w10·(1−R)) − 1)·hard·easy),
// with hard = w15 for Hard and easy = w16 for Easy.
func (s Scheduler) recallStability(d, stability, retr float64, r Rating) float64 {
	hard, easy := 1.0, 1.0
	switch r {
	case Hard:
		hard = s.W[15]
	case Easy:
		easy = s.W[16]
	}
	return stability * (1 + math.Exp(s.W[8])*(11-d)*math.Pow(stability, -s.W[9])*(math.Exp((1-retr)*s.W[10])-1)*hard*easy)
}
