package examsim_test

import (
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim"
)

func fourOptions(string) []string { return []string{"A", "B", "C", "D"} }

func pool(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = string(rune('a'+i)) + "-question"
	}
	return out
}

func TestShuffleExamIsSeededAndComplete(t *testing.T) {
	p := pool(20)
	a := examsim.ShuffleExam(42, p, 11, fourOptions)
	b := examsim.ShuffleExam(42, p, 11, fourOptions)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("the same seed gave different exams (-first +second):\n%s", diff)
	}
	if len(a) != 11 {
		t.Fatalf("%d items, want 11", len(a))
	}
	seen := map[string]bool{}
	for i, it := range a {
		if it.Position != i+1 {
			t.Errorf("item %d has position %d", i, it.Position)
		}
		if seen[it.QuestionID] || !slices.Contains(p, it.QuestionID) {
			t.Errorf("question %q repeated or not from the pool", it.QuestionID)
		}
		seen[it.QuestionID] = true
		sorted := slices.Sorted(slices.Values(it.Options))
		if !slices.Equal(sorted, []string{"A", "B", "C", "D"}) {
			t.Errorf("%s: options %v are not a permutation of A-D", it.QuestionID, it.Options)
		}
	}

	// Different seeds shuffle differently: questions and options.
	c := examsim.ShuffleExam(43, p, 11, fourOptions)
	if cmp.Equal(a, c) {
		t.Error("seeds 42 and 43 gave the same exam")
	}
	moved := 0
	for _, it := range examsim.ShuffleExam(7, p, 20, fourOptions) {
		if !slices.Equal(it.Options, []string{"A", "B", "C", "D"}) {
			moved++
		}
	}
	if moved < 10 {
		t.Errorf("only %d of 20 questions had their options shuffled", moved)
	}

	// Asking for more than the pool gives the pool; none gives none.
	if got := examsim.ShuffleExam(1, p[:3], 10, fourOptions); len(got) != 3 {
		t.Errorf("a pool of 3 gave %d items", len(got))
	}
	if got := examsim.ShuffleExam(1, p, 0, fourOptions); len(got) != 0 {
		t.Errorf("0 questions gave %d items", len(got))
	}
}

// The shown letter and the question's own letter map both ways, so the key
// (always an own letter) and each option's explanation follow the shuffle.
func TestShownAndOwnLettersMapBothWays(t *testing.T) {
	it := &examsim.ExamItem{Options: []string{"C", "A", "D", "B"}}
	tests := []struct{ shown, own string }{{"A", "C"}, {"B", "A"}, {"C", "D"}, {"D", "B"}}
	for _, tt := range tests {
		if got, ok := it.OwnLetter(tt.shown); !ok || got != tt.own {
			t.Errorf("OwnLetter(%s) = %q, %v; want %q", tt.shown, got, ok, tt.own)
		}
		if got := it.ShownLetter(tt.own); got != tt.shown {
			t.Errorf("ShownLetter(%s) = %q; want %q", tt.own, got, tt.shown)
		}
	}
	if _, ok := it.OwnLetter("E"); ok {
		t.Error("E is not shown but maps to an option")
	}
	if got := it.ShownLetter("Z"); got != "" {
		t.Errorf("ShownLetter(Z) = %q", got)
	}
	// Every seed: the answer key round-trips through the shown letter.
	for seed := int64(0); seed < 200; seed++ {
		for _, it := range examsim.ShuffleExam(seed, pool(4), 4, fourOptions) {
			for _, key := range []string{"A", "B", "C", "D"} {
				if own, _ := it.OwnLetter(it.ShownLetter(key)); own != key {
					t.Fatalf("seed %d: key %s shown as %s maps back to %s", seed, key, it.ShownLetter(key), own)
				}
			}
		}
	}
}

func TestExamTiming(t *testing.T) {
	start := time.Date(2026, 5, 14, 9, 0, 0, 0, time.UTC)
	e := &examsim.Exam{StartedAt: start, Deadline: start.Add(22 * time.Minute)}
	tests := []struct {
		at        time.Duration
		open      bool
		remaining time.Duration
	}{
		{0, true, 22 * time.Minute},
		{21*time.Minute + 59*time.Second, true, time.Second},
		{22 * time.Minute, false, 0}, // the deadline itself is too late
		{23 * time.Minute, false, 0},
	}
	for _, tt := range tests {
		now := start.Add(tt.at)
		if got := e.Open(now); got != tt.open {
			t.Errorf("at +%v: Open = %v, want %v", tt.at, got, tt.open)
		}
		if got := e.Remaining(now); got != tt.remaining {
			t.Errorf("at +%v: Remaining = %v, want %v", tt.at, got, tt.remaining)
		}
	}
	e.SubmittedAt = start.Add(time.Minute)
	if e.Open(start.Add(2 * time.Minute)) {
		t.Error("a submitted exam is still open")
	}
}

func TestPassMarkComparesExactly(t *testing.T) {
	items := func(n int) []*examsim.ExamItem { return make([]*examsim.ExamItem, n) }
	tests := []struct {
		correct, total, mark int
		percent              int
		passed               bool
	}{
		{8, 11, 72, 72, true},     // 72.7%
		{18, 25, 72, 72, true},    // exactly 72%
		{71, 99, 72, 71, false},   // 71.7%: shown as 71, fails
		{179, 250, 72, 71, false}, // 71.6%
		{0, 0, 72, 0, false},      // no questions never passes
		{5, 5, 100, 100, true},
	}
	for _, tt := range tests {
		e := &examsim.Exam{Correct: tt.correct, PassMark: tt.mark, Items: items(tt.total)}
		if e.Percent() != tt.percent || e.Passed() != tt.passed {
			t.Errorf("%d/%d at %d%%: percent %d passed %v, want %d %v", tt.correct, tt.total, tt.mark,
				e.Percent(), e.Passed(), tt.percent, tt.passed)
		}
	}
}

func TestUnansweredAndFlagged(t *testing.T) {
	e := &examsim.Exam{Items: []*examsim.ExamItem{
		{Position: 1, Answer: examsim.Answer{Choice: "A"}}, {Position: 2, Flagged: true}, {Position: 3, Answer: examsim.Answer{Choice: "B"}, Flagged: true}, {Position: 4},
	}}
	positions := func(items []*examsim.ExamItem) []int {
		var out []int
		for _, it := range items {
			out = append(out, it.Position)
		}
		return out
	}
	if diff := cmp.Diff([]int{2, 4}, positions(e.Unanswered())); diff != "" {
		t.Errorf("unanswered (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{2, 3}, positions(e.Flagged())); diff != "" {
		t.Errorf("flagged (-want +got):\n%s", diff)
	}
	if _, ok := e.Item(0); ok {
		t.Error("Item(0) exists")
	}
	if it, ok := e.Item(4); !ok || it.Position != 4 {
		t.Error("Item(4) missing")
	}
}

func TestConceptStat(t *testing.T) {
	var s examsim.ConceptStat
	if s.Accuracy() != 0 || s.AverageBand() != -1 {
		t.Errorf("empty stat: %d %v", s.Accuracy(), s.AverageBand())
	}
	s.Add(true, true, 3)
	s.Add(false, true, 0)
	s.Add(true, false, 0)
	if s.Accuracy() != 66 || s.AverageBand() != 1.5 {
		t.Errorf("stat: accuracy %d band %v, want 66 1.5", s.Accuracy(), s.AverageBand())
	}
}
