package scoring

import (
	"fmt"

	"github.com/examsim/examsim"
)

// language is everything the scorer knows of one language: its words, cues
// and exceptions, each in its role. Each language's data lives in its own
// file (lang_en.go, lang_vi.go, lang_pl.go, lang_th.go); the engine holds no
// words. Adding a language is a checklist: copy a file, fill every role or
// say in notApplicable why it has none, and add it to languages below.
// TestEveryLanguageFillsEveryRole fails on a role left empty without a
// reason, instead of the language silently reading as English.
type language struct {
	lang examsim.Lang
	// cues open and close the clause reader's scopes (see clause.go).
	cues cueWords
	// negations deny what follows them (negation.go).
	negations []string
	// letterCues name an option by its letter ("like B", "như B");
	// endorsements and verdicts call it, or a claim, good.
	letterCues, endorsements, verdicts []string
	// others name the other options together ("the others"); othersOpening
	// do so only opening a sentence ("Pozostałe tego nie robią").
	others, othersOpening []string
	// joiners join letters into a list ("B, C and D").
	joiners []string
	// choiceWords, right after a letter that opens the text, make it the
	// learner's choice ("C because …"); choicePrefixes do the same for
	// text written without spaces ("C ครับ …").
	choiceWords, choicePrefixes []string
	// domain words mark an answer about the topic; hedges and doubts mark
	// an unsure pick (vague.go).
	domain, hedges, doubts []string
	// commonWords are everyday words patterns use as glue: never topical,
	// never the target of a typo match.
	commonWords []string
	// abbreviations end with a full stop that does not end the sentence.
	abbreviations []string
	// notFromEnglish are English cues not read in this language ("no" is
	// Polish for "well").
	notFromEnglish []string
	// exceptions: letters a cue may not be followed by, where the cue is the
	// start of another word ("ว่า" in "ว่าง").
	exceptions map[string][]string
	// soWord means both "should" and "so"; it reads as "so" after a comma,
	// after one of soAfter, or once its clause has one of soCauses.
	soWord            string
	soAfter, soCauses []string
	// onlyWord beside a verb with one of conditionalEndings reads as "would
	// only" ("tylko ukryłoby").
	onlyWord           string
	conditionalEndings []string
	// actionNounPrefix opens an action noun inside a word; describesPrefix
	// opens a cue that describes its subject rather than refuting it.
	actionNounPrefix, describesPrefix string
	// sufficiency words claim that one thing is enough ("is enough",
	// "wystarczy", "chỉ cần", "ก็พอ"), and onlyWords with mattersWords in one
	// clause that one thing alone matters ("the only field that matters"):
	// a learner who says so dismisses what else the answer needs.
	sufficiency, onlyWords, mattersWords []string
	// articleLetters are capital letters that open a sentence as a word of
	// the language ("A pallet…"), not as an option's letter.
	articleLetters []string
	// notApplicable names each role this language leaves empty, and why.
	notApplicable map[string]string
}

// languages are the languages the scorer reads, one for each of
// examsim.Langs.
var languages = map[examsim.Lang]*language{
	examsim.English:    langEnglish,
	examsim.Vietnamese: langVietnamese,
	examsim.Polish:     langPolish,
	examsim.Thai:       langThai,
}

// langOf returns a language's data. Every language the product offers has
// some (TestEveryLanguageFillsEveryRole): there is no silent fallback.
func langOf(l examsim.Lang) *language {
	d := languages[l]
	if d == nil {
		panic(fmt.Sprintf("scoring: no language data for %q: add lang_%s.go", l, l))
	}
	return d
}

// roleWords returns a role's words in language l, with English's after them
// unless l is English: learners mix English into every language.
func roleWords(l examsim.Lang, role func(*language) []string) []string {
	own := role(langOf(l))
	if l == examsim.English {
		return own
	}
	return append(append([]string(nil), own...), role(langOf(examsim.English))...)
}

// byLang builds a per-language map of a role's words, English added.
func byLang(role func(*language) []string) map[examsim.Lang][]string {
	out := map[examsim.Lang][]string{}
	for _, l := range examsim.Langs {
		out[l] = roleWords(l, role)
	}
	return out
}

// foldedWords returns the folded forms of words, as tokens carry them.
func foldedWords(words []string) []string {
	var out []string
	for _, w := range words {
		for _, t := range tokenize(nil, w) {
			out = append(out, t.fold)
		}
	}
	return out
}
