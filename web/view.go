package web

import (
	"context"
	htmlpkg "html"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/examsim/examsim"
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
	if name := lessonText(ctx, topicID, func(ls *questions.Lesson) string { return ls.ObjectiveNames[objective] }); name != "" {
		return objective + " " + name
	}
	return objective
}

// topicTitle returns a topic's lesson title in the page language, else
// English, else the topic's id.
func topicTitle(ctx context.Context, topicID string) string {
	if title := lessonText(ctx, topicID, func(ls *questions.Lesson) string { return ls.Title }); title != "" {
		return title
	}
	return topicID
}

// lessonText is the first non-empty text that field picks from the topic's
// lesson in the page language, then in English; "" when neither has it.
func lessonText(ctx context.Context, topicID string, field func(*questions.Lesson) string) string {
	if bank := page(ctx).Bank; bank != nil {
		if tp, ok := bank.Topic(topicID); ok {
			for _, lang := range []examsim.Lang{page(ctx).Lang, examsim.English} {
				if ls := tp.Lessons[lang]; ls != nil && field(ls) != "" {
					return field(ls)
				}
			}
		}
	}
	return ""
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

// textOf returns q in the page language.
func textOf(ctx context.Context, q *questions.Question) *questions.Text {
	return q.In(page(ctx).Lang)
}

func errorID(msg, id string) string {
	if msg == "" {
		return ""
	}
	return id
}

func difficultyLabel(d questions.Difficulty) string { return "difficulty." + string(d) }

func itoa(n int) string { return strconv.Itoa(n) }

// wrapTables puts each table of a lesson's HTML in a box that scrolls
// sideways, focusable so a keyboard can scroll it, so a wide table never
// widens the page on a phone. label names the box for screen readers; a
// group, not a region, as a lesson has several alike (axe landmark-unique).
func wrapTables(html, label string) string {
	open := `<div class="table-wrap" tabindex="0" role="group" aria-label="` + htmlpkg.EscapeString(label) + `"><table>`
	html = strings.ReplaceAll(html, "<table>", open)
	return strings.ReplaceAll(html, "</table>", "</table></div>")
}

func idStr(n int64) string { return strconv.FormatInt(n, 10) }

// orNone is s, or the page's word for none when s is empty.
func orNone(ctx context.Context, s string) string {
	if s == "" {
		return t(ctx, "class.none")
	}
	return s
}
