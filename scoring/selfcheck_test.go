package scoring_test

import (
	"html"
	"regexp"
	"strings"
	"testing"
)

var tags = regexp.MustCompile(`<[^>]*>`)

// plainText turns an option's HTML back into the words a learner reads.
func plainText(h string) string {
	return strings.Join(strings.Fields(html.UnescapeString(tags.ReplaceAllString(h, " "))), " ")
}

// dropVerdict removes the explanation's opening verdict ("Right.", "Sai.",
// "Dobrze.", "ถูก"): a learner's explanation gives reasons, not a mark.
func dropVerdict(s string) string {
	if i := strings.IndexAny(s, ".!"); i >= 0 && i < 20 && len(strings.Fields(s[:i])) <= 2 {
		return strings.TrimSpace(s[i+1:])
	}
	if f := strings.Fields(s); len(f) > 1 && len([]rune(f[0])) <= 4 {
		return strings.Join(f[1:], " ") // Thai "ถูก ..." without a full stop
	}
	return s
}

// TestRubricSelfConsistency checks every rubric against its own question, in
// every language. Written as a learner's explanation:
//   - the keyed option's text followed by its explanation (verdict word
//     dropped) must score band 2 or 3;
//   - each distractor's text, which states that option's claim and often its
//     tempting reason, must score band 0.
//
// The texts are taken mechanically from the option and its explanation.
func TestRubricSelfConsistency(t *testing.T) {
	bank := loadBank(t)
	failures, checks, vague := 0, 0, 0
	for _, q := range bank.Questions {
		for _, lang := range bank.Langs() {
			tx := q.Text(lang)
			if tx == nil {
				continue
			}
			for _, o := range tx.Options {
				var text string
				if o.Letter == q.Answer {
					text = plainText(o.HTML) + " " + dropVerdict(plainText(o.ExplanationHTML))
				} else {
					text = plainText(o.HTML)
				}
				res, err := tx.Rubric.Score(text)
				if err != nil {
					t.Fatal(err)
				}
				checks++
				keyed := o.Letter == q.Answer
				failing := (keyed && res.Band < 2) || (!keyed && res.Band != 0)
				if !failing {
					continue
				}
				failures++
				switch {
				case keyed:
					t.Errorf("%s [%s] keyed %s scores band %d, want 2 or 3: %q", q.ID, lang, o.Letter, res.Band, text)
				default:
					if res.Band == 1 {
						vague++
					}
					t.Errorf("%s [%s] distractor %s scores band %d, want 0: %q", q.ID, lang, o.Letter, res.Band, text)
				}
			}
		}
	}
	t.Logf("%d of %d self-consistency checks fail (%d of them distractor claims scoring 1: on topic, their misconception not recognised)", failures, checks, vague)
}
