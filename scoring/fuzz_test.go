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

// FuzzClauseReading checks the clause reader on any text: it never panics,
// every scope lies inside the text's words and runs forward, every word's
// byte offsets lie inside the text in order, and evidence spans are byte
// ranges of the text. `go test` runs the seed corpus; run
// `go test -fuzz FuzzClauseReading ./scoring` to search further.
func FuzzClauseReading(f *testing.F) {
	for _, s := range []string{
		"",
		"Retrying is not needed, because the query ran; instead of retrying, escalate.",
		"If it were transient, a retry would work. Presenting it as complete would only hide the gap.",
		"Không phải lỗi transient mà là lỗi business, nên không nên thử lại; nếu là timeout thì retry.",
		"Zamiast ponawiać, eskaluj. Ponawianie nie ma sensu, jeśli limit jest dzienny; tylko ukryłoby to lukę.",
		"ถ้าเป็น transient ก็ retry ได้ แต่นี่ไม่ใช่ retry ไม่ช่วย แทนที่จะ retry ให้ส่งต่อให้หัวหน้า",
		"Returning \"no contracts found\" like B is also fine (C) would also work „nie” «not»",
		"not not not , , ; ; if if if instead_of would only",
		"\xff\xfe (B) \u0301 nie\u200b ไม่\u200dควร",
		strings.Repeat("if not ", 600),
	} {
		f.Add(s)
	}
	r := rubricFor(f, examsim.English, "valid empty", "{neg} retr* help*", "answer_d", "{!neg} more retr*")
	r.Answer = "D"
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4*MaxExplanation {
			return
		}
		for _, lang := range examsim.Langs {
			x := indexText(text)
			rd := x.read(lang)
			last := 0
			for i, tk := range x.toks {
				if tk.start < last || tk.end < tk.start || tk.end > len(text) {
					t.Fatalf("[%s] token %d %q at %d-%d after %d in %d bytes", lang, i, tk.norm, tk.start, tk.end, last, len(text))
				}
				last = tk.start
			}
			for _, group := range [][]scope{rd.neg, rd.denying, rd.refuted, rd.consequence, rd.supposed, rd.hypothetical, rd.counterfactual} {
				for _, s := range group {
					if s.from < 0 || s.to >= len(x.toks) || s.from > s.to || s.cueFrom > s.cueTo {
						t.Fatalf("[%s] scope %+v out of %d tokens", lang, s, len(x.toks))
					}
				}
			}
			x.release()
			r.Lang = lang
			res, err := r.Score(text)
			if err != nil {
				continue
			}
			for _, c := range res.Concepts {
				for _, e := range c.Evidence {
					if e.Start < 0 || e.End > len(text) || e.Start >= e.End {
						t.Fatalf("[%s] evidence %+v out of %d bytes", lang, e, len(text))
					}
				}
			}
			if res.Confidence < 0 || res.Confidence > 1 {
				t.Fatalf("confidence %v", res.Confidence)
			}
		}
	})
}
