package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
)

// answerForm is what the learner typed, kept across a failed submit so a
// mistake never loses their explanation.
type answerForm struct {
	Choice      string
	Explanation string
	Error       string // already translated
}

// handleQuestion shows one question with its answer form.
func (s *Server) handleQuestion(c echo.Context) error {
	q, err := s.question(c)
	if err != nil {
		return err
	}
	return Render(c, http.StatusOK, QuestionPage(q, s.text(c, q), answerForm{}))
}

func (s *Server) question(c echo.Context) (*questions.Question, error) {
	q, ok := s.Bank.Question(c.Param("id"))
	// A teacher's question is reached through the quiz that uses it, never
	// by its id: its author may not have shared it.
	if !ok || q.Authored {
		return nil, examsim.E(examsim.ENOTFOUND, "error.question_not_found", "ID", c.Param("id"))
	}
	return q, nil
}

// text returns the question in the page's language.
func (s *Server) text(c echo.Context, q *questions.Question) *questions.Text {
	return q.In(pageOf(c).Lang)
}
