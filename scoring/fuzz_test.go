package scoring

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/examsim/examsim"
)

// FuzzScore checks that no input, however broken, panics the scorer, and that
// only over-long input is refused. `go test` runs the seed corpus; run
// `go test -fuzz FuzzScore ./scoring` to search further.
func FuzzScore(f *testing.F) {
	seeds := []string{
		"",
		"It is a valid empty result, so retrying won't help.",
		"\xff\xfe\xfd invalid \xc3\x28 utf-8",
		"מדובר בשגיאה זמנית \u200fretry\u200f עזרה", // right-to-left with marks
		"ไม่\u200dควร\u200b retry",                  // zero-width joiner and space
		"isRetryable_FALSE__attempted__query",
		strings.Repeat("retry ", 700),
		strings.Repeat("ไม่", 1400),
		"\u0301\u0301 combining marks first",
		strings.Repeat("a", MaxExplanation+1),
	}
	for _, s := range seeds {
		f.Add(s)
	}
	rubrics := map[examsim.Lang]*Rubric{}
	for _, l := range examsim.Langs {
		rubrics[l] = rubricFor(f, l, "valid empty|ผลลัพธ์ว่าง", "{neg} retr*|ponow*|thử_lại", "answer_d", "{!neg} more retr* ~3")
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, r := range rubrics {
			res, err := r.Score(text)
			over := utf8.RuneCountInString(text) > MaxExplanation
			if over != (err != nil) {
				t.Fatalf("len %d: err = %v", utf8.RuneCountInString(text), err)
			}
			if err == nil && (res.Score < 0 || res.Score > 100 || res.Band < 0 || res.Band > 3) {
				t.Fatalf("out of range: %+v", res)
			}
		}
	})
}

func TestOneMegabyteIsRefusedQuickly(t *testing.T) {
	r := rubricFor(t, examsim.English, "a", "b", "c", "d")
	if _, err := r.Score(strings.Repeat("retry ", 1<<20/6)); examsim.ErrorCode(err) != examsim.ETOOLARGE {
		t.Fatalf("1 MB input: err = %v", err)
	}
}
