package scoring

import (
	"slices"

	"github.com/examsim/examsim"
)

// negationCues holds each language's compiled negation cues (its file's
// negations). English cues count in every language, since learners write
// "not retryable" inside Thai and Vietnamese sentences, except the ones a
// language lists in notFromEnglish (Polish "no" means "well").
var negationCues = func() map[examsim.Lang][]term {
	out := make(map[examsim.Lang][]term)
	for _, lang := range examsim.Langs {
		var words []string
		for _, w := range roleWords(lang, func(d *language) []string { return d.negations }) {
			if !slices.Contains(langOf(lang).notFromEnglish, w) {
				words = append(words, w)
			}
		}
		// "agent" is one typo from "arent": negations match exactly.
		out[lang] = compileCues(words)
	}
	return out
}()
