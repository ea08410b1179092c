package examsim

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The synthetic answers of six respondents to three items (keys A, B, C;
// options A-D), and their statistics worked out by hand.
//
//	      Q1(A)  Q2(B)  Q3(C)   right
//	r1    A ✓    B ✓    D ✗     2/3
//	r2    B ✗    B ✓    C ✓     2/3
//	r3    A ✓    B ✓    D ✗     2/3
//	r4    A ✓    D ✗    C ✓     2/3
//	r5    C ✗    A ✗    B ✗     0/3
//	r6    C ✗    C ✗    B ✗     0/3   (and a later Q1 A ✓, a retry: ignored)
var synthetic = []Response{
	{"r1", "Q1", "A", true}, {"r1", "Q2", "B", true}, {"r1", "Q3", "D", false},
	{"r2", "Q1", "B", false}, {"r2", "Q2", "B", true}, {"r2", "Q3", "C", true},
	{"r3", "Q1", "A", true}, {"r3", "Q2", "B", true}, {"r3", "Q3", "D", false},
	{"r4", "Q1", "A", true}, {"r4", "Q2", "D", false}, {"r4", "Q3", "C", true},
	{"r5", "Q1", "C", false}, {"r5", "Q2", "A", false}, {"r5", "Q3", "B", false},
	{"r6", "Q1", "C", false}, {"r6", "Q2", "C", false}, {"r6", "Q3", "B", false},
	{"r6", "Q1", "A", true},
}

func keys(ids ...string) []ItemKey {
	var out []ItemKey
	for i, id := range ids {
		out = append(out, ItemKey{ID: id, Answer: string(rune('A' + i%4)), Options: []string{"A", "B", "C", "D"}})
	}
	return out
}

func TestItemStatsOnSyntheticAnswers(t *testing.T) {
	got := ComputeItemStats(keys("Q1", "Q2", "Q3"), synthetic)
	// Q1: x = 1 0 1 1 0 0; rest (right elsewhere / 2) = .5 1 .5 .5 0 0.
	// mean x = .5, mean y = 2.5/6; cov = Σxy - n·mx·my = 1.5 - 1.25 = .25;
	// Σ(x-mx)² = 1.5; Σ(y-my)² = 1.75 - 6·(2.5/6)² = 0.708333;
	// r = .25/√(1.5·0.708333) = .25/√1.0625 = 0.242536.
	// Groups: ceil(.27·6) = 2. Strongest r2 (1), r1 (.5, first of the ties
	// by name); weakest r6, r5. Strong picks A and B, weak C and C.
	q1r := 0.25 / math.Sqrt(1.0625)
	// Q2: x = 1 1 1 0 0 0; rest = .5 .5 .5 1 0 0: the same sums, r = 0.242536.
	// Strong r4 (D), r1 (B); weak r6 (C), r5 (A).
	// Q3: x = 0 1 0 1 0 0; rest = 1 .5 1 .5 0 0; mean x = 1/3, mean y = .5;
	// cov = Σxy - n·mx·my = 1 - 1 = 0: r = 0. Strong r1, r3 both chose D,
	// weak r5, r6 both B; nobody chose A.
	want := []ItemStats{
		{ID: "Q1", Respondents: 6, Correct: 3, Discrimination: q1r, StrongN: 2, WeakN: 2,
			Options: []OptionStats{{"A", true, 3, 1, 0}, {"B", false, 1, 1, 0}, {"C", false, 2, 0, 2}, {"D", false, 0, 0, 0}},
			Flags:   []ItemFlag{FlagUnusedDistractor}, UnusedOptions: []string{"D"}},
		{ID: "Q2", Respondents: 6, Correct: 3, Discrimination: q1r, StrongN: 2, WeakN: 2,
			Options: []OptionStats{{"A", false, 1, 0, 1}, {"B", true, 3, 1, 0}, {"C", false, 1, 0, 1}, {"D", false, 1, 1, 0}}},
		{ID: "Q3", Respondents: 6, Correct: 2, Discrimination: 0, StrongN: 2, WeakN: 2,
			Options:       []OptionStats{{"A", false, 0, 0, 0}, {"B", false, 2, 0, 2}, {"C", true, 2, 0, 0}, {"D", false, 2, 2, 0}},
			Flags:         []ItemFlag{FlagLowDiscrimination, FlagUnusedDistractor, FlagStrongPickWrong},
			UnusedOptions: []string{"A"}, StrongPickOptions: []string{"D"}},
	}
	approx := cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) < 1e-9 || (math.IsNaN(a) && math.IsNaN(b)) })
	if diff := cmp.Diff(want, got, approx); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
	if f := got[2].Facility(); math.Abs(f-1.0/3) > 1e-12 {
		t.Errorf("Q3 facility %v, want 1/3", f)
	}
}

func TestItemStatsFlagEasyHardAndFewAnswers(t *testing.T) {
	var rs []Response
	for _, who := range []string{"a", "b", "c", "d", "e"} {
		rs = append(rs, Response{who, "easy", "A", true}, Response{who, "hard", "A", false})
	}
	rs = append(rs, Response{"a", "rare", "B", false}) // one answer: never flagged
	got := ComputeItemStats(keys("easy", "hard", "rare"), rs)
	// easy: 5 of 5 right (1.0 > .9); hard: key B, 0 of 5 (< .2). Each
	// respondent's rest score is 0 on "easy" (they all missed "hard") and 1 on
	// "hard": constant, so no discrimination is computed. On "hard" the
	// strong group (ceil(.27·5) = 2) both chose A over the key.
	if diff := cmp.Diff([]ItemFlag{FlagTooEasy, FlagUnusedDistractor}, got[0].Flags); diff != "" {
		t.Errorf("easy: %s", diff)
	}
	if diff := cmp.Diff([]ItemFlag{FlagTooHard, FlagUnusedDistractor, FlagStrongPickWrong}, got[1].Flags); diff != "" {
		t.Errorf("hard: %s", diff)
	}
	if !math.IsNaN(got[0].Discrimination) || got[2].Flags != nil || got[2].Respondents != 1 {
		t.Errorf("easy r = %v; rare = %+v", got[0].Discrimination, got[2])
	}
}
