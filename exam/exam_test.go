package exam_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/exam"
	"github.com/examsim/examsim/questions"
)

func embeddedBank(t *testing.T) *questions.Bank {
	t.Helper()
	bank, problems := questions.Load(questions.Embedded())
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	return bank
}

// wrongChoice returns an option letter of q that is not its answer.
func wrongChoice(t *testing.T, q *questions.Question) string {
	t.Helper()
	for _, o := range q.In(examsim.English).Options {
		if o.Letter != q.Answer {
			return o.Letter
		}
	}
	t.Fatalf("%s has no wrong option", q.ID)
	return ""
}

func TestScoreItem(t *testing.T) {
	bank := embeddedBank(t)
	q := bank.Questions[0]
	const explanation = "The tool should return isError with a validation category and say it is not retryable."
	// A Polish explanation the Polish rubric scores differently from the
	// English one, so scoring in the wrong language shows.
	scoredIn := func(lang examsim.Lang, text string) examsim.Verdict {
		tx := q.In(lang)
		res, err := tx.Rubric().Score(text)
		if err != nil {
			t.Fatal(err)
		}
		return res.Verdict(tx.Rubric().Version)
	}
	polishText := ""
	for _, o := range q.In(examsim.Polish).Options {
		if cmp.Diff(scoredIn(examsim.Polish, o.Markdown), scoredIn(examsim.English, o.Markdown)) != "" {
			polishText = o.Markdown
			break
		}
	}
	if polishText == "" {
		t.Fatalf("%s: no Polish option text scores differently in Polish and English", q.ID)
	}
	scoredInPolish := scoredIn(examsim.Polish, polishText)
	stale := examsim.Verdict{Band: 3, Misconceptions: []string{"stale"}, RubricVersion: 9}

	tests := []struct {
		name        string
		item        examsim.ExamItem
		wantCorrect bool
		wantVerdict examsim.Verdict
	}{
		{"right, no explanation", examsim.ExamItem{Answer: examsim.Answer{QuestionID: q.ID, Choice: q.Answer, Verdict: stale}}, true, examsim.Verdict{}},
		{"wrong", examsim.ExamItem{Answer: examsim.Answer{QuestionID: q.ID, Choice: wrongChoice(t, q)}}, false, examsim.Verdict{}},
		{"unanswered keeps no old score", examsim.ExamItem{Answer: examsim.Answer{QuestionID: q.ID, Explanation: explanation, Verdict: stale}}, false, examsim.Verdict{}},
		{"removed from the bank", examsim.ExamItem{Answer: examsim.Answer{QuestionID: "no-such-question", Choice: "A", Verdict: stale}}, false, examsim.Verdict{}},
		{"explained in Polish is scored with the Polish rubric",
			examsim.ExamItem{Answer: examsim.Answer{QuestionID: q.ID, Choice: q.Answer, Lang: examsim.Polish, Explanation: polishText}}, true, scoredInPolish},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			it := tt.item
			if err := exam.ScoreItem(bank, &it); err != nil {
				t.Fatal(err)
			}
			if it.Correct != tt.wantCorrect {
				t.Errorf("Correct = %v, want %v", it.Correct, tt.wantCorrect)
			}
			if diff := cmp.Diff(tt.wantVerdict, it.Verdict); diff != "" {
				t.Errorf("Verdict (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGrade(t *testing.T) {
	bank := embeddedBank(t)
	q0, q1 := bank.Questions[0], bank.Questions[1]
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	deadline := now.Add(-time.Minute)
	newExam := func() *examsim.Exam {
		return &examsim.Exam{Deadline: deadline, Correct: 7, Items: []*examsim.ExamItem{
			{Position: 1, Answer: examsim.Answer{QuestionID: q0.ID, Choice: q0.Answer}},
			{Position: 2, Answer: examsim.Answer{QuestionID: q1.ID, Choice: wrongChoice(t, q1)}},
			{Position: 3, Answer: examsim.Answer{QuestionID: q1.ID, Choice: q1.Answer}},
		}}
	}
	for _, tt := range []struct {
		name          string
		auto          bool
		wantSubmitted time.Time
	}{
		{"submitted by the learner", false, now},
		{"submitted when time ran out counts at the deadline", true, deadline},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newExam()
			if err := exam.Grade(bank, e, now, tt.auto); err != nil {
				t.Fatal(err)
			}
			if e.Correct != 2 {
				t.Errorf("Correct = %d, want 2", e.Correct)
			}
			if !e.SubmittedAt.Equal(tt.wantSubmitted) || e.AutoSubmitted != tt.auto {
				t.Errorf("SubmittedAt, AutoSubmitted = %v, %v; want %v, %v", e.SubmittedAt, e.AutoSubmitted, tt.wantSubmitted, tt.auto)
			}
		})
	}
}

func TestPool(t *testing.T) {
	qs := []*questions.Question{
		{ID: "a", Topic: "t1", Concepts: []string{"retry"}},
		{ID: "b", Topic: "t2", Concepts: []string{"retry", "empty"}},
		{ID: "c", Topic: "t1", Concepts: []string{"empty"}},
		{ID: "d", Topic: "t3"},
	}
	tests := []struct {
		name    string
		topics  []string
		concept string
		missed  map[string]bool
		want    []string
	}{
		{"topics in bank order", []string{"t2", "t1"}, "", nil, []string{"a", "b", "c"}},
		{"concept", []string{"t1", "t2"}, "empty", nil, []string{"b", "c"}},
		{"missed only", []string{"t1", "t2", "t3"}, "", map[string]bool{"d": true, "a": true}, []string{"a", "d"}},
		{"missed but none", []string{"t1"}, "", map[string]bool{}, nil},
		{"no topic", nil, "", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, exam.Pool(qs, tt.topics, tt.concept, tt.missed)); diff != "" {
				t.Errorf("Pool (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMissed(t *testing.T) {
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	attempts := []*examsim.Attempt{
		{Answer: examsim.Answer{QuestionID: "recent-wrong"}, CreatedAt: now.Add(-time.Hour)},
		{Answer: examsim.Answer{QuestionID: "recent-right", Correct: true}, CreatedAt: now.Add(-time.Hour)},
		{Answer: examsim.Answer{QuestionID: "old-wrong"}, CreatedAt: now.Add(-exam.MissedWindow - time.Hour)},
		{Answer: examsim.Answer{QuestionID: "edge-wrong"}, CreatedAt: now.Add(-exam.MissedWindow)},
	}
	want := map[string]bool{"recent-wrong": true}
	if diff := cmp.Diff(want, exam.Missed(attempts, now)); diff != "" {
		t.Errorf("Missed (-want +got):\n%s", diff)
	}
}
