package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

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
}

type conceptJSON struct {
	ID   string `json:"id"`
	Hit  bool   `json:"hit"`
	Hint string `json:"hint,omitempty"` // only for a missed concept
}

type misconceptionJSON struct {
	ID  string `json:"id"`
	Why string `json:"why"`
}

func runScore(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("score", flag.ContinueOnError)
	fs.SetOutput(stderr)
	qid := fs.String("question", "", "question id, e.g. empty-result-retry-loop")
	lang := fs.String("lang", "en", "language of the explanation: en, vi, pl or th")
	dir := fs.String("questions", "", "question bank folder (default: the embedded bank)")
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
	res, err := q.Text(l).Rubric.Score(string(text))
	if err != nil {
		fmt.Fprintf(stderr, "examsim score: the explanation is over %d characters; shorten it and try again\n", scoring.MaxExplanation)
		return 2
	}
	out := scoreJSON{Question: q.ID, Lang: string(l), Score: res.Score, Band: res.Band,
		Misconceptions: res.MisconceptionIDs(), Feedback: []misconceptionJSON{}}
	for _, c := range res.Concepts {
		cj := conceptJSON{ID: c.ID, Hit: c.Hit}
		if !c.Hit {
			cj.Hint = c.Hint
		}
		out.Concepts = append(out.Concepts, cj)
	}
	for _, m := range res.Misconceptions {
		out.Feedback = append(out.Feedback, misconceptionJSON{ID: m.ID, Why: m.Why})
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return 1
	}
	return 0
}
