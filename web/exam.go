package web

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/exam"
	"github.com/examsim/examsim/questions"
)

// ownExam loads the exam named by :id for the current learner. Another
// learner's exam is not found, so ids reveal nothing. An exam whose time
// ran out is submitted first: the deadline is the server's, not the
// browser's.
func (s *Server) ownExam(c echo.Context) (*examsim.Exam, error) {
	notFound := examsim.E(examsim.ENOTFOUND, "exam.error_not_found")
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	learner := pageOf(c).Learner
	if err != nil || learner == nil {
		return nil, notFound
	}
	e, err := s.Exams.FindExam(c.Request().Context(), id)
	if err != nil {
		return nil, err
	}
	if e.LearnerID != learner.ID {
		return nil, notFound
	}
	if !e.Submitted() && e.Expired(s.now()) {
		if err := s.finishExam(c.Request().Context(), e, true); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// finishExam grades and submits the exam. If another request submitted it
// first, e is reloaded with that result.
func (s *Server) finishExam(ctx context.Context, e *examsim.Exam, auto bool) error {
	if err := exam.Grade(s.Bank, e, s.now(), auto); err != nil {
		return err
	}
	err := s.Exams.SubmitExam(ctx, e)
	if examsim.ErrorCode(err) == examsim.ECONFLICT {
		stored, ferr := s.Exams.FindExam(ctx, e.ID)
		if ferr != nil {
			return ferr
		}
		*e = *stored
		return nil
	}
	return err
}

// missedRecently returns the questions the learner got wrong recently.
func (s *Server) missedRecently(ctx context.Context, learner *examsim.Learner) (map[string]bool, error) {
	if learner == nil {
		return map[string]bool{}, nil
	}
	attempts, err := s.Attempts.ListAttempts(ctx, learner.ID, 5000)
	if err != nil {
		return nil, err
	}
	return exam.Missed(attempts, s.now()), nil
}

// optionLetters returns a question's own option letters, in its order.
func (s *Server) optionLetters(id string) []string {
	q, ok := s.Bank.Question(id)
	if !ok {
		return nil
	}
	return ownLetters(q)
}

// ownLetters returns a question's own option letters, in its order.
func ownLetters(q *questions.Question) []string {
	tx := q.In(examsim.English) // letters are the same in every language
	if tx == nil {
		return nil
	}
	out := make([]string, len(tx.Options))
	for i, o := range tx.Options {
		out[i] = o.Letter
	}
	return out
}

// shownOption is an option as an exam shows it: under its shuffled letter,
// with the text and explanation of the question's own option.
type shownOption struct {
	Letter string // as shown
	Own    string // the question's own letter
	questions.Option
}

// shownOptions returns the item's options in the order shown.
func shownOptions(it *examsim.ExamItem, tx *questions.Text) []shownOption {
	byLetter := map[string]questions.Option{}
	for _, o := range tx.Options {
		byLetter[o.Letter] = o
	}
	out := make([]shownOption, 0, len(it.Options))
	for i, own := range it.Options {
		if o, ok := byLetter[own]; ok {
			out = append(out, shownOption{Letter: examsim.ShownLetter(i), Own: own, Option: o})
		}
	}
	return out
}

// firstOpenPosition returns the first unanswered question, else the first.
func firstOpenPosition(e *examsim.Exam) int {
	if un := e.Unanswered(); len(un) > 0 {
		return un[0].Position
	}
	return 1
}

func examURL(e *examsim.Exam, rest string) string {
	return "/exam/" + strconv.FormatInt(e.ID, 10) + rest
}

func questionURL(e *examsim.Exam, pos int) string {
	return examURL(e, "/q/"+strconv.Itoa(pos))
}

// clockText formats time left as m:ss, or h:mm:ss from an hour up.
func clockText(d time.Duration) string {
	secs := int(d.Round(time.Second) / time.Second)
	h, m, sec := secs/3600, secs/60%60, secs%60
	if h > 0 {
		return strconv.Itoa(h) + ":" + twoDigits(m) + ":" + twoDigits(sec)
	}
	return strconv.Itoa(m) + ":" + twoDigits(sec)
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// paletteClass is the palette button's classes for an item.
func paletteClass(it *examsim.ExamItem, current int) string {
	c := "pal"
	if it.Answered() {
		c += " answered"
	}
	if it.Flagged {
		c += " flagged"
	}
	if it.Position == current {
		c += " current"
	}
	return c
}

// decimal formats f with one decimal in the page language: Vietnamese and
// Polish write a decimal comma.
func decimal(ctx context.Context, f float64) string {
	s := strconv.FormatFloat(f, 'f', 1, 64)
	if l := page(ctx).Lang; l == examsim.Vietnamese || l == examsim.Polish {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

// bandAverageText says a concept's mean explanation band, or that there
// were no explanations.
func bandAverageText(ctx context.Context, s examsim.ConceptStat) string {
	if s.Explained == 0 {
		return t(ctx, "progress.no_explanations")
	}
	return t(ctx, "progress.band_of", "Band", decimal(ctx, s.AverageBand()))
}
