package scoring

import "github.com/examsim/examsim"

// Verdict is the result in the form attempts, exam items and class answers
// keep, scored against a rubric of the given version.
func (r Result) Verdict(rubricVersion int) examsim.Verdict {
	return examsim.Verdict{Score: r.Score, Band: r.Band, Concepts: r.Hits(),
		Misconceptions: r.MisconceptionIDs(), RubricVersion: rubricVersion}
}
