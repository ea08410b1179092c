package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
)

// reviewView is the review queue: what is due now and what comes later.
type reviewView struct {
	Due      []*examsim.ReviewCard
	Upcoming []*examsim.ReviewCard
}

// dueCards returns the learner's review cards split into due and upcoming,
// leaving out questions no longer in the bank.
func (s *Server) dueCards(c echo.Context) (reviewView, error) {
	var v reviewView
	l := pageOf(c).Learner
	if l == nil {
		return v, nil
	}
	cards, err := s.Reviews.ListReviewCards(c.Request().Context(), l.ID)
	if err != nil {
		return v, err
	}
	now := s.now()
	for _, card := range cards { // earliest due first
		if q, ok := s.Bank.Question(card.QuestionID); !ok || q.Authored { // a teacher's question is practised in its quiz
			continue
		}
		if card.IsDue(now) {
			v.Due = append(v.Due, card)
		} else {
			v.Upcoming = append(v.Upcoming, card)
		}
	}
	return v, nil
}

// handleReviewQueue lists the questions due for spaced review.
func (s *Server) handleReviewQueue(c echo.Context) error {
	v, err := s.dueCards(c)
	if err != nil {
		return err
	}
	return Render(c, http.StatusOK, ReviewPage(v, s.now()))
}

// handleReviewNext opens the most overdue question, or the queue when
// nothing is due.
func (s *Server) handleReviewNext(c echo.Context) error {
	v, err := s.dueCards(c)
	if err != nil {
		return err
	}
	if len(v.Due) == 0 {
		return c.Redirect(http.StatusSeeOther, "/review")
	}
	return c.Redirect(http.StatusSeeOther, "/practice/"+v.Due[0].QuestionID)
}
