package exchange

import (
	"testing"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/questions/exchange/exchangetest"
	"github.com/google/go-cmp/cmp"
)

// A drafted rubric has the decisive concept from the key's explanation and
// a misconception per distractor, in every language; it compiles with the
// bank's loader, and on this question its English passes the self-check.
func TestDraftRubric(t *testing.T) {
	q := exchangetest.Question()
	q.Rubric = DraftRubric(q)
	en := examsim.English
	type rule struct {
		ID, Role, Note string
		Patterns       []string
	}
	var got []rule
	for _, c := range q.Rubric.Concepts {
		got = append(got, rule{c.ID, c.Role, c.Notes[en], c.Patterns[en]})
	}
	for _, m := range q.Rubric.Misconceptions {
		got = append(got, rule{m.ID, m.Role, m.Notes[en], m.Patterns[en]})
	}
	want := []rule{
		{"key-idea", "decisive", "Only the user can get access.", []string{"access only"}},
		{"claim-b", "", "A permission error does not pass with time.", []string{"{!neg} backo* retry"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("English draft (-want +got):\n%s", diff)
	}
	for _, l := range examsim.Langs {
		if len(q.Rubric.Concepts[0].Patterns[l]) == 0 || len(q.Rubric.Misconceptions[0].Patterns[l]) == 0 {
			t.Errorf("%s: the draft has no pattern for a rule", l)
		}
	}
	bankFS, _ := questions.Embedded()
	cq, problems := Compile(bankFS, q)
	if len(problems) > 0 {
		t.Fatalf("the draft does not compile: %v", problems)
	}
	for _, c := range cq.SelfCheck(en) {
		if !c.Pass() {
			t.Errorf("self-check: option %s scores %d on %q", c.Letter, c.Band, c.Text)
		}
	}
}
