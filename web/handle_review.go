package web

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/schedule"
	"github.com/examsim/examsim/scoring"
)

// cramSize is how many questions a cram session practises.
const cramSize = 10

// reviewView is the review queue: what is due now and what comes later,
// and the session under way, if any.
type reviewView struct {
	Due      []*examsim.ReviewCard
	Upcoming []*examsim.ReviewCard
	Session  *examsim.ReviewSession // nil, or one not done yet
	Settings examsim.ReviewSettings
}

// dueCards returns the learner's review cards split into due and upcoming,
// leaving out questions no longer in the bank.
func (s *Server) dueCards(c echo.Context) (reviewView, error) {
	v := reviewView{Settings: examsim.DefaultReviewSettings()}
	l := pageOf(c).Learner
	if l == nil {
		return v, nil
	}
	ctx := c.Request().Context()
	cards, err := s.Reviews.ListReviewCards(ctx, l.ID)
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
	if v.Settings, err = s.Reviews.ReviewSettings(ctx, l.ID); err != nil {
		return v, err
	}
	rs, err := s.Reviews.FindSession(ctx, l.ID)
	switch {
	case err == nil && !rs.Done():
		v.Session = rs
	case err != nil && examsim.ErrorCode(err) != examsim.ENOTFOUND:
		return v, err
	}
	return v, nil
}

// handleReviewQueue lists the questions due for spaced review.
func (s *Server) handleReviewQueue(c echo.Context) error {
	v, err := s.dueCards(c)
	if err != nil {
		return err
	}
	form := formOf(v.Settings)
	form.Saved = c.QueryParam("saved") == "1"
	return Render(c, http.StatusOK, ReviewPageWith(v, s.now(), form))
}

// handleReviewNext is where "Start reviewing" used to lead: the session
// under way, or the queue.
func (s *Server) handleReviewNext(c echo.Context) error {
	v, err := s.dueCards(c)
	if err != nil {
		return err
	}
	if v.Session != nil {
		return c.Redirect(http.StatusSeeOther, "/review/session")
	}
	return c.Redirect(http.StatusSeeOther, "/review")
}

// handleReviewStart starts a session: the cards due now, most overdue
// first, or in cram mode the weakest concepts' questions.
func (s *Server) handleReviewStart(c echo.Context) error {
	mode := examsim.ReviewMode(c.FormValue("mode"))
	if mode != examsim.ModeReview && mode != examsim.ModeCram {
		return examsim.E(examsim.EINVALID, "review.err_mode")
	}
	l, err := s.ensureLearner(c)
	if err != nil {
		return err
	}
	v, err := s.dueCards(c)
	if err != nil {
		return err
	}
	var ids []string
	if mode == examsim.ModeReview {
		for _, card := range v.Due {
			ids = append(ids, card.QuestionID)
		}
	} else {
		cards := append(v.Due, v.Upcoming...)
		ids = schedule.CramQuestions(schedule.Concepts(v.Settings, cards, s.conceptQuestions(), s.now()), cramSize)
	}
	rs := &examsim.ReviewSession{LearnerID: l.ID, Mode: mode, QuestionIDs: ids, Seed: rand.Int64(), StartedAt: s.now()} // #nosec G404 -- an option order, not a secret
	if err := s.Reviews.StartSession(c.Request().Context(), rs); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/review/session")
}

// conceptQuestions lists each concept's questions in the bank.
func (s *Server) conceptQuestions() map[string][]string {
	out := map[string][]string{}
	for _, q := range s.Bank.Questions {
		for _, concept := range q.Concepts {
			out[concept] = append(out[concept], q.ID)
		}
	}
	return out
}

// reviewCardView is one question of a session, as shown.
type reviewCardView struct {
	Session *examsim.ReviewSession
	Item    *examsim.ExamItem
	Q       *questions.Question
	Tx      *questions.Text
	Options []shownOption
	Form    answerForm
}

// reviewDoneView is the end of a session: how many were answered, and when
// the next cards fall due.
type reviewDoneView struct {
	Session  *examsim.ReviewSession
	NextDue  time.Time // zero when nothing is scheduled
	NextN    int       // cards due by the end of that day
	Now      time.Time
	DueAgain int // cards due now anyway (answered wrongly before the exam eve)
}

// session returns the learner's session, moving it past questions no
// longer in the bank.
func (s *Server) session(c echo.Context) (*examsim.ReviewSession, error) {
	l := pageOf(c).Learner
	if l == nil {
		return nil, examsim.E(examsim.ENOTFOUND, "review.err_no_session")
	}
	ctx := c.Request().Context()
	for {
		rs, err := s.Reviews.FindSession(ctx, l.ID)
		if err != nil || rs.Done() {
			return rs, err
		}
		if _, ok := s.Bank.Question(rs.QuestionIDs[rs.Position]); ok {
			return rs, nil
		}
		if err := s.Reviews.AnswerInSession(ctx, l.ID, rs.Position, nil); err != nil && examsim.ErrorCode(err) != examsim.ECONFLICT {
			return nil, err
		}
	}
}

// handleReviewSession shows the session's next question, or that it is done.
func (s *Server) handleReviewSession(c echo.Context) error {
	rs, err := s.session(c)
	if examsim.ErrorCode(err) == examsim.ENOTFOUND {
		return c.Redirect(http.StatusSeeOther, "/review")
	}
	if err != nil {
		return err
	}
	if rs.Done() {
		return s.renderReviewDone(c, rs)
	}
	return Render(c, http.StatusOK, ReviewCardPage(s.reviewCard(c, rs, answerForm{})))
}

func (s *Server) reviewCard(c echo.Context, rs *examsim.ReviewSession, form answerForm) reviewCardView {
	q, _ := s.Bank.Question(rs.QuestionIDs[rs.Position])
	tx := s.text(c, q)
	it := rs.Current(s.optionLetters(q.ID))
	return reviewCardView{Session: rs, Item: it, Q: q, Tx: tx, Options: shownOptions(it, tx), Form: form}
}

func (s *Server) renderReviewDone(c echo.Context, rs *examsim.ReviewSession) error {
	v := reviewDoneView{Session: rs, Now: s.now()}
	if rs.Mode == examsim.ModeReview {
		cards, err := s.Reviews.ListReviewCards(c.Request().Context(), rs.LearnerID)
		if err != nil {
			return err
		}
		for _, card := range cards { // earliest due first
			if _, ok := s.Bank.Question(card.QuestionID); !ok {
				continue
			}
			switch {
			case card.IsDue(v.Now):
				v.DueAgain++
			case v.NextDue.IsZero():
				v.NextDue = card.Due
				v.NextN = 1
			case sameDay(c.Request().Context(), card.Due, v.NextDue):
				v.NextN++
			}
		}
	}
	return Render(c, http.StatusOK, ReviewDonePage(v))
}

// sameDay reports whether a and b fall on one day in the viewer's zone.
func sameDay(ctx context.Context, a, b time.Time) bool { return whenDay(ctx, a) == whenDay(ctx, b) }

// handleReviewAnswer scores and stores the answer to the session's
// question and moves the session on, then shows the result. Bad input
// re-shows the question with the learner's text intact; a form sent again
// after the session moved on just goes back to the session.
func (s *Server) handleReviewAnswer(c echo.Context) error {
	rs, err := s.session(c)
	if examsim.ErrorCode(err) == examsim.ENOTFOUND {
		return c.Redirect(http.StatusSeeOther, "/review")
	}
	if err != nil {
		return err
	}
	position, perr := strconv.Atoi(c.FormValue("position"))
	if rs.Done() || perr != nil || position != rs.Position {
		return c.Redirect(http.StatusSeeOther, "/review/session")
	}
	p := pageOf(c)
	v := s.reviewCard(c, rs, answerForm{Choice: c.FormValue("choice"), Explanation: strings.TrimSpace(c.FormValue("explanation"))})
	own, ok := v.Item.OwnLetter(v.Form.Choice)
	switch {
	case v.Form.Choice == "":
		v.Form.Error = p.Catalog.T(p.Lang, "practice.error_no_choice")
	case !ok:
		v.Form.Error = p.Catalog.T(p.Lang, "practice.error_bad_choice", "Choice", v.Form.Choice)
		v.Form.Choice = ""
	case scoring.CheckLength(v.Form.Explanation) != nil:
		v.Form.Error = p.Catalog.T(p.Lang, "error.explanation_too_long", "Max", scoring.MaxExplanation)
	}
	if v.Form.Error != "" {
		return Render(c, http.StatusUnprocessableEntity, ReviewCardPage(v))
	}
	res, err := v.Tx.Rubric().Score(v.Form.Explanation)
	if err != nil {
		return err
	}
	a := &examsim.Attempt{
		LearnerID: rs.LearnerID, CreatedAt: s.now(),
		Answer: examsim.Answer{QuestionID: v.Q.ID, Lang: p.Lang, Choice: own, Correct: own == v.Q.Answer,
			Explanation: v.Form.Explanation, Verdict: res.Verdict(v.Tx.Rubric().Version)},
	}
	if rs.Mode == examsim.ModeCram {
		a.Source = examsim.SourceCram
	}
	if err := s.Reviews.AnswerInSession(c.Request().Context(), rs.LearnerID, position, a); err != nil {
		if examsim.ErrorCode(err) == examsim.ECONFLICT { // sent twice: the first one counted
			return c.Redirect(http.StatusSeeOther, "/review/session")
		}
		if msg, ok := s.unavailableText(c, err); ok {
			v.Form.Error = msg
			return Render(c, http.StatusServiceUnavailable, ReviewCardPage(v))
		}
		return err
	}
	return c.Redirect(http.StatusSeeOther, attemptURL(a.ID)+"?session=1")
}

// nextStep is where an attempt's result page leads on.
type nextStep struct {
	URL     string
	Label   string
	Session bool // the attempt was part of a review session
	// Shown is how the session showed the question, so the result names
	// the options by the letters the learner saw; nil outside a session.
	Shown *examsim.ExamItem
}

// attemptNext is the result page's way on: the session's next card when
// the attempt was answered in the session under way, else the next
// practice question.
func (s *Server) attemptNext(c echo.Context, a *examsim.Attempt) nextStep {
	if c.QueryParam("session") == "1" {
		if rs, err := s.session(c); err == nil {
			p := pageOf(c)
			step := nextStep{URL: "/review/session", Session: true,
				Label: p.Catalog.T(p.Lang, "review.session_next", "N", rs.Position+1, "Total", len(rs.QuestionIDs))}
			if rs.Done() {
				step.Label = p.Catalog.T(p.Lang, "review.session_finish")
			}
			if last := rs.Position - 1; last >= 0 && last < len(rs.QuestionIDs) && rs.QuestionIDs[last] == a.QuestionID {
				shown := *rs // the showing just answered
				shown.Position = last
				step.Shown = shown.Current(s.optionLetters(a.QuestionID))
			}
			return step
		}
	}
	if next := s.nextQuestion(a.QuestionID); next != "" {
		p := pageOf(c)
		return nextStep{URL: "/practice/" + next, Label: p.Catalog.T(p.Lang, "result.next")}
	}
	return nextStep{}
}

// resultOptions are a question's options as its result lists them: in the
// order and under the letters the session showed, or the question's own.
func resultOptions(tx *questions.Text, shown *examsim.ExamItem) []shownOption {
	if shown != nil {
		return shownOptions(shown, tx)
	}
	out := make([]shownOption, len(tx.Options))
	for i, o := range tx.Options {
		out[i] = shownOption{Letter: o.Letter, Own: o.Letter, Option: o}
	}
	return out
}

// shownLetter is the letter an option (by its own letter) was shown under.
func shownLetter(shown *examsim.ExamItem, own string) string {
	if shown != nil {
		if l := shown.ShownLetter(own); l != "" {
			return l
		}
	}
	return own
}
