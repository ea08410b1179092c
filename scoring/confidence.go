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
	reversed            bool // a {neg} concept was asserted without its negation
	words               int
}

// confidence estimates how likely the band is right, from 0 to 1. Each
// factor is a situation in which the train split showed the scorer to be
// wrong more often: mixed signals, words read through a negation or a
// refutation, a band 1 given for topic words alone, very short or very long
// text, and languages where the rubrics cover fewer ways of saying things.
func confidence(band int, s signals, lang examsim.Lang) float64 {
	c := 0.9
	if s.misconceptions > 0 && s.decisive > 0 {
		c *= 0.45 // a decisive concept and a misconception both fired
	}
	if s.deniedMisconception || s.deniedConcept || s.reversed {
		c *= 0.75 // the verdict rests on reading polarity
	}
	if band == 1 && s.hits == 0 {
		c *= 0.6 // on topic by its words alone
	}
	if band == 0 && s.misconceptions == 0 && s.words >= 12 {
		c *= 0.6 // a long answer in which nothing was recognised
	}
	switch {
	case s.words < 5:
		c *= 0.7
	case s.words > 150:
		c *= 0.8
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

// commonWords are everyday words, folded, that rubric patterns use as glue;
// they show nothing about the topic. They are also never the target of a
// typo match: "about" is not a typo of "abort".
var commonWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{
		// English
		"about", "above", "after", "again", "against", "along", "already", "always", "another", "anything",
		"around", "because", "before", "being", "below", "between", "cannot", "could", "doing", "during",
		"every", "everything", "first", "given", "going", "great", "instead", "later", "least", "little",
		"maybe", "might", "never", "other", "others", "otherwise", "rather", "really", "right", "second",
		"should", "since", "something", "still", "their", "there", "these", "thing", "things", "think",
		"those", "though", "three", "through", "under", "until", "using", "where", "whether", "which",
		"while", "whole", "would", "wrong", "years", "often", "point", "place", "start", "state",
		"sorry", "simply", "maybe", "means", "needs", "makes", "better", "thats", "theres", "about",
		"board", "aboard", "apart", "short", "sport", "store", "story", "sure",
		// Polish
		"dlatego", "ponieważ", "poniewaz", "który", "ktory", "która", "ktora", "które", "ktore", "zawsze",
		"jeszcze", "tylko", "wtedy", "trzeba", "można", "mozna", "należy", "nalezy", "powinien", "powinno",
		"powinna", "bardzo", "czyli", "każdy", "kazdy", "każde", "kazde", "przez", "potem", "jakby", "gdyby",
		// Vietnamese words are short; none needed.
	} {
		m[w] = true
	}
	return m
}()
