package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
)

// handleLearn shows a topic's lesson in the learner's language.
func (s *Server) handleLearn(c echo.Context) error {
	topic, ok := s.Bank.Topic(c.Param("topic"))
	if !ok {
		return examsim.E(examsim.ENOTFOUND, "error.topic_not_found", "Topic", c.Param("topic"))
	}
	lesson := topic.Lessons[pageOf(c).Lang]
	if lesson == nil {
		lesson = topic.Lessons[examsim.English]
	}
	return Render(c, http.StatusOK, LearnPage(topic, lesson))
}
