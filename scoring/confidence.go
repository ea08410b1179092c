package scoring

import "github.com/examsim/examsim"

// signals are what the scorer noticed on the way to a band, from which the
// confidence is estimated.
type signals struct {
	hits, decisive      int  // concepts found, and decisive ones among them
	supporting          bool // a supporting concept was found
	misconceptions      int
	deniedConcept       bool // a concept's words were there but negated, refuted or supposed
	deniedMisconception bool // likewise for a misconception
	onTopic             bool
	domain              bool // on topic, or using a word of the domain (tool, agent, error, ...) in the learner's own words
	hedged, doubt       bool // the answer's letter picked with a hedge; the learner says they are unsure
	reversed            bool // a {neg} concept was asserted without its negation
	contradicted        bool // a concept missed because the learner said it the other way round
	words               int
	endorsed, refuted   bool // another option approved, or rejected, by its letter
	chosenWrong         bool // the text opens by choosing another option than the answer
	sufficiency         bool // the learner claims one thing is enough (claims.go)
}

// confidence estimates how likely the band is exactly right, from 0 to 1.
// The figures are the scorer's exact agreement with the first grader on the
// train split of the rubric-blind corpus, per kind of result (see
// TestAgreement, which reports sure and unsure accuracy):
//
//	misconception, at most one concept        0.9   (train: 0.95 of 75)
//	misconception and two concepts or more    0.4   (0.50 of 4)
//	nothing recognised                        0.6   (0.67 of 271)
//	band 1, the key letter picked with a hedge  0.9   (1.00 of 38, third pass)
//	band 1 on topic words alone               0.4   (0.46 of 52)
//	band 1 from a minor concept               0.2   (0.25 of 40)
//	band 2, short (under 16 words)            0.85  (0.86 of 260)
//	band 2, longer                            0.4   (0.45 of 80)
//	band 3                                    0.9   (0.93 of 176)
//
// Readings through a negation or refutation, reversed key ideas and very
// short texts take a little more off.
func confidence(band int, s signals, lang examsim.Lang) float64 {
	var c float64
	switch {
	case s.misconceptions > 0 && s.hits >= 2:
		c = 0.4
	case s.misconceptions > 0:
		c = 0.9
	case band == 0:
		c = 0.6
	case band == 1 && s.hedged:
		c = 0.9
	case band == 1 && s.hits == 0:
		c = 0.4
	case band == 1:
		c = 0.2
	case band == 2 && s.words < 16:
		c = 0.85
	case band == 2:
		c = 0.4
	default:
		c = 0.9
	}
	if s.reversed || (band > 0 && (s.deniedMisconception || s.deniedConcept)) {
		c *= 0.9
	}
	if s.words < 4 {
		c *= 0.9
	}
	c *= languageCoverage[lang]
	return min(max(c, 0), 1)
}

// languageCoverage scales confidence per language by how well the rubrics
// cover it; see the agreement test's report on the train split.
var languageCoverage = map[examsim.Lang]float64{
	examsim.English:    1,
	examsim.Vietnamese: 1,
	examsim.Polish:     1,
	examsim.Thai:       1,
}

// topical reports whether a pattern word is specific enough to show that a
// text is about the question: Latin words of five letters or more that are
// not everyday words, numbers, and Thai words of three characters or more.
func topical(t *term) bool {
	if len(t.toks) > 1 {
		return !t.toks[0].thai || len(t.toks) >= 3
	}
	tk := &t.toks[0]
	if tk.thai {
		return false
	}
	if len(tk.fold) < 5 && !isDigits(tk.fold) {
		return false
	}
	return !commonWords[tk.fold]
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// commonWords are everyday words, folded, that rubric patterns use as glue
// (every language's language.commonWords);
// they show nothing about the topic. They are also never the target of a
// typo match: "about" is not a typo of "abort".
var commonWords = func() map[string]bool {
	m := map[string]bool{}
	for _, d := range languages {
		for _, w := range d.commonWords {
			m[w] = true
		}
	}
	return m
}()
