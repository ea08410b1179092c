package examsim

import (
	"slices"
	"unicode/utf8"
)

// Quiz limits.
const (
	MaxQuizQuestions = 50
	MaxQuizTitle     = 100 // characters, not bytes
)

// QuizSecondChoices are the times per question a quiz may use.
var QuizSecondChoices = []int{10, 20, 30, 45, 60, 90, 120, 180}

// Reading time: a question gets ReadingBaseSeconds to think and answer,
// plus the time to read its words at ReadingWordsPerMinute (a slow,
// careful pace for a projected scenario), capped at the longest choice.
const (
	ReadingBaseSeconds    = 30
	ReadingWordsPerMinute = 150
)

// ReadingSeconds is the time per question for questions of at most words
// words: the reading time, rounded up to the next of QuizSecondChoices.
func ReadingSeconds(words int) int {
	need := ReadingBaseSeconds + (max(words, 0)*60+ReadingWordsPerMinute-1)/ReadingWordsPerMinute
	for _, n := range QuizSecondChoices {
		if n >= need {
			return n
		}
	}
	return QuizSecondChoices[len(QuizSecondChoices)-1]
}

// Validate checks the quiz's own invariants. Whether its questions exist is
// the bank's business and is checked by whoever holds the bank.
func (q *Quiz) Validate() error {
	switch n := utf8.RuneCountInString(q.Title); {
	case n == 0 || n > MaxQuizTitle:
		return E(EINVALID, "class.error_title_length", "Max", MaxQuizTitle)
	case len(q.QuestionIDs) == 0:
		return E(EINVALID, "class.error_no_questions")
	case len(q.QuestionIDs) > MaxQuizQuestions:
		return E(EINVALID, "class.error_too_many_questions", "Max", MaxQuizQuestions)
	case !slices.Contains(QuizSecondChoices, q.SecondsPerQuestion):
		return E(EINVALID, "class.error_bad_setting")
	case q.Scoring != ScoreCorrectness && q.Scoring != ScoreSpeed:
		return E(EINVALID, "class.error_bad_setting")
	case q.Explanations != ExplainRequired && q.Explanations != ExplainOptional && q.Explanations != ExplainOff:
		return E(EINVALID, "class.error_bad_setting")
	}
	return nil
}
