package questions_test

import (
	"strings"
	"testing"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/scoring"
)

// TestOneRuleForAnAnswer: practice, exams and class accept the same answers.
func TestOneRuleForAnAnswer(t *testing.T) {
	fsys, name := questions.Embedded()
	bank, problems := questions.Load(fsys, name)
	if len(problems) > 0 {
		t.Fatal(problems.Error())
	}
	q, _ := bank.Question("empty-result-retry-loop")
	tx := q.Text(examsim.English)
	long := strings.Repeat("x", scoring.MaxExplanation+1)
	tests := []struct {
		name, choice, explanation string
		open                      bool
		want                      examsim.Code
	}{
		{"a letter and a short explanation", q.Answer, "because", false, ""},
		{"no explanation", "A", "", false, ""},
		{"no choice", "", "because", false, examsim.EINVALID},
		{"no choice, where an answer may stay open", "", "because", true, ""},
		{"a letter the question lacks", "Z", "because", true, examsim.EINVALID},
		{"too long", "A", long, false, examsim.ETOOLARGE},
		{"too long, open", "", long, true, examsim.ETOOLARGE},
	}
	for _, tt := range tests {
		err := tx.CheckAnswer(tt.choice, tt.explanation, tt.open)
		if got := examsim.Code(""); err != nil {
			got = examsim.ErrorCode(err)
			if got != tt.want {
				t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
			}
		} else if tt.want != "" {
			t.Errorf("%s: accepted, want %q", tt.name, tt.want)
		}
	}
}
