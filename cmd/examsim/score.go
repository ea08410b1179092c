package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"unicode/utf8"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/scoring"
)

// scoreJSON is the contract of `examsim score`.
type scoreJSON struct {
	Question       string              `json:"question"`
	Lang           string              `json:"lang"`
	Score          int                 `json:"score"`
	Band           int                 `json:"band"`
	Concepts       []conceptJSON       `json:"concepts"`
	Misconceptions []string            `json:"misconceptions"`
	Feedback       []misconceptionJSON `json:"misconception_feedback"`
	// Confidence is how sure the scorer is of the band, 0 to 1; Unsure says
	// it is below scoring.UnsureBelow.
	Confidence float64 `json:"confidence"`
	Unsure     bool    `json:"unsure"`
}

type conceptJSON struct {
	ID       string         `json:"id"`
	Hit      bool           `json:"hit"`
	Hint     string         `json:"hint,omitempty"`     // only for a missed concept
	Evidence []evidenceJSON `json:"evidence,omitempty"` // only for a concept hit
}

type misconceptionJSON struct {
	ID       string         `json:"id"`
	Why      string         `json:"why"`
	Evidence []evidenceJSON `json:"evidence"`
}

// evidenceJSON is a stretch of the explanation that triggered a hit, in
// characters (runes) from the start of the explanation, end exclusive.
type evidenceJSON struct {
	Start int    `json:"start"`
	End   int    `json:"end"`
	Text  string `json:"text"`
}

// evidenceOf turns byte spans into character offsets of text.
func evidenceOf(text string, spans []scoring.Span) []evidenceJSON {
	out := []evidenceJSON{}
	for _, s := range spans {
		out = append(out, evidenceJSON{utf8.RuneCountInString(text[:s.Start]), utf8.RuneCountInString(text[:s.End]), text[s.Start:s.End]})
	}
	return out
}

func runScore(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("score", flag.ContinueOnError)
	fs.SetOutput(stderr)
	qid := fs.String("question", "", "question id, e.g. empty-result-retry-loop")
	lang := fs.String("lang", "en", "language of the explanation: en, vi, pl or th")
	dir := fs.String("questions", "", "question bank folder (default: the embedded bank)")
	choice := fs.String("choice", "", "the option the learner chose (A-D); an explanation of a wrong choice scores band 0, as in the app")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	// A problem elsewhere in the bank need not stop a rubric author from
	// trying the question they are working on.
	bank, problems := loadBank(*dir)
	if bank == nil {
		fmt.Fprintf(stderr, "examsim score: cannot load the question bank:\n%s\n", problems.Error())
		return 1
	}
	q, ok := bank.Question(*qid)
	if !ok {
		fmt.Fprintf(stderr, "examsim score: no valid question %q; check the id, and run examsim questions check if the question has problems\n", *qid)
		return 2
	}
	l, ok := examsim.ParseLang(*lang)
	if !ok || q.Text(l) == nil {
		fmt.Fprintf(stderr, "examsim score: unknown language %q; use en, vi, pl or th\n", *lang)
		return 2
	}
	text, err := io.ReadAll(io.LimitReader(stdin, 4*scoring.MaxExplanation+1))
	if err != nil {
		fmt.Fprintf(stderr, "examsim score: reading the explanation from stdin: %v\n", err)
		return 1
	}
	explanation := string(text)
	res, err := q.Text(l).Rubric().ScoreChoice(explanation, *choice)
	if examsim.ErrorCode(err) == examsim.ETOOLARGE {
		fmt.Fprintf(stderr, "examsim score: the explanation is over %d characters; shorten it and try again\n", scoring.MaxExplanation)
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "examsim score: the scorer failed on this explanation (a bug, not your input; retrying will not help): %v\n", err)
		return 1
	}
	out := scoreJSON{Question: q.ID, Lang: string(l), Score: res.Score, Band: res.Band,
		Misconceptions: res.MisconceptionIDs(), Feedback: []misconceptionJSON{},
		Confidence: math.Round(res.Confidence*100) / 100, Unsure: res.Unsure()}
	for _, c := range res.Concepts {
		cj := conceptJSON{ID: c.ID, Hit: c.Hit}
		if c.Hit {
			cj.Evidence = evidenceOf(explanation, c.Evidence)
		} else {
			cj.Hint = c.Hint
		}
		out.Concepts = append(out.Concepts, cj)
	}
	for _, m := range res.Misconceptions {
		out.Feedback = append(out.Feedback, misconceptionJSON{ID: m.ID, Why: m.Why, Evidence: evidenceOf(explanation, m.Evidence)})
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return 1
	}
	return 0
}
