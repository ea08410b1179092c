package web

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
)

// examAnswerForm is one exam answer as typed, kept across a failed submit.
type examAnswerForm struct {
	Choice      string // the shown letter
	Explanation string
	Flagged     bool
	Error       string // already translated
}

// examQuestionView is one question of a running exam.
type examQuestionView struct {
	Exam    *examsim.Exam
	Item    *examsim.ExamItem
	Q       *questions.Question
	Tx      *questions.Text
	Options []shownOption
	Form    examAnswerForm
	Now     time.Time
}

// handleExam sends the learner to where the exam stands: its results once
// submitted, else the first question without an answer.
func (s *Server) handleExam(c echo.Context) error {
	e, err := s.ownExam(c)
	if err != nil {
		return err
	}
	if e.Submitted() {
		return c.Redirect(http.StatusSeeOther, examURL(e, "/results"))
	}
	return c.Redirect(http.StatusSeeOther, questionURL(e, firstOpenPosition(e)))
}

// examItem returns the exam item named by :n.
func examItem(c echo.Context, e *examsim.Exam) (*examsim.ExamItem, error) {
	n, err := strconv.Atoi(c.Param("n"))
	it, ok := e.Item(n)
	if err != nil || !ok {
		return nil, examsim.E(examsim.ENOTFOUND, "exam.error_no_such_question", "N", c.Param("n"))
	}
	return it, nil
}

func (s *Server) examQuestionView(c echo.Context, e *examsim.Exam, it *examsim.ExamItem, form examAnswerForm) (examQuestionView, error) {
	q, ok := s.Bank.Question(it.QuestionID)
	if !ok {
		return examQuestionView{}, examsim.E(examsim.ENOTFOUND, "error.question_not_found", "ID", it.QuestionID)
	}
	tx := s.text(c, q)
	return examQuestionView{Exam: e, Item: it, Q: q, Tx: tx, Options: shownOptions(it, tx), Form: form, Now: s.now()}, nil
}

// handleExamQuestion shows one question of a running exam with the answer
// saved for it so far.
func (s *Server) handleExamQuestion(c echo.Context) error {
	e, err := s.ownExam(c)
	if err != nil {
		return err
	}
	if e.Submitted() {
		return c.Redirect(http.StatusSeeOther, examURL(e, "/results"))
	}
	it, err := examItem(c, e)
	if err != nil {
		return err
	}
	v, err := s.examQuestionView(c, e, it, examAnswerForm{
		Choice: it.ShownLetter(it.Choice), Explanation: it.Explanation, Flagged: it.Flagged,
	})
	if err != nil {
		return err
	}
	return Render(c, http.StatusOK, ExamQuestionPage(v))
}

// handleExamAnswer saves an answer and its flag, then goes where the
// learner asked: next, back, a question of the palette or the review. After
// the deadline the answer is refused and the exam is submitted with what
// was saved before it.
func (s *Server) handleExamAnswer(c echo.Context) error {
	e, err := s.ownExam(c)
	if err != nil {
		return err
	}
	if e.Submitted() {
		return s.examClosed(c, e)
	}
	it, err := examItem(c, e)
	if err != nil {
		return err
	}
	p := pageOf(c)
	q, ok := s.Bank.Question(it.QuestionID)
	if !ok {
		return examsim.E(examsim.ENOTFOUND, "error.question_not_found", "ID", it.QuestionID)
	}
	tx := s.text(c, q)
	form := examAnswerForm{
		Choice:      c.FormValue("choice"),
		Explanation: strings.TrimSpace(formText(c, "explanation")),
		Flagged:     c.FormValue("flag") == "1",
	}
	own := ""
	if form.Choice != "" {
		var ok bool
		if own, ok = it.OwnLetter(form.Choice); !ok {
			own = form.Choice // not a letter shown: the rule below refuses it
		}
	}
	// The one rule for an answer (an exam item may be left open); the error
	// names the letter as the learner saw it.
	if err := tx.CheckAnswer(own, form.Explanation, true); err != nil {
		var bad *examsim.Error
		if errors.As(err, &bad) && bad.MessageID == "practice.error_bad_choice" {
			err = examsim.E(examsim.EINVALID, "practice.error_bad_choice", "Choice", form.Choice)
			form.Choice = ""
		}
		return formError(c, err, func(_ int, reason string) error {
			form.Error = reason
			v, err := s.examQuestionView(c, e, it, form)
			if err != nil {
				return err
			}
			return Render(c, http.StatusUnprocessableEntity, ExamQuestionPage(v))
		})
	}

	now := s.now()
	answer := &examsim.ExamItem{Position: it.Position, Answer: examsim.Answer{Choice: own, Explanation: form.Explanation, Lang: p.Lang}, Flagged: form.Flagged}
	if own != "" {
		answer.AnsweredAt = now
		if own == it.Choice && !it.AnsweredAt.IsZero() {
			answer.AnsweredAt = it.AnsweredAt // unchanged: keep when it was first given
		}
	}
	if err := s.Exams.SaveExamAnswer(c.Request().Context(), e.ID, answer, now); err != nil {
		if examsim.ErrorCode(err) != examsim.ECONFLICT {
			return err
		}
		// The deadline passed between loading and saving.
		if err := s.finishExam(c.Request().Context(), e, true); err != nil {
			return err
		}
		return s.examClosed(c, e)
	}
	return c.Redirect(http.StatusSeeOther, nextExamURL(e, it.Position, c.FormValue("go")))
}

// nextExamURL is where the "go" button of a question form leads.
func nextExamURL(e *examsim.Exam, pos int, goTo string) string {
	switch {
	case goTo == "review":
		return examURL(e, "/review")
	case goTo == "prev":
		return questionURL(e, max(pos-1, 1))
	case strings.HasPrefix(goTo, "q"):
		if n, err := strconv.Atoi(goTo[1:]); err == nil && n >= 1 && n <= len(e.Items) {
			return questionURL(e, n)
		}
	}
	if pos >= len(e.Items) {
		return examURL(e, "/review")
	}
	return questionURL(e, pos+1)
}

// examClosed refuses an answer to an exam that no longer takes any, and
// says why and where the results are.
func (s *Server) examClosed(c echo.Context, e *examsim.Exam) error {
	return Render(c, http.StatusConflict, ExamClosedPage(e))
}
