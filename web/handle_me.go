package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
)

// handleMe shows the learner's progress: readiness, due reviews, charts,
// weak concepts, exams, every answer and their sandbox predictions.
func (s *Server) handleMe(c echo.Context) error {
	var attempts []*examsim.Attempt
	var exams []*examsim.Exam
	var predictions []*examsim.Prediction
	due := 0
	var examDay *examDayView
	if l := pageOf(c).Learner; l != nil {
		ctx := c.Request().Context()
		var err error
		if attempts, err = s.Attempts.ListAttempts(ctx, l.ID, 5000); err != nil {
			return err
		}
		if s.Exams != nil {
			if exams, err = s.Exams.ListExams(ctx, l.ID, 50); err != nil {
				return err
			}
			for _, e := range exams { // time ran out while the learner was away
				if !e.Submitted() && e.Expired(s.now()) {
					if err := s.finishExam(ctx, e, true); err != nil {
						return err
					}
				}
			}
			if len(exams) > 0 { // auto-submitted exams added attempts
				if attempts, err = s.Attempts.ListAttempts(ctx, l.ID, 5000); err != nil {
					return err
				}
			}
		}
		if s.Reviews != nil {
			if due, err = s.Reviews.CountDue(ctx, l.ID, s.now()); err != nil {
				return err
			}
			if examDay, err = s.examForecast(c, l.ID); err != nil {
				return err
			}
		}
		if s.Predictions != nil {
			if predictions, err = s.Predictions.ListPredictions(ctx, l.ID, 200); err != nil {
				return err
			}
		}
	}
	v := buildProgress(s.Bank, attempts, exams, s.now().In(zoneOf(c.Request())))
	v.DueCount = due
	v.ExamDay = examDay
	return Render(c, http.StatusOK, MePage(s.Bank, v, predictions))
}
