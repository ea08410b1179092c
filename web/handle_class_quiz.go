package web

import (
	"context"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
)

// handleClassHome lists an instructor's quizzes and recent runs.
func (s *Server) handleClassHome(c echo.Context) error {
	l, err := s.teacher(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	quizzes, err := s.Classes.ListQuizzes(ctx, l.ID)
	if err != nil {
		return err
	}
	runs, err := s.Classes.ListRuns(ctx, l.ID, 20)
	if err != nil {
		return err
	}
	return Render(c, http.StatusOK, ClassHomePage(quizzes, runs))
}

func (s *Server) handleQuizNew(c echo.Context) error {
	if _, err := s.teacher(c); err != nil {
		return err
	}
	form := quizForm{AutoSeconds: true, Scoring: "correctness", Leaderboard: true, Explanations: "optional",
		Topic: c.QueryParam("topic"), Concept: c.QueryParam("concept"), Difficulty: c.QueryParam("difficulty")}
	return Render(c, http.StatusOK, QuizBuilderPage(s.builder(c, form)))
}

func (s *Server) handleQuizCreate(c echo.Context) error {
	l, err := s.teacher(c)
	if err != nil {
		return err
	}
	return s.saveQuiz(c, &examsim.Quiz{OwnerID: l.ID})
}

// ownQuiz returns the quiz in the URL when it is the instructor's own.
func (s *Server) ownQuiz(c echo.Context) (*examsim.Quiz, error) {
	l, err := s.teacher(c)
	if err != nil {
		return nil, err
	}
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return nil, examsim.E(examsim.ENOTFOUND, "class.error_quiz_not_found")
	}
	q, err := s.Classes.FindQuiz(c.Request().Context(), id)
	if err != nil {
		return nil, err
	}
	if q.OwnerID != l.ID {
		return nil, examsim.E(examsim.EFORBIDDEN, "class.error_not_owner")
	}
	return q, nil
}

func (s *Server) handleQuizEdit(c echo.Context) error {
	q, err := s.ownQuiz(c)
	if err != nil {
		return err
	}
	form := quizForm{ID: q.ID, Title: q.Title, Picked: q.QuestionIDs, Seconds: q.SecondsPerQuestion, Scoring: string(q.Scoring),
		Leaderboard: q.Leaderboard, Explanations: string(q.Explanations), Saved: c.QueryParam("saved") != ""}
	return Render(c, http.StatusOK, QuizBuilderPage(s.builder(c, form)))
}

func (s *Server) handleQuizUpdate(c echo.Context) error {
	q, err := s.ownQuiz(c)
	if err != nil {
		return err
	}
	return s.saveQuiz(c, q)
}

// saveQuiz reads the builder form into q and saves it, or re-shows the
// form: for a filter, or with what is wrong and everything typed kept.
func (s *Server) saveQuiz(c echo.Context, q *examsim.Quiz) error {
	form := s.readQuizForm(c)
	form.ID = q.ID
	if c.FormValue("action") == "filter" {
		return Render(c, http.StatusOK, QuizBuilderPage(s.builder(c, form)))
	}
	if err := s.checkQuizForm(c, &form); err != nil {
		return formError(c, err, func(status int, reason string) error {
			form.Error = reason
			return Render(c, status, QuizBuilderPage(s.builder(c, form)))
		})
	}
	q.Title, q.QuestionIDs, q.SecondsPerQuestion = form.Title, form.Picked, form.Seconds
	q.Scoring, q.Leaderboard, q.Explanations = examsim.ScoringMode(form.Scoring), form.Leaderboard, examsim.ExplanationMode(form.Explanations)
	ctx := c.Request().Context()
	var err error
	if q.ID == 0 {
		err = s.Classes.CreateQuiz(ctx, q)
	} else {
		err = s.Classes.UpdateQuiz(ctx, q)
	}
	if err != nil {
		return err
	}
	// Start buttons submit the builder: the edits are saved, then the run
	// starts with them.
	switch c.FormValue("action") {
	case "start_live":
		return s.startRun(c, q, examsim.ModeLive)
	case "start_assignment":
		return s.startRun(c, q, examsim.ModeAssignment)
	}
	return c.Redirect(http.StatusSeeOther, "/class/quizzes/"+strconv.FormatInt(q.ID, 10)+"?saved=1")
}

// readQuizForm reads the builder, ordering the ticked questions by the
// numbers typed beside them (unnumbered ones keep their place, last).
func (s *Server) readQuizForm(c echo.Context) quizForm {
	form := quizForm{
		Title: strings.TrimSpace(formText(c, "title")), Scoring: c.FormValue("scoring"), Explanations: c.FormValue("explanations"),
		Leaderboard: c.FormValue("leaderboard") == "on",
		Topic:       c.FormValue("topic"), Concept: c.FormValue("concept"), Difficulty: c.FormValue("difficulty"),
	}
	if c.FormValue("seconds") == "auto" {
		form.AutoSeconds = true
	} else {
		form.Seconds, _ = strconv.Atoi(c.FormValue("seconds"))
	}
	values, _ := c.FormParams()
	type pick struct {
		id    string
		order int
		pos   int
	}
	var picks []pick
	seen := map[string]bool{}
	for i, id := range values["q"] {
		if seen[id] {
			continue
		}
		seen[id] = true
		order, err := strconv.Atoi(strings.TrimSpace(c.FormValue("order-" + id)))
		if err != nil || order <= 0 {
			order = 1 << 30
		}
		picks = append(picks, pick{id, order, i})
	}
	sort.SliceStable(picks, func(i, j int) bool {
		if picks[i].order != picks[j].order {
			return picks[i].order < picks[j].order
		}
		return picks[i].pos < picks[j].pos
	})
	for _, p := range picks {
		form.Picked = append(form.Picked, p.id)
	}
	return form
}

// checkQuizForm checks the quiz the form describes, then that the bank has
// each of its questions.
func (s *Server) checkQuizForm(c echo.Context, form *quizForm) error {
	if form.AutoSeconds {
		form.Seconds = s.readingSeconds(c, form.Picked)
	}
	q := examsim.Quiz{Title: form.Title, QuestionIDs: form.Picked, SecondsPerQuestion: form.Seconds,
		Scoring: examsim.ScoringMode(form.Scoring), Explanations: examsim.ExplanationMode(form.Explanations)}
	if err := q.Validate(); err != nil {
		return err
	}
	for _, id := range form.Picked {
		q, ok := s.Bank.Question(id)
		if !ok {
			return examsim.E(examsim.EINVALID, "error.question_not_found", "ID", id)
		}
		if err := s.mayUseAuthored(c, q); err != nil {
			return err
		}
	}
	return nil
}

// readingSeconds is the time per question that lets the longest of the
// questions be read (in English, the bank's source) and answered.
func (s *Server) readingSeconds(_ echo.Context, ids []string) int {
	words := 0
	for _, id := range ids {
		if q, ok := s.Bank.Question(id); ok {
			tx := q.Text(examsim.English)
			n := len(strings.Fields(tx.StemMarkdown))
			for _, o := range tx.Options {
				n += len(strings.Fields(o.Markdown))
			}
			words = max(words, n)
		}
	}
	return examsim.ReadingSeconds(words)
}

// builder lays out the builder: the picked questions in order, then the
// bank's questions that pass the filter.
func (s *Server) builder(c echo.Context, form quizForm) builderView {
	v := builderView{Form: form, Topics: s.Bank.Topics}
	picked := map[string]bool{}
	for _, id := range form.Picked {
		if q, ok := s.Bank.Question(id); ok {
			v.Rows = append(v.Rows, q)
			picked[id] = true
		}
	}
	for _, q := range append(s.authoredPickable(c), s.Bank.Questions...) {
		if picked[q.ID] || !matches(q, form) {
			continue
		}
		v.Rows = append(v.Rows, q)
	}
	return v
}

func matches(q *questions.Question, form quizForm) bool {
	return (form.Topic == "" || q.Topic == form.Topic) &&
		(form.Concept == "" || slices.Contains(q.Concepts, form.Concept)) &&
		(form.Difficulty == "" || string(q.Difficulty) == form.Difficulty)
}

// handleRunStart runs a quiz: live now, or as an assignment due in
// the chosen number of hours.
func (s *Server) handleRunStart(c echo.Context) error {
	q, err := s.ownQuiz(c)
	if err != nil {
		return err
	}
	return s.startRun(c, q, examsim.RunMode(c.FormValue("mode")))
}

// startRun starts a run of q, live or as an assignment due in the form's
// hours, and sends the host to its screen.
func (s *Server) startRun(c echo.Context, q *examsim.Quiz, mode examsim.RunMode) error {
	var deadline time.Time
	switch mode {
	case examsim.ModeLive:
	case examsim.ModeAssignment:
		hours, err := strconv.Atoi(c.FormValue("hours"))
		if err != nil || hours < 1 || hours > 24*60 {
			return examsim.E(examsim.EINVALID, "class.error_deadline_past")
		}
		deadline = s.now().Add(time.Duration(hours) * time.Hour)
	default:
		return examsim.E(examsim.EINVALID, "class.error_bad_setting")
	}
	room, err := s.Classroom.Create(context.WithoutCancel(c.Request().Context()), q, q.OwnerID, mode, deadline)
	if err != nil {
		return err
	}
	if acceptsJSON(c) {
		run := room.Run()
		return c.JSON(http.StatusOK, map[string]any{"id": run.ID, "code": run.Code})
	}
	return c.Redirect(http.StatusSeeOther, roomURL(room.ID, "/host"))
}

// quizForm is the quiz builder's form, kept across filtering and errors.
type quizForm struct {
	ID      int64
	Title   string
	Picked  []string // in asking order
	Seconds int
	// AutoSeconds sets Seconds on save from the reading time of the
	// longest picked question (examsim.ReadingSeconds).
	AutoSeconds                bool
	Scoring                    string
	Leaderboard                bool
	Explanations               string
	Topic, Concept, Difficulty string // the bank filter
	Error                      string
	Saved                      bool
}

type builderView struct {
	Form   quizForm
	Topics []*questions.Topic
	Rows   []*questions.Question // picked first, in order, then the filtered rest
}

func (v builderView) action() string {
	if v.Form.ID != 0 {
		return "/class/quizzes/" + idStr(v.Form.ID)
	}
	return "/class/quizzes"
}

func (v builderView) order(id string) int {
	for i, p := range v.Form.Picked {
		if p == id {
			return i + 1
		}
	}
	return 0
}

func (v builderView) orderValue(id string) string {
	if n := v.order(id); n > 0 {
		return strconv.Itoa(n)
	}
	return ""
}
