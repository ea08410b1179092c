package web

import (
	"slices"
	"unicode/utf8"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
)

// scoredExplanation is what a practice attempt, an exam item and a class
// answer share once scored: everything the feedback shows.
type scoredExplanation struct {
	Lang        examsim.Lang // the language it was written and scored in
	Explanation string
	examsim.Verdict
}

func attemptScored(a *examsim.Attempt) scoredExplanation {
	return scoredExplanation{Lang: a.Lang, Explanation: a.Explanation, Verdict: a.Verdict}
}

func itemScored(it *examsim.ExamItem) scoredExplanation {
	return scoredExplanation{Lang: it.Lang, Explanation: it.Explanation, Verdict: it.Verdict}
}

func gradableScored(g *examsim.Gradable) scoredExplanation {
	return scoredExplanation{Lang: g.Lang, Explanation: g.Explanation, Verdict: g.Verdict}
}

// Kinds of highlighted evidence.
const (
	evidenceConcept       = "concept"
	evidenceMisconception = "misconception"
)

// textSegment is a run of the learner's explanation; Kind is "" for plain
// text or the kind of evidence it is.
type textSegment struct {
	Text string
	Kind string
}

type feedbackConcept struct {
	Hit    bool
	Label  string   // the hint, in the page's language
	Quotes []string // the learner's words that showed it
}

type feedbackMisconception struct {
	Why    string
	Quotes []string
}

// feedbackView is a scored explanation as a page shows it.
type feedbackView struct {
	Explanation string
	Segments    []textSegment // the explanation, evidence marked
	Score       int           // of the band that counts
	Band        int           // the band that counts
	AutoBand    int
	Human       *examsim.HumanGrade
	// Pending: the explanation is kept but could not be scored yet.
	Pending        bool
	Confidence     float64 // meaningful only when Known
	Known          bool    // the scorer's confidence and evidence were stored with its band
	Concepts       []feedbackConcept
	Misconceptions []feedbackMisconception
	// TestID prefixes the data-testid hooks: "" on the attempt page,
	// "item-" in an exam's review.
	TestID string
	// ID makes element ids unique when a page shows several.
	ID   string
	Flag flagView
	// ForTeacher words it for the teacher regrading ("The learner
	// covered"), not for the learner ("You covered").
	ForTeacher bool
}

// said is the message id key, or its teacher's wording when the teacher
// reads the feedback (key + "_teacher").
func (f feedbackView) said(key string) string {
	if f.ForTeacher {
		return key + "_teacher"
	}
	return key
}

// Unsure reports whether the learner should read the verdict as a guess.
func (f feedbackView) Unsure() bool {
	return f.Human == nil && f.Known && f.Confidence < examsim.UnsureBelow
}

// flagView is the flag form or the state of a flag.
type flagView struct {
	Action  string // where the form posts; "" shows no form
	Back    string // where to come back to after flagging
	Flag    *examsim.Flag
	Comment string // kept when the form comes back with an error
	Error   string
}

// buildFeedback pairs a stored verdict with the hints of the rubric in the
// page's language (pageTx). Evidence and confidence are the ones stored with
// the band, never a new scoring: they stay true to the band shown after a
// rubric changes.
func buildFeedback(pageTx *questions.Text, se scoredExplanation) feedbackView {
	f := feedbackView{Explanation: se.Explanation, Score: se.Score(), Band: se.EffectiveBand(), AutoBand: se.Band, Human: se.Human,
		Pending: se.Pending && se.Human == nil, Known: se.Evidence != nil && se.Human == nil && !se.Pending}
	if f.Known {
		f.Confidence = se.Evidence.Confidence
	}
	hints, whys := map[string]string{}, map[string]string{}
	if pageTx != nil && pageTx.Rubric() != nil {
		for _, c := range pageTx.Rubric().Concepts {
			hints[c.ID] = c.Hint
		}
		for _, m := range pageTx.Rubric().Misconceptions {
			whys[m.ID] = m.Why
		}
	}
	label := func(m map[string]string, id string) string {
		if s := m[id]; s != "" {
			return s
		}
		return id // the rubric changed since; the id still says something
	}
	if se.Human != nil {
		// The teacher's ticks replace the scorer's verdicts, and the
		// scorer's evidence with them.
		for _, c := range se.Human.Concepts {
			f.Concepts = append(f.Concepts, feedbackConcept{Hit: c.Hit, Label: label(hints, c.ID)})
		}
		f.Segments = []textSegment{{Text: se.Explanation}}
		return f
	}
	var spans []markedSpan
	for _, c := range se.Concepts {
		fc := feedbackConcept{Hit: c.Hit, Label: label(hints, c.ID)}
		if f.Known && c.Hit {
			ev := se.Evidence.Concepts[c.ID]
			fc.Quotes = quotes(se.Explanation, ev)
			spans = appendSpans(spans, ev, evidenceConcept)
		}
		f.Concepts = append(f.Concepts, fc)
	}
	for _, id := range se.Misconceptions {
		fm := feedbackMisconception{Why: label(whys, id)}
		if f.Known {
			ev := se.Evidence.Misconceptions[id]
			fm.Quotes = quotes(se.Explanation, ev)
			spans = appendSpans(spans, ev, evidenceMisconception)
		}
		f.Misconceptions = append(f.Misconceptions, fm)
	}
	f.Segments = markEvidence(se.Explanation, spans)
	return f
}

type markedSpan struct {
	examsim.Span
	Kind string
}

func appendSpans(out []markedSpan, spans []examsim.Span, kind string) []markedSpan {
	for _, s := range spans {
		out = append(out, markedSpan{s, kind})
	}
	return out
}

// validSpan reports whether s is a non-empty stretch of text that starts and
// ends on character boundaries; anything else is ignored, never sliced.
func validSpan(text string, s examsim.Span) bool {
	return 0 <= s.Start && s.Start < s.End && s.End <= len(text) &&
		utf8.RuneStart(text[s.Start]) && (s.End == len(text) || utf8.RuneStart(text[s.End]))
}

// quotes returns the learner's words each span covers, in order, once each.
func quotes(text string, spans []examsim.Span) []string {
	var out []string
	for _, s := range spans {
		if validSpan(text, s) && !slices.Contains(out, text[s.Start:s.End]) {
			out = append(out, text[s.Start:s.End])
		}
	}
	return out
}

// markEvidence cuts text into plain and highlighted runs. Overlapping
// evidence merges; where a misconception's words overlap a concept's, the
// misconception shows, as it is what decided the band.
func markEvidence(text string, spans []markedSpan) []textSegment {
	if text == "" {
		return nil
	}
	kindNames := []string{"", evidenceConcept, evidenceMisconception}
	kinds := make([]uint8, len(text)) // an index into kindNames per byte
	for _, s := range spans {
		var k uint8
		switch s.Kind {
		case evidenceConcept:
			k = 1
		case evidenceMisconception:
			k = 2 // outranks a concept where they overlap
		}
		if k == 0 || !validSpan(text, s.Span) {
			continue
		}
		for i := s.Start; i < s.End; i++ {
			kinds[i] = max(kinds[i], k)
		}
	}
	var out []textSegment
	start := 0
	for i := 1; i <= len(text); i++ {
		if i == len(text) || kinds[i] != kinds[start] {
			out = append(out, textSegment{Text: text[start:i], Kind: kindNames[kinds[start]]})
			start = i
		}
	}
	return out
}

// confidenceWord names a confidence for the learner: high, fair or low.
func confidenceWord(c float64) string {
	switch {
	case c >= 0.8:
		return "high"
	case c >= examsim.UnsureBelow:
		return "fair"
	}
	return "low"
}

// scoreTestID keeps the hooks the pages had before they shared this view:
// score-value on the attempt page, item-score in an exam's review.
func scoreTestID(prefix string) string {
	if prefix == "" {
		return "score-value"
	}
	return prefix + "score"
}
