package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// handleHome shows the topics and a way into practice.
func (s *Server) handleHome(c echo.Context) error {
	counts := map[string]int{}
	for _, q := range s.Bank.Questions {
		counts[q.Topic]++
	}
	return Render(c, http.StatusOK, HomePage(s.Bank.Topics, counts))
}
