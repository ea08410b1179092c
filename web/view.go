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
