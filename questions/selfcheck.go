package questions

import (
	"html"
	"regexp"
	"strings"

	"github.com/examsim/examsim"
)

// SelfCheck is one check of a rubric against its own question (FORMAT.md,
// "Checking a rubric against its own question"): an option written as a
// learner's explanation, and the band it got.
type SelfCheck struct {
	Letter string
	Keyed  bool
	Text   string // what was scored
	Band   int
}

// Pass reports whether the band is what the option calls for: 2 or 3 for
// the key, 0 for a distractor.
func (c SelfCheck) Pass() bool {
	if c.Keyed {
		return c.Band >= 2
	}
	return c.Band == 0
}

// SelfCheck scores the question's own options with its rubric in lang: the
// keyed option's text followed by its explanation (its verdict word
// dropped), and each distractor's text, which states its claim. It returns
// nothing when the question has no rubric in lang.
func (q *Question) SelfCheck(lang examsim.Lang) []SelfCheck {
	tx := q.Text(lang)
	if tx == nil || tx.Rubric() == nil || len(tx.Rubric().Concepts) == 0 {
		return nil
	}
	var out []SelfCheck
	for _, o := range tx.Options {
		c := SelfCheck{Letter: o.Letter, Keyed: o.Letter == q.Answer, Text: plainHTML(o.HTML())}
		if c.Keyed {
			c.Text += " " + DropVerdict(plainHTML(o.ExplanationHTML()))
		}
		res, err := tx.Rubric().Score(c.Text)
		if err != nil {
			c.Band = -1 // too long to score: fails either way
		} else {
			c.Band = res.Band
		}
		out = append(out, c)
	}
	return out
}

var htmlTags = regexp.MustCompile(`<[^>]*>`)

// plainHTML turns rendered bank HTML back into the words a learner reads.
func plainHTML(h string) string {
	return strings.Join(strings.Fields(html.UnescapeString(htmlTags.ReplaceAllString(h, " "))), " ")
}

// DropVerdict removes an explanation's opening verdict ("Right.", "Sai.",
// "Dobrze.", "ถูก"): a learner's explanation gives reasons, not a mark.
func DropVerdict(s string) string {
	if i := strings.IndexAny(s, ".!"); i >= 0 && i < 20 && len(strings.Fields(s[:i])) <= 2 {
		return strings.TrimSpace(s[i+1:])
	}
	if f := strings.Fields(s); len(f) > 1 && len([]rune(f[0])) <= 4 {
		return strings.Join(f[1:], " ") // Thai "ถูก ..." without a full stop
	}
	return s
}
