package web

import (
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/exam"
	"github.com/examsim/examsim/questions"
)

// examSetupForm is the exam setup as the learner typed it, kept across a
// failed submit.
type examSetupForm struct {
	Topics    []string
	Count     string
	Minutes   string
	PassMark  string
	Concept   string
	Missed    bool
	Blueprint bool   // draw per objective by weight
	Error     string // already translated
}

// examSetupView is what the setup page shows.
type examSetupView struct {
	Form     examSetupForm
	Topics   []*questions.Topic
	Running  []*examsim.Exam // exams still running, to resume
	Bankwide int             // questions in the bank
}

func (s *Server) defaultSetup(c echo.Context) examSetupForm {
	f := examSetupForm{
		Count:    strconv.Itoa(min(examsim.DefaultExamQuestions, max(len(s.Bank.Questions), 1))),
		Minutes:  strconv.Itoa(examsim.DefaultExamMinutes),
		PassMark: strconv.Itoa(examsim.DefaultPassMark),
		Concept:  c.QueryParam("concept"), // from a "practise this concept" link
		Missed:   c.QueryParam("missed") == "1",
	}
	for _, tp := range s.Bank.Topics {
		f.Topics = append(f.Topics, tp.ID)
	}
	return f
}

// handleExamSetup shows the exam setup with the defaults, and any exam the
// learner can resume.
func (s *Server) handleExamSetup(c echo.Context) error {
	return s.renderSetup(c, http.StatusOK, s.defaultSetup(c))
}

func (s *Server) renderSetup(c echo.Context, status int, f examSetupForm) error {
	v := examSetupView{Form: f, Topics: s.Bank.Topics, Bankwide: len(s.Bank.Questions)}
	if l := pageOf(c).Learner; l != nil {
		exams, err := s.Exams.ListExams(c.Request().Context(), l.ID, 20)
		if err != nil {
			return err
		}
		now := s.now()
		for _, e := range exams {
			if e.Open(now) {
				v.Running = append(v.Running, e)
			}
		}
	}
	return Render(c, status, ExamSetupPage(v))
}

// handleExamStart checks the setup, picks and shuffles the questions and
// starts the clock.
func (s *Server) handleExamStart(c echo.Context) error {
	p := pageOf(c)
	params, err := c.FormParams()
	if err != nil {
		return examsim.E(examsim.EINVALID, "error.bad_request")
	}
	f := examSetupForm{
		Topics:   params["topic"],
		Count:    strings.TrimSpace(params.Get("count")),
		Minutes:  strings.TrimSpace(params.Get("minutes")),
		PassMark: strings.TrimSpace(params.Get("pass_mark")),
		Concept:  params.Get("concept"),
		Missed:   params.Get("missed") == "1",
	}
	f.Blueprint = params.Get("blueprint") == "1"
	show := func(_ int, reason string) error {
		f.Error = reason
		return s.renderSetup(c, http.StatusUnprocessableEntity, f)
	}
	n, err := s.checkSetup(f)
	if err != nil {
		return formError(c, err, show)
	}
	var missed map[string]bool
	if f.Missed {
		if missed, err = s.missedRecently(c.Request().Context(), p.Learner); err != nil {
			return err
		}
	}
	pool := exam.Pool(s.Bank.Questions, f.Topics, f.Concept, missed)
	if len(pool) == 0 {
		id := "exam.error_empty_pool"
		if f.Missed {
			id = "exam.error_no_missed"
		}
		return formError(c, examsim.E(examsim.EINVALID, id), show)
	}
	learner, err := s.ensureLearner(c)
	if err != nil {
		return err
	}
	seed := rand.Int64() // #nosec G404 -- picks and orders the questions the learner then sees; not a secret
	count := n.count
	if f.Blueprint {
		var topics []*questions.Topic
		for _, id := range f.Topics {
			tp, _ := s.Bank.Topic(id)
			topics = append(topics, tp)
		}
		if pool, _ = exam.Blueprint(s.Bank, topics, pool, n.count, seed); len(pool) == 0 {
			return formError(c, examsim.E(examsim.EINVALID, "exam.error_no_blueprint"), show)
		}
		count = len(pool)
	}
	now := s.now()
	e := &examsim.Exam{
		LearnerID: learner.ID, Lang: p.Lang, Topics: f.Topics, Concept: f.Concept, MissedOnly: f.Missed, Blueprint: f.Blueprint,
		PassMark: n.passMark, Seed: seed, StartedAt: now, Deadline: now.Add(time.Duration(n.minutes) * time.Minute),
		Items: examsim.ShuffleExam(seed, pool, count, s.optionLetters),
	}
	if err := s.Exams.CreateExam(c.Request().Context(), e); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, questionURL(e, 1))
}

// setupNumbers are the numbers of an exam setup once checked.
type setupNumbers struct{ count, minutes, passMark int }

// checkSetup says what the learner must fix in an exam setup: a topic the
// bank lacks, no topic, a number out of range, or a concept outside the
// chosen topics.
func (s *Server) checkSetup(f examSetupForm) (setupNumbers, error) {
	var n setupNumbers
	var concepts []string
	for _, id := range f.Topics {
		tp, ok := s.Bank.Topic(id)
		if !ok {
			return n, examsim.E(examsim.EINVALID, "exam.error_topic", "Topic", id)
		}
		concepts = append(concepts, tp.Concepts...)
	}
	count, errCount := strconv.Atoi(f.Count)
	minutes, errMinutes := strconv.Atoi(f.Minutes)
	passMark, errPass := strconv.Atoi(f.PassMark)
	switch {
	case len(f.Topics) == 0:
		return n, examsim.E(examsim.EINVALID, "exam.error_no_topic")
	case errCount != nil || count < 1 || count > examsim.MaxExamQuestions:
		return n, examsim.E(examsim.EINVALID, "exam.error_count", "Max", examsim.MaxExamQuestions)
	case errMinutes != nil || minutes < 1 || minutes > examsim.MaxExamMinutes:
		return n, examsim.E(examsim.EINVALID, "exam.error_minutes", "Max", examsim.MaxExamMinutes)
	case errPass != nil || passMark < 1 || passMark > 100:
		return n, examsim.E(examsim.EINVALID, "exam.error_pass_mark")
	case f.Concept != "" && !slices.Contains(concepts, f.Concept):
		return n, examsim.E(examsim.EINVALID, "exam.error_concept")
	}
	return setupNumbers{count: count, minutes: minutes, passMark: passMark}, nil
}

// handleExamAgain starts a new exam from a submitted one's results: the
// same questions in a new order ("all"), or only those answered wrongly or
// not at all ("wrong"), each with a newly shuffled order and options and
// the same time per question.
func (s *Server) handleExamAgain(c echo.Context) error {
	e, err := s.ownExam(c)
	if err != nil {
		return err
	}
	if !e.Submitted() {
		return c.Redirect(http.StatusSeeOther, questionURL(e, firstOpenPosition(e)))
	}
	var ids []string
	switch c.FormValue("which") {
	case "all":
		ids = e.QuestionIDs()
	case "wrong":
		ids = e.Wrong()
	default:
		return examsim.E(examsim.EINVALID, "exam.error_again")
	}
	ids = slices.DeleteFunc(ids, func(id string) bool { _, ok := s.Bank.Question(id); return !ok })
	if len(ids) == 0 {
		return examsim.E(examsim.EINVALID, "exam.error_nothing_wrong")
	}
	per := e.Deadline.Sub(e.StartedAt) / time.Duration(max(len(e.Items), 1))
	seed := rand.Int64() // #nosec G404 -- orders the questions the learner then sees; not a secret
	now := s.now()
	again := &examsim.Exam{
		LearnerID: e.LearnerID, Lang: pageOf(c).Lang, Topics: e.Topics, Concept: e.Concept, PassMark: e.PassMark,
		Blueprint: e.Blueprint && len(ids) == len(e.Items), Seed: seed, StartedAt: now,
		Deadline: now.Add(max(per*time.Duration(len(ids)), time.Minute)),
		Items:    examsim.ShuffleExam(seed, ids, len(ids), s.optionLetters),
	}
	if err := s.Exams.CreateExam(c.Request().Context(), again); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, questionURL(again, 1))
}
