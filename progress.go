package examsim

import (
	"math"
	"sort"
)

// MinTriedForEstimate is how many different questions a learner answers
// before the readiness estimate means anything.
const MinTriedForEstimate = 10

// Readiness estimates how an exam would go today.
type Readiness struct {
	Level    string // "none" (too little data), "not_yet", "almost" or "ready"
	Estimate int    // the expected exam score, percent
	Tried    int    // different questions answered
	Total    int    // questions in the bank
	Concepts int    // concepts the estimate averages over
	PassMark int
}

// EstimateReadiness expects an exam score from the latest answer to each
// question tried, averaged per concept so every objective weighs the same,
// as the exam samples them. conceptsOf maps a question id to its concepts;
// only concepts in known count; total is the number of questions in the bank.
func EstimateReadiness(conceptsOf map[string][]string, known map[string]bool, latest map[string]*Attempt, total, passMark int) Readiness {
	r := Readiness{Tried: len(latest), Total: total, PassMark: passMark}
	stats := map[string]*ConceptStat{}
	for qid, a := range latest {
		for _, c := range conceptsOf[qid] {
			if !known[c] {
				continue
			}
			if stats[c] == nil {
				stats[c] = &ConceptStat{Concept: c}
			}
			stats[c].Add(a.Correct, a.Explanation != "", a.EffectiveBand())
		}
	}
	sum := 0.0
	for _, s := range stats {
		sum += float64(s.Correct) / float64(s.Answered)
	}
	r.Concepts = len(stats)
	if r.Concepts > 0 {
		r.Estimate = int(math.Floor(100 * sum / float64(r.Concepts)))
	}
	switch {
	case r.Tried < min(MinTriedForEstimate, max(total, 1)):
		r.Level = "none"
	case r.Estimate >= passMark+10 && 2*r.Tried >= total:
		r.Level = "ready"
	case r.Estimate >= passMark:
		r.Level = "almost"
	default:
		r.Level = "not_yet"
	}
	return r
}

// Solid reports whether a concept needs no more work: every answer right
// and, when explained, a mean band of at least 2.
func (s ConceptStat) Solid() bool {
	return s.Accuracy() == 100 && (s.Explained == 0 || s.AverageBand() >= 2)
}

// Weakest returns up to n of rows whose concept was answered and is not
// solid, weakest first. stat gives a row's ConceptStat, so callers keep
// their own row type.
func Weakest[T any](rows []T, stat func(T) ConceptStat, n int) []T {
	var out []T
	for _, r := range rows {
		if s := stat(r); s.Answered > 0 && !s.Solid() {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := stat(out[i]), stat(out[j])
		// Compare exact fractions, then bands; more evidence breaks ties.
		if x, y := a.Correct*b.Answered, b.Correct*a.Answered; x != y {
			return x < y
		}
		if a.AverageBand() != b.AverageBand() {
			return a.AverageBand() < b.AverageBand()
		}
		return a.Answered > b.Answered
	})
	return out[:min(n, len(out))]
}
