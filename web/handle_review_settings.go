package web

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/schedule"
)

// retentionChoices are the desired retentions the settings form offers.
var retentionChoices = []float64{0.8, 0.85, 0.9, 0.95}

// settingsForm is the review settings form as sent, with what to fix.
type settingsForm struct {
	Retention string
	ExamDate  string // YYYY-MM-DD, "" for none
	Error     string
	Saved     bool
}

func formOf(set examsim.ReviewSettings) settingsForm {
	f := settingsForm{Retention: strconv.FormatFloat(set.DesiredRetention, 'f', -1, 64)}
	if !set.ExamDate.IsZero() {
		f.ExamDate = set.ExamDate.Format(time.DateOnly)
	}
	return f
}

// handleReviewSettings saves the learner's desired retention and exam
// date. Bad input re-shows the review page with the form as sent.
func (s *Server) handleReviewSettings(c echo.Context) error {
	p := pageOf(c)
	form := settingsForm{Retention: c.FormValue("retention"), ExamDate: strings.TrimSpace(c.FormValue("exam_date"))}
	set := examsim.DefaultReviewSettings()
	r, err := strconv.ParseFloat(form.Retention, 64)
	set.DesiredRetention = r
	switch {
	case err != nil || set.Validate() != nil:
		form.Error = p.Catalog.T(p.Lang, "review.err_retention", "Min", examsim.MinRetention, "Max", examsim.MaxRetention)
	case form.ExamDate != "":
		d, err := time.Parse(time.DateOnly, form.ExamDate)
		today := time.Date(s.now().Year(), s.now().Month(), s.now().Day(), 0, 0, 0, 0, time.UTC)
		switch {
		case err != nil:
			form.Error = p.Catalog.T(p.Lang, "review.err_exam_date", "Value", form.ExamDate)
		case !d.After(today):
			form.Error = p.Catalog.T(p.Lang, "review.err_exam_past")
		default:
			set.ExamDate = d
		}
	}
	if form.Error != "" {
		v, err := s.dueCards(c)
		if err != nil {
			return err
		}
		return Render(c, http.StatusUnprocessableEntity, ReviewPageWith(v, s.now(), form))
	}
	l, err := s.ensureLearner(c)
	if err != nil {
		return err
	}
	if err := s.Reviews.SetReviewSettings(c.Request().Context(), l.ID, set); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/review?saved=1#settings")
}

// examDayView is /me's outlook for the learner's exam.
type examDayView struct {
	schedule.ExamForecast
	DaysLeft int
	Topic    map[string]string // concept -> its topic, for names
}

// examForecast works out the learner's exam-day outlook; nil without an
// exam date ahead.
func (s *Server) examForecast(c echo.Context, learnerID int64) (*examDayView, error) {
	ctx := c.Request().Context()
	set, err := s.Reviews.ReviewSettings(ctx, learnerID)
	if err != nil || set.ExamDate.IsZero() || !set.ExamDate.After(s.now()) {
		return nil, err
	}
	cards, err := s.Reviews.ListReviewCards(ctx, learnerID)
	if err != nil {
		return nil, err
	}
	v := &examDayView{ExamForecast: schedule.Forecast(set, cards, s.conceptQuestions(), s.now()),
		DaysLeft: daysUntil(s.now(), set.ExamDate), Topic: map[string]string{}}
	for _, q := range s.Bank.Questions {
		for _, concept := range q.Concepts {
			v.Topic[concept] = q.Topic
		}
	}
	return v, nil
}

// percent is a recall as a whole percentage, rounded down.
func percent(r float64) int { return int(r * 100) }
