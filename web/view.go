package web

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/scoring"
)

const scoringMax = scoring.MaxExplanation

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
