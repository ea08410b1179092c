package exchange

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
)

// DraftRubric proposes a rubric from the question itself, in every language
// it has: the key's explanation proposes the decisive concept (its first
// sentence the hint, its most distinctive words the pattern), and each
// distractor's claim a misconception (its explanation's first sentence the
// why, the words only it uses the pattern, which must not be negated). The
// teacher edits it; the self-consistency check says whether it holds.
func DraftRubric(q *examsim.AuthoredQuestion) *examsim.AuthoredRubric {
	r := &examsim.AuthoredRubric{}
	key := examsim.AuthoredRule{ID: "key-idea", Role: "decisive", Notes: map[examsim.Lang]string{}, Patterns: map[examsim.Lang][]string{}}
	miscon := map[string]*examsim.AuthoredRule{}
	var letters []string
	for _, lang := range q.Langs() {
		tx := q.Texts[lang]
		var keyText string
		for _, o := range tx.Options {
			if o.Letter == q.Answer {
				keyText = o.Text + " " + o.Explanation
			}
		}
		for _, o := range tx.Options {
			if o.Letter == q.Answer {
				key.Notes[lang] = firstSentence(questions.DropVerdict(o.Explanation))
				others := ""
				for _, d := range tx.Options {
					if d.Letter != q.Answer {
						others += " " + d.Text
					}
				}
				if p := slotPattern(distinctive(questions.DropVerdict(o.Explanation)+" "+o.Text, others+" "+tx.Stem, 2), ""); p != "" {
					key.Patterns[lang] = append(key.Patterns[lang], p)
				}
				continue
			}
			m := miscon[o.Letter]
			if m == nil {
				m = &examsim.AuthoredRule{ID: "claim-" + strings.ToLower(o.Letter), Notes: map[examsim.Lang]string{}, Patterns: map[examsim.Lang][]string{}}
				miscon[o.Letter] = m
				letters = append(letters, o.Letter)
			}
			m.Notes[lang] = firstSentence(o.Explanation)
			if p := slotPattern(distinctive(o.Text, keyText+" "+tx.Stem, 2), "{!neg} "); p != "" {
				m.Patterns[lang] = append(m.Patterns[lang], p)
			}
		}
	}
	r.Concepts = []examsim.AuthoredRule{key}
	slices.Sort(letters)
	for _, l := range letters {
		r.Misconceptions = append(r.Misconceptions, *miscon[l])
	}
	return r
}

// distinctive returns up to n words of text that other does not use,
// longest first: the words that carry what text alone says. Thai, written
// without spaces, gives its runs' first four characters, which a Thai
// pattern word matches wherever they stand.
func distinctive(text, other string, n int) []string {
	seen := map[string]bool{}
	for _, w := range words(other) {
		seen[stem(w)] = true
	}
	var out []string
	for _, w := range words(text) {
		s := stem(w)
		if seen[s] || utf8.RuneCountInString(w) < 4 {
			continue
		}
		seen[s] = true
		out = append(out, w)
	}
	slices.SortStableFunc(out, func(a, b string) int { return utf8.RuneCountInString(b) - utf8.RuneCountInString(a) })
	return out[:min(n, len(out))]
}

func words(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) }) {
		if r, _ := utf8.DecodeRuneInString(w); unicode.Is(unicode.Thai, r) && utf8.RuneCountInString(w) > 4 {
			w = string([]rune(w)[:4])
		}
		out = append(out, w)
	}
	return out
}

// stem is a word's first six characters: enough to tell words apart, short
// enough that "retry" and "retrying" are one.
func stem(w string) string {
	r := []rune(w)
	return string(r[:min(len(r), 6)])
}

// slotPattern writes words as pattern slots: a long word as a prefix, so
// its other forms match too.
func slotPattern(ws []string, prefix string) string {
	if len(ws) == 0 {
		return ""
	}
	var slots []string
	for _, w := range ws {
		r := []rune(w)
		if len(r) > 6 && !unicode.Is(unicode.Thai, r[0]) {
			w = string(r[:len(r)-2]) + "*"
		}
		slots = append(slots, w)
	}
	return prefix + strings.Join(slots, " ")
}

// firstSentence is the first sentence of a Markdown text, in one line.
func firstSentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.IndexAny(s, ".!?"); i > 0 && i < len(s)-1 {
		return s[:i+1]
	}
	return s
}
