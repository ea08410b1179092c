package examsim

// Verdict is what scoring an explanation decided, and a teacher's regrade when
// there is one. Practice attempts, exam items, class answers and the grading
// queue each carry one, so the rule for which band counts lives here once.
//
// The band is the verdict. The 0–100 figure shown beside it is derived from
// the band that counts (see BandScore), so a higher band never shows a lower
// number and class points follow the band (questions/FORMAT.md, "Bands").
type Verdict struct {
	Band           int // 0-3, the scorer's
	Concepts       []ConceptHit
	Misconceptions []string
	RubricVersion  int         // of the rubric it was scored against
	Human          *HumanGrade // a teacher's regrade; nil if none
	// Pending is set when the explanation could not be scored: the answer
	// is kept and scored again on its next view or by `examsim rescore`.
	Pending bool
	// Evidence is the scorer's confidence and the learner's words behind
	// each concept and misconception, stored with the band so they stay true
	// to it after a rubric changes. Nil for verdicts stored before it was
	// kept, or when there was nothing to score.
	Evidence *Evidence
}

// Evidence is the part of a scorer's verdict beyond band and ticks.
type Evidence struct {
	// Confidence is how sure the scorer was of the band, 0 to 1; below
	// UnsureBelow the learner is told the verdict is a guess.
	Confidence     float64           `json:"-"` // a column of its own, for the grading queue's filter
	Concepts       map[string][]Span `json:"concepts,omitempty"`
	Misconceptions map[string][]Span `json:"misconceptions,omitempty"`
}

// UnsureBelow is the confidence under which a verdict is shown as unsure and
// waits in the grading queue.
const UnsureBelow = 0.5

// Span is a stretch of an explanation as byte offsets: text[Start:End].
type Span struct {
	Start int `json:"s"`
	End   int `json:"e"`
}

// BandScore is the 0–100 figure of a band: 0, 33, 67, 100. It is the only
// way a score is made, so a score says no more and no less than its band.
func BandScore(band int) int {
	return (min(max(band, 0), 3)*100 + 1) / 3
}

// EffectiveBand is the band that counts: the teacher's when there is one.
func (v *Verdict) EffectiveBand() int {
	if v.Human != nil {
		return v.Human.Band
	}
	return v.Band
}

// Score is the 0–100 figure of the band that counts.
func (v *Verdict) Score() int { return BandScore(v.EffectiveBand()) }

// Unsure reports whether the scorer's band should be read as a guess: it was
// unsure, and no teacher has regraded it. Unknown confidence is not unsure.
func (v *Verdict) Unsure() bool {
	return v.Human == nil && !v.Pending && v.Evidence != nil && v.Evidence.Confidence < UnsureBelow
}

// SetScored replaces the scorer's part of the verdict and keeps any teacher's
// regrade: rescoring never overwrites a human band.
func (v *Verdict) SetScored(scored Verdict) {
	human := v.Human
	*v = scored
	v.Human = human
}
