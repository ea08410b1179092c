package exchange

import (
	"path"
	"strings"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
)

// Editor fields a problem can concern. A rubric rule's field is
// FieldRule+its id; an option's FieldOption+its letter.
const (
	FieldGeneral     = ""
	FieldID          = "id"
	FieldTopic       = "topic"
	FieldConcepts    = "concepts"
	FieldDifficulty  = "difficulty"
	FieldAnswer      = "answer"
	FieldLesson      = "lesson"
	FieldTitle       = "title"
	FieldStem        = "stem"
	FieldOptions     = "options"
	FieldOption      = "option-"
	FieldExplanation = "explanation-"
	FieldRubric      = "rubric"
	FieldRule        = "rule-"
)

// FieldOf names the editor field a problem from Compile(q) concerns, so the
// editor can show it beside that field; FieldGeneral when none fits. It
// reads the line the problem points at in the files QuestionFiles writes.
func FieldOf(q *examsim.AuthoredQuestion, p questions.Problem) string {
	if p.Key == "check.option_count" {
		return FieldOptions
	}
	data, ok := QuestionFiles(q)[path.Join(q.ID, p.Path)]
	if !ok {
		return FieldGeneral
	}
	lines := strings.Split(string(data), "\n")
	if p.Line < 1 || p.Line > len(lines) {
		return FieldGeneral
	}
	if p.Path == "question.yaml" {
		return yamlField(lines[:p.Line])
	}
	return languageField(lines[:p.Line])
}

// yamlField follows question.yaml's keys down to the last line given.
func yamlField(lines []string) string {
	field, rule := FieldGeneral, ""
	for _, ln := range lines {
		switch {
		case ln != "" && ln[0] != ' ':
			key, _, _ := strings.Cut(ln, ":")
			field, rule = key, ""
		case strings.Contains(ln, "- id: "):
			_, id, _ := strings.Cut(ln, "- id: ")
			rule = FieldRule + strings.Trim(id, `"' `)
		}
	}
	if field == "rubric" && rule != "" {
		return rule
	}
	return field
}

// languageField follows a LANG.md file's front matter keys and body parts
// down to the last line given.
func languageField(lines []string) string {
	field, part, fences := FieldGeneral, "", 0
	for _, ln := range lines {
		if fences < 2 {
			switch {
			case ln == "---":
				fences++
				field = FieldStem
			case ln != "" && ln[0] != ' ':
				key, _, _ := strings.Cut(ln, ":")
				field = map[string]string{"title": FieldTitle, "rubric": FieldRubric, "sources": FieldLesson}[key]
			case field != FieldTitle && strings.HasPrefix(ln, "    ") && !strings.HasPrefix(ln, "     ") && strings.HasSuffix(ln, ":"):
				field = FieldRule + strings.Trim(strings.TrimSuffix(strings.TrimSpace(ln), ":"), `"'`)
			}
			continue
		}
		trimmed := strings.TrimSpace(ln)
		switch {
		case headingLike.MatchString(ln):
			part = strings.TrimSpace(strings.TrimPrefix(trimmed, "##"))
			field = FieldOption + part
		case part != "" && strings.HasPrefix(trimmed, ">"):
			field = FieldExplanation + part
		case part != "" && trimmed != "":
			field = FieldOption + part
		}
	}
	return field
}
