package scoring_test

import "testing"

// TestRubricSelfConsistency checks every rubric against its own question, in
// every language. Written as a learner's explanation:
//   - the keyed option's text followed by its explanation (verdict word
//     dropped) must score band 2 or 3;
//   - each distractor's text, which states that option's claim and often its
//     tempting reason, must score band 0.
//
// The texts are taken mechanically from the option and its explanation
// (questions.SelfCheck, which the teacher's rubric workbench runs too).
func TestRubricSelfConsistency(t *testing.T) {
	bank := loadBank(t)
	failures, checks, vague := 0, 0, 0
	for _, q := range bank.Questions {
		for _, lang := range bank.Langs() {
			for _, c := range q.SelfCheck(lang) {
				checks++
				if c.Band < 0 {
					t.Fatalf("%s [%s] option %s cannot be scored", q.ID, lang, c.Letter)
				}
				if c.Pass() {
					continue
				}
				failures++
				switch {
				case c.Keyed:
					t.Errorf("%s [%s] keyed %s scores band %d, want 2 or 3: %q", q.ID, lang, c.Letter, c.Band, c.Text)
				default:
					if c.Band == 1 {
						vague++
					}
					t.Errorf("%s [%s] distractor %s scores band %d, want 0: %q", q.ID, lang, c.Letter, c.Band, c.Text)
				}
			}
		}
	}
	t.Logf("%d of %d self-consistency checks fail (%d of them distractor claims scoring 1: on topic, their misconception not recognised)", failures, checks, vague)
}
