// Package scoring owns explanation scoring: it compiles a question's rubric
// patterns for one language and scores a learner's explanation against them,
// offline and in microseconds. See questions/FORMAT.md for the pattern syntax
// and the bands.
package scoring

import (
	"unicode/utf8"

	"github.com/examsim/examsim"
)

// MaxExplanation is the longest explanation scored, in characters.
const MaxExplanation = 4000

// Role says how much a rubric concept matters for the band.
type Role string

const (
	Decisive   Role = "decisive"   // the reason the answer is right
	Supporting Role = "supporting" // why the tempting wrong move fails, or the fix
	Conclusion Role = "conclusion" // merely naming the answer's idea
)

// DefaultWeight returns a role's weight when the rubric gives none.
func (r Role) DefaultWeight() int {
	switch r {
	case Decisive:
		return 3
	case Supporting:
		return 2
	case Conclusion:
		return 1
	}
	return 0
}

// DefaultPenalty is what a misconception costs when the rubric gives nothing.
const DefaultPenalty = 40

// Concept is something a good explanation says.
type Concept struct {
	ID       string
	Role     Role
	Weight   int
	Hint     string // shown when the concept is missed
	Patterns []*Pattern
}

// Misconception is something a good explanation must not say.
type Misconception struct {
	ID       string
	Penalty  int
	Why      string // shown when the misconception is found
	Patterns []*Pattern
}

// Rubric is one question's rubric in one language.
type Rubric struct {
	Version        int
	Lang           examsim.Lang
	Concepts       []Concept
	Misconceptions []Misconception
}

// ConceptResult says whether one concept was found.
type ConceptResult struct {
	ID   string `json:"id"`
	Hit  bool   `json:"hit"`
	Hint string `json:"-"`
	// Evidence is where in the explanation the concept was found; empty
	// when it was missed.
	Evidence []Span `json:"-"`
}

// MisconceptionResult names a misconception that was found.
type MisconceptionResult struct {
	ID  string
	Why string
	// Evidence is the learner's words that asserted the misconception.
	Evidence []Span
}

// Span is a stretch of the scored explanation, as byte offsets into the text
// that was passed to Score: text[Start:End] is what the learner wrote.
type Span struct {
	Start, End int
}

// Result is a scored explanation.
type Result struct {
	Score          int
	Band           int
	Concepts       []ConceptResult
	Misconceptions []MisconceptionResult
	// Confidence is how sure the scorer is of Band, from 0 to 1. Below
	// UnsureBelow the learner is told so instead of being given a verdict.
	Confidence float64
}

// UnsureBelow is the confidence under which a result is shown as unsure.
const UnsureBelow = 0.5

// Unsure reports whether the result is too uncertain to be stated as fact.
func (r Result) Unsure() bool { return r.Confidence < UnsureBelow }

// Hits returns the concept results in the form attempts store.
func (r Result) Hits() []examsim.ConceptHit {
	out := make([]examsim.ConceptHit, len(r.Concepts))
	for i, c := range r.Concepts {
		out[i] = examsim.ConceptHit{ID: c.ID, Hit: c.Hit}
	}
	return out
}

// MisconceptionIDs returns the ids of the misconceptions found.
func (r Result) MisconceptionIDs() []string {
	out := make([]string, len(r.Misconceptions))
	for i, m := range r.Misconceptions {
		out[i] = m.ID
	}
	return out
}

// CheckLength returns an EINVALID-class error when text is over the limit.
func CheckLength(text string) error {
	if utf8.RuneCountInString(text) > MaxExplanation {
		return examsim.Errorf(examsim.ETOOLARGE, "error.explanation_too_long", "Max", MaxExplanation)
	}
	return nil
}

// Score scores an explanation. Text over MaxExplanation characters is
// refused with an ETOOLARGE error; anything else, however broken, is scored.
func (r *Rubric) Score(text string) (Result, error) {
	if err := CheckLength(text); err != nil {
		return Result{}, err
	}
	x := indexText(text)
	defer x.release()
	negs := negationSpans(r.Lang, x)

	// Confidence 1 until the clause-level scorer estimates it (issue 12).
	res := Result{Concepts: make([]ConceptResult, len(r.Concepts)), Confidence: 1}
	total, hit := 0, 0
	decisiveAll, supporting, anyHit := true, false, false
	for i, c := range r.Concepts {
		ok := anyMatch(c.Patterns, x, negs)
		res.Concepts[i] = ConceptResult{ID: c.ID, Hit: ok, Hint: c.Hint}
		total += c.Weight
		if ok {
			hit += c.Weight
			anyHit = true
			supporting = supporting || c.Role == Supporting
		} else if c.Role == Decisive {
			decisiveAll = false
		}
	}
	penalty := 0
	for _, m := range r.Misconceptions {
		if anyMatch(m.Patterns, x, negs) {
			res.Misconceptions = append(res.Misconceptions, MisconceptionResult{ID: m.ID, Why: m.Why})
			penalty += m.Penalty
		}
	}
	if total > 0 {
		res.Score = (100*hit + total/2) / total
	}
	res.Score = min(max(res.Score-penalty, 0), 100)

	switch {
	case len(res.Misconceptions) > 0 || !anyHit:
		res.Band = 0
	case decisiveAll && supporting:
		res.Band = 3
	case decisiveAll:
		res.Band = 2
	default:
		res.Band = 1
	}
	return res, nil
}

func anyMatch(ps []*Pattern, x *textIndex, negs []span) bool {
	for _, p := range ps {
		if p.match(x, negs) {
			return true
		}
	}
	return false
}
