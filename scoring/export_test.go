package scoring

import "fmt"

// The corpus loader is internal to the package; the agreement test needs the
// question bank, which imports this package, so it lives outside and reaches
// the loader through these names.
type (
	CorpusItem  = corpusItem
	MinimalPair = minimalPair
)

var (
	LoadCorpus = loadCorpus
	LoadPairs  = loadPairs
)

// Signals returns, as one line, what scoring noticed on the way to the band,
// for the agreement test's per-item lines.
func Signals(r *Rubric, text string) string {
	_, s, err := r.score(text)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("words=%d hits=%d decisive=%d supporting=%v onTopic=%v deniedC=%v deniedM=%v reversed=%v contradicted=%v endorsed=%v refuted=%v chosenWrong=%v hedged=%v doubt=%v sufficiency=%v",
		s.words, s.hits, s.decisive, s.supporting, s.onTopic, s.deniedConcept, s.deniedMisconception, s.reversed, s.contradicted, s.endorsed, s.refuted, s.chosenWrong, s.hedged, s.doubt, s.sufficiency)
}

// ScoreFresh scores text in a newly built index, never a pooled one: the
// reference a pooled index's result must equal whatever it scored before.
func ScoreFresh(r *Rubric, text string) (Result, error) {
	res, _, err := r.scoreIn(newTextIndex(), text)
	return res, err
}
