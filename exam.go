package examsim

import (
	"context"
	"math/rand/v2"
	"time"
)

// Exam defaults. They mirror the tool-design-and-MCP section of the
// certification exam: about 18% of its 60 questions in 120 minutes is 11
// questions at two minutes each, and its pass line of 720 of 1000 is 72%.
const (
	DefaultExamQuestions = 11
	DefaultExamMinutes   = 22
	DefaultPassMark      = 72
	MaxExamQuestions     = 200
	MaxExamMinutes       = 300
)

// Exam is one timed exam attempt: a fixed, shuffled set of questions, a
// deadline the server enforces, and, once submitted, a result.
type Exam struct {
	ID         int64
	LearnerID  int64
	Lang       Lang     // the language the exam was started in
	Topics     []string // the topics the questions came from
	Concept    string   // only questions on this concept; "" for all
	MissedOnly bool     // only questions missed recently
	// Blueprint: the questions were drawn per objective by the objectives'
	// weights (exam.Blueprint), and results report a scaled score.
	Blueprint bool
	PassMark  int   // percent of questions right needed to pass
	Seed      int64 // the seed the questions and options were shuffled with
	StartedAt time.Time
	Deadline  time.Time
	// SubmittedAt is zero while the exam runs. An exam submitted because
	// time ran out is AutoSubmitted and SubmittedAt is its deadline.
	SubmittedAt   time.Time
	AutoSubmitted bool
	Correct       int
	Items         []*ExamItem // in the order shown
}

// ExamItem is one question of an exam, the learner's answer to it and,
// after submission, its result.
type ExamItem struct {
	Position int // 1-based, in the order shown
	// Options holds the question's own option letters in the order shown:
	// the option shown as A is Options[0]. Choice and the answer key always
	// use the question's own letters, so shuffling never changes the key.
	Options []string
	// Answer's Choice is the question's own letter, "" while unanswered;
	// Correct and Verdict are set on submission, from the attempt recorded.
	Answer
	Flagged    bool
	AnsweredAt time.Time
	AttemptID  int64 // the attempt recorded for this answer; 0 if unanswered
}

// Submitted reports whether the exam has been submitted.
func (e *Exam) Submitted() bool { return !e.SubmittedAt.IsZero() }

// Expired reports whether the exam's time is up at now.
func (e *Exam) Expired(now time.Time) bool { return !now.Before(e.Deadline) }

// Open reports whether answers are still accepted at now.
func (e *Exam) Open(now time.Time) bool { return !e.Submitted() && !e.Expired(now) }

// Remaining returns the time left at now, never negative.
func (e *Exam) Remaining(now time.Time) time.Duration { return max(e.Deadline.Sub(now), 0) }

// Item returns the item at a 1-based position.
func (e *Exam) Item(pos int) (*ExamItem, bool) {
	if pos < 1 || pos > len(e.Items) {
		return nil, false
	}
	return e.Items[pos-1], true
}

// Percent returns the share of questions answered right, rounded down, so a
// shown 72% never hides a 71.9% that failed.
func (e *Exam) Percent() int {
	if len(e.Items) == 0 {
		return 0
	}
	return 100 * e.Correct / len(e.Items)
}

// Passed reports whether the exam reached its pass mark. It compares exact
// fractions, not the rounded percent.
func (e *Exam) Passed() bool { return 100*e.Correct >= e.PassMark*len(e.Items) && len(e.Items) > 0 }

// ScaledScore is the result on the real exam's 100–1000 scale, on which a
// pass mark of 72% is 720: a thousand times the share right, rounded down,
// never below 100.
func (e *Exam) ScaledScore() int {
	if len(e.Items) == 0 {
		return 100
	}
	return max(100, 1000*e.Correct/len(e.Items))
}

// ScaledPass is the pass mark on the 100–1000 scale.
func (e *Exam) ScaledPass() int { return 10 * e.PassMark }

// Wrong returns the question ids answered wrongly or not at all, in the
// order shown: what "retry only the ones I got wrong" sits again.
func (e *Exam) Wrong() []string {
	var out []string
	for _, it := range e.Items {
		if !it.Correct {
			out = append(out, it.QuestionID)
		}
	}
	return out
}

// QuestionIDs returns the exam's question ids in the order shown.
func (e *Exam) QuestionIDs() []string {
	out := make([]string, len(e.Items))
	for i, it := range e.Items {
		out[i] = it.QuestionID
	}
	return out
}

// Unanswered returns the items without an answer, in order.
func (e *Exam) Unanswered() []*ExamItem {
	var out []*ExamItem
	for _, it := range e.Items {
		if !it.Answered() {
			out = append(out, it)
		}
	}
	return out
}

// Flagged returns the items flagged for review, in order.
func (e *Exam) Flagged() []*ExamItem {
	var out []*ExamItem
	for _, it := range e.Items {
		if it.Flagged {
			out = append(out, it)
		}
	}
	return out
}

// Answered reports whether the learner picked an option.
func (it *ExamItem) Answered() bool { return it.Choice != "" }

// ShownLetter returns the letter an option of the question (by its own
// letter) is shown under, or "".
func (it *ExamItem) ShownLetter(own string) string {
	for i, l := range it.Options {
		if l == own {
			return ShownLetter(i)
		}
	}
	return ""
}

// OwnLetter returns the question's own letter of the option shown under
// shown, or false for a letter not shown.
func (it *ExamItem) OwnLetter(shown string) (string, bool) {
	for i, l := range it.Options {
		if ShownLetter(i) == shown {
			return l, true
		}
	}
	return "", false
}

// ShownLetter returns the letter shown for the i-th option (0-based): A, B…
func ShownLetter(i int) string { return string(rune('A' + i)) } // #nosec G115 -- i is an option index, at most 5

// ShuffleExam picks up to n of the pool's questions and shuffles them and
// each one's options with seed, so the same seed always gives the same exam.
// options returns a question's own option letters in their own order.
func ShuffleExam(seed int64, pool []string, n int, options func(id string) []string) []*ExamItem {
	// #nosec G115 G404 -- the seed's bits, reinterpreted; a reproducible
	// shuffle of what the learner is shown anyway, not a secret.
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(seed)^0x9e3779b97f4a7c15))
	ids := append([]string(nil), pool...)
	rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	n = min(max(n, 0), len(ids))
	items := make([]*ExamItem, n)
	for i, id := range ids[:n] {
		letters := append([]string(nil), options(id)...)
		rng.Shuffle(len(letters), func(a, b int) { letters[a], letters[b] = letters[b], letters[a] })
		items[i] = &ExamItem{Position: i + 1, Answer: Answer{QuestionID: id}, Options: letters}
	}
	return items
}

// ConceptStat sums answers on one concept.
type ConceptStat struct {
	Concept   string
	Answered  int // answers given, right or wrong
	Correct   int
	Explained int // answers with an explanation
	BandSum   int // the sum of the explained answers' bands
}

// Add counts one answer.
func (s *ConceptStat) Add(correct, explained bool, band int) {
	s.Answered++
	if correct {
		s.Correct++
	}
	if explained {
		s.Explained++
		s.BandSum += band
	}
}

// Accuracy returns the share of right answers in percent, rounded down.
func (s ConceptStat) Accuracy() int {
	if s.Answered == 0 {
		return 0
	}
	return 100 * s.Correct / s.Answered
}

// AverageBand returns the mean explanation band, or -1 with no explanations.
func (s ConceptStat) AverageBand() float64 {
	if s.Explained == 0 {
		return -1
	}
	return float64(s.BandSum) / float64(s.Explained)
}

// ExamService stores exams.
type ExamService interface {
	// CreateExam stores a new exam with its items and sets its ID.
	CreateExam(ctx context.Context, e *Exam) error
	// FindExam returns an exam with its items.
	FindExam(ctx context.Context, id int64) (*Exam, error)
	// ListExams returns a learner's exams with their items, newest first.
	ListExams(ctx context.Context, learnerID int64, limit int) ([]*Exam, error)
	// SaveExamAnswer stores an item's answer and flag. It refuses with
	// ECONFLICT once the exam is submitted or its deadline has passed at now.
	SaveExamAnswer(ctx context.Context, examID int64, it *ExamItem, now time.Time) error
	// SubmitExam stores a scored exam: its result, each item's result, and
	// an attempt for each answered item (Source exam). It refuses with
	// ECONFLICT if the exam was already submitted.
	SubmitExam(ctx context.Context, e *Exam) error
}
