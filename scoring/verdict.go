package scoring

import (
	"log/slog"

	"github.com/examsim/examsim"
)

// Verdict is the result in the form attempts, exam items and class answers
// keep, scored against a rubric of the given version: the band, the ticks,
// and the confidence and evidence behind them, so a page shows what the
// scorer saw without scoring again.
func (r Result) Verdict(rubricVersion int) examsim.Verdict {
	ev := &examsim.Evidence{Confidence: r.Confidence}
	for _, c := range r.Concepts {
		if c.Hit && len(c.Evidence) > 0 {
			if ev.Concepts == nil {
				ev.Concepts = map[string][]examsim.Span{}
			}
			ev.Concepts[c.ID] = c.Evidence
		}
	}
	for _, m := range r.Misconceptions {
		if len(m.Evidence) > 0 {
			if ev.Misconceptions == nil {
				ev.Misconceptions = map[string][]examsim.Span{}
			}
			ev.Misconceptions[m.ID] = m.Evidence
		}
	}
	return examsim.Verdict{Band: r.Band, Concepts: r.Hits(), Misconceptions: r.MisconceptionIDs(),
		RubricVersion: rubricVersion, Evidence: ev}
}

// Pending is the verdict of an explanation that could not be scored: the
// answer is kept, and scored again later.
func Pending(rubricVersion int) examsim.Verdict {
	return examsim.Verdict{RubricVersion: rubricVersion, Pending: true}
}

// VerdictOf scores an explanation of the chosen option (see ScoreChoice)
// into the verdict stored with an answer.
// An explanation the scorer fails on gets a pending verdict, so the answer is
// stored all the same and scored again later; nothing is ever lost to a
// scorer bug. Callers check the length (CheckLength) before: over-long text
// is the learner's to fix, not pending.
func VerdictOf(r *Rubric, choice, text string) examsim.Verdict {
	res, err := r.ScoreChoice(text, choice)
	if err != nil {
		slog.Error("scoring failed; the answer is kept with its score pending", "lang", r.Lang, "rubric_version", r.Version, "err", err)
		return Pending(r.Version)
	}
	return res.Verdict(r.Version)
}
