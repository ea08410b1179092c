package examsim

// Verdict is what scoring an explanation decided, and a teacher's regrade when
// there is one. Practice attempts, exam items, class answers and the grading
// queue each carry one, so the rule for which band counts lives here once.
type Verdict struct {
	Score          int // 0-100
	Band           int // 0-3, the scorer's
	Concepts       []ConceptHit
	Misconceptions []string
	RubricVersion  int         // of the rubric it was scored against
	Human          *HumanGrade // a teacher's regrade; nil if none
}

// EffectiveBand is the band that counts: the teacher's when there is one.
func (v *Verdict) EffectiveBand() int {
	if v.Human != nil {
		return v.Human.Band
	}
	return v.Band
}

// SetScored replaces the scorer's part of the verdict and keeps any teacher's
// regrade: rescoring never overwrites a human band.
func (v *Verdict) SetScored(scored Verdict) {
	human := v.Human
	*v = scored
	v.Human = human
}
