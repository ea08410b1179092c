package scoring

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim"
)

// A rubric's patterns are compiled on first use; requests score the same
// rubric at once, so the first use may be concurrent (run with -race).
func TestLazyPatternsScoreAlikeWhenFirstUsedConcurrently(t *testing.T) {
	rubric := func() *Rubric {
		return &Rubric{Version: 2, Lang: examsim.English, Answer: "A",
			Concepts: []Concept{
				{ID: "retry", Role: Decisive, Weight: 3, Patterns: []*Pattern{mustPattern(t, "{!neg} retry* later")}},
				{ID: "permission", Role: Supporting, Weight: 2, Patterns: []*Pattern{mustPattern(t, "permission|access denied")}},
			},
			Misconceptions: []Misconception{{ID: "forever", Penalty: 40, Patterns: []*Pattern{mustPattern(t, "retry* forever ~4")}}},
		}
	}
	scoresAlikeWhenFirstUsedConcurrently(t, rubric, "It is a transient error, so retry it later; it is not a permission problem.", 1)
}

// scoresAlikeWhenFirstUsedConcurrently scores text with a fresh rubric, then
// with another fresh one from 8 goroutines at once (its first use), and
// wants the same result each time; the serial score must hit the first hits
// concepts, so the comparison is of a real score.
func scoresAlikeWhenFirstUsedConcurrently(t *testing.T, rubric func() *Rubric, text string, hits int) {
	t.Helper()
	want, err := rubric().Score(text)
	if err != nil {
		t.Fatal(err)
	}
	for i := range hits {
		if !want.Concepts[i].Hit {
			t.Fatalf("the serial score misses concept %s: %+v", want.Concepts[i].ID, want)
		}
	}
	shared := rubric()
	got := make([]Result, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i], _ = shared.Score(text) })
	}
	wg.Wait()
	for i := range got {
		if diff := cmp.Diff(want, got[i]); diff != "" {
			t.Errorf("concurrent score %d differs (-serial +concurrent):\n%s", i, diff)
		}
	}
}

// CompilePattern still reports a bad pattern at load, before any use.
func TestCompilePatternChecksSyntaxWithoutCompiling(t *testing.T) {
	if _, err := CompilePattern("retry||later"); err == nil {
		t.Error("CompilePattern accepted an empty alternative")
	}
	p := mustPattern(t, "retry* later")
	if p.slots != nil {
		t.Error("CompilePattern kept compiled slots: they should wait for the first match")
	}
	if len(p.compiled().slots) != 2 {
		t.Errorf("compiled pattern has %d slots, want 2", len(p.compiled().slots))
	}
}

// The syntax check skips tokenize for plain words; that is only sound if
// tokenize accepts every plain word: at least one token, no sentence end.
func TestPlainWordNeedsNoTokenizer(t *testing.T) {
	for _, body := range plainWordSeeds {
		checkPlainWord(t, body)
	}
}

func FuzzPlainWordNeedsNoTokenizer(f *testing.F) {
	for _, s := range plainWordSeeds {
		f.Add(s)
	}
	f.Fuzz(checkPlainWord)
}

var plainWordSeeds = []string{
	"retry", "isError", "re-try", "can't", "don’t", "thử_lại", "không", "ponów", "błąd",
	"ลองใหม่", "ๆ", "\u0e31", "e\u0301", "\u0301", "-", "_", "'", "403", "x-1", "a.b", "e.g.",
	"a;b", "\xff", "a\u200db", "Ａ", "²",
}

func checkPlainWord(t *testing.T, body string) {
	if !plainWord(body) {
		return
	}
	toks := tokenize(nil, body)
	if len(toks) == 0 {
		t.Fatalf("plainWord(%q) is true, but tokenize finds no token", body)
	}
	for i := 1; i < len(toks); i++ {
		if toks[i].pos-toks[i-1].pos >= sentenceBreak {
			t.Fatalf("plainWord(%q) is true, but tokenize finds a sentence end", body)
		}
	}
}
