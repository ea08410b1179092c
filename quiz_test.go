package examsim_test

import (
	"strings"
	"testing"

	"github.com/examsim/examsim"
)

func TestQuizValidate(t *testing.T) {
	valid := func() examsim.Quiz {
		return examsim.Quiz{Title: "Errors", QuestionIDs: []string{"a", "b"}, SecondsPerQuestion: 20,
			Scoring: examsim.ScoreCorrectness, Explanations: examsim.ExplainOptional}
	}
	many := make([]string, examsim.MaxQuizQuestions+1)
	for i := range many {
		many[i] = "q"
	}
	tests := []struct {
		name   string
		change func(q *examsim.Quiz)
		want   string // message id; "" for valid
	}{
		{"valid", func(q *examsim.Quiz) {}, ""},
		{"title at the limit in runes", func(q *examsim.Quiz) { q.Title = strings.Repeat("ł", examsim.MaxQuizTitle) }, ""},
		{"speed, required", func(q *examsim.Quiz) { q.Scoring, q.Explanations = examsim.ScoreSpeed, examsim.ExplainRequired }, ""},
		{"explanations off", func(q *examsim.Quiz) { q.Explanations = examsim.ExplainOff }, ""},
		{"empty title", func(q *examsim.Quiz) { q.Title = "" }, "class.error_title_length"},
		{"title too long", func(q *examsim.Quiz) { q.Title = strings.Repeat("a", examsim.MaxQuizTitle+1) }, "class.error_title_length"},
		{"no questions", func(q *examsim.Quiz) { q.QuestionIDs = nil }, "class.error_no_questions"},
		{"too many questions", func(q *examsim.Quiz) { q.QuestionIDs = many }, "class.error_too_many_questions"},
		{"seconds not offered", func(q *examsim.Quiz) { q.SecondsPerQuestion = 25 }, "class.error_bad_setting"},
		{"unknown scoring", func(q *examsim.Quiz) { q.Scoring = "luck" }, "class.error_bad_setting"},
		{"unknown explanations", func(q *examsim.Quiz) { q.Explanations = "" }, "class.error_bad_setting"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := valid()
			tt.change(&q)
			err := q.Validate()
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			e, ok := err.(*examsim.Error)
			if !ok {
				t.Fatalf("Validate() = %v, want an *examsim.Error", err)
			}
			if e.Code != examsim.EINVALID || e.MessageID != tt.want {
				t.Errorf("Validate() = %s %s, want %s %s", e.Code, e.MessageID, examsim.EINVALID, tt.want)
			}
		})
	}
}

func TestReadingSeconds(t *testing.T) {
	for _, c := range []struct{ words, want int }{
		{0, 30}, {10, 45}, {37, 45}, {38, 60}, {75, 60}, {76, 90}, {150, 90}, {151, 120}, {225, 120}, {300, 180}, {5000, 180},
	} {
		if got := examsim.ReadingSeconds(c.words); got != c.want {
			t.Errorf("ReadingSeconds(%d) = %d, want %d", c.words, got, c.want)
		}
	}
}
