package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// handleHome shows the topics, a way into practice and exams, and how many
// reviews are due.
func (s *Server) handleHome(c echo.Context) error {
	counts := map[string]int{}
	for _, q := range s.Bank.Questions {
		counts[q.Topic]++
	}
	due := 0
	if l := pageOf(c).Learner; l != nil && s.Reviews != nil {
		var err error
		if due, err = s.Reviews.CountDue(c.Request().Context(), l.ID, s.now()); err != nil {
			return err
		}
	}
	return Render(c, http.StatusOK, HomePage(s.Bank.Topics, counts, due))
}
