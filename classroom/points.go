package classroom

import (
	"time"

	"github.com/examsim/examsim"
)

// Points for one answer. A right answer earns CorrectPoints; with the speed
// bonus it earns between half and all of them, falling linearly with the
// time taken, as players of live quizzes expect. A right answer's
// explanation adds up to ExplanationPoints in proportion to its rubric
// score, so reasoning counts but never outweighs being right.
const (
	CorrectPoints     = 1000
	ExplanationPoints = 500
)

// Points returns what an answer earns.
func Points(correct bool, scoring examsim.ScoringMode, elapsed, limit time.Duration, expl examsim.ExplanationMode, explScore int) int {
	if !correct {
		return 0
	}
	points := CorrectPoints
	if scoring == examsim.ScoreSpeed && limit > 0 {
		frac := float64(min(max(elapsed, 0), limit)) / float64(limit)
		points = int(float64(CorrectPoints)*(1-frac/2) + 0.5)
	}
	if expl != examsim.ExplainOff {
		points += ExplanationPoints * min(max(explScore, 0), 100) / 100
	}
	return points
}
