package web

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/scoring"
)

const scoringMax = scoring.MaxExplanation

// conceptLine is one line of explanation feedback.
type conceptLine struct {
	Hit   bool
	Label string // the hint, in the page's language
}

// conceptFeedback pairs an attempt's stored concept verdicts with the hints
// of the rubric in the page's language, so feedback follows the language
// switch even for an attempt made in another language.
func conceptFeedback(tx *questions.Text, a *examsim.Attempt) []conceptLine {
	hints := map[string]string{}
	for _, c := range tx.Rubric.Concepts {
		hints[c.ID] = c.Hint
	}
	out := make([]conceptLine, 0, len(a.Concepts))
	for _, c := range a.Concepts {
		label := hints[c.ID]
		if label == "" {
			label = c.ID // the rubric changed since; the id still says something
		}
		out = append(out, conceptLine{Hit: c.Hit, Label: label})
	}
	return out
}

func misconceptionFeedback(tx *questions.Text, a *examsim.Attempt) []string {
	why := map[string]string{}
	for _, m := range tx.Rubric.Misconceptions {
		why[m.ID] = m.Why
	}
	out := make([]string, 0, len(a.Misconceptions))
	for _, id := range a.Misconceptions {
		if w := why[id]; w != "" {
			out = append(out, w)
		} else {
			out = append(out, id)
		}
	}
	return out
}

func optionClass(letter, answer, choice string) string {
	switch {
	case letter == answer:
		return "opt right"
	case letter == choice:
		return "opt chosen-wrong"
	}
	return "opt"
}

// conceptName returns a topic concept's display name in the page language.
func conceptName(ctx context.Context, topicID, concept string) string {
	if bank := page(ctx).Bank; bank != nil {
		if tp, ok := bank.Topic(topicID); ok {
			if ls := tp.Lessons[page(ctx).Lang]; ls != nil && ls.ConceptNames[concept] != "" {
				return ls.ConceptNames[concept]
			}
		}
	}
	return concept
}

// objectiveTitle is an objective's id and display title in the page's
// language, as a breakdown's group heading shows it.
func objectiveTitle(ctx context.Context, topicID, objective string) string {
	if bank := page(ctx).Bank; bank != nil {
		if tp, ok := bank.Topic(topicID); ok {
			for _, lang := range []examsim.Lang{page(ctx).Lang, examsim.English} {
				if ls := tp.Lessons[lang]; ls != nil && ls.ObjectiveNames[objective] != "" {
					return objective + " " + ls.ObjectiveNames[objective]
				}
			}
		}
	}
	return objective
}

// sourceTitle is how a question's source is named: its title, or for a
// lesson section without one, the section's concept name.
func sourceTitle(ctx context.Context, topicID string, s questions.Source) string {
	if s.Title == "" && s.Lesson != "" {
		return conceptName(ctx, topicID, s.Lesson)
	}
	return s.Title
}

func questionTitle(ctx context.Context, bank *questions.Bank, id string) string {
	if q, ok := bank.Question(id); ok {
		return textOf(ctx, q).Title
	}
	return id
}

// excerpt shortens s to n characters at most, on a character boundary.
func excerpt(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n])) + "…"
}
