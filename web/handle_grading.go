package web

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
)

// gradingCandidates is how many of the latest unsure, unflagged
// explanations per kind the queue lists.
const gradingCandidates = 300

// queueRow is one explanation in the review queue.
type queueRow struct {
	G       *examsim.Gradable
	Title   string
	Flagged bool // the learner flagged it and no teacher has regraded it since
	Unsure  bool // the scorer was unsure and no teacher has regraded it
	URL     string
}

// gradingView is the queue page.
type gradingView struct {
	Rows  []queueRow
	All   bool // an admin: everyone's explanations
	Saved int  // the band just saved, or -1
}

func gradingURL(t examsim.Target) string {
	return "/class/grading/" + string(t.Kind) + "/" + strconv.FormatInt(t.ID, 10)
}

func (s *Server) needDisputes() error {
	if s.Disputes == nil {
		return examsim.E(examsim.ENOTFOUND, "error.page_not_found")
	}
	return nil
}

// handleGradingQueue lists the explanations waiting for a teacher: flagged
// by their learner, or scored with low confidence, from the teacher's
// classes (an admin's: everyone's), newest first.
func (s *Server) handleGradingQueue(c echo.Context) error {
	l, err := s.teacher(c)
	if err != nil {
		return err
	}
	if err := s.needDisputes(); err != nil {
		return err
	}
	list, err := s.Disputes.ListGradable(c.Request().Context(), examsim.ScopeOf(l), gradingCandidates)
	if err != nil {
		return err
	}
	v := gradingView{All: examsim.ScopeOf(l).All, Saved: -1}
	if b, err := strconv.Atoi(c.QueryParam("saved")); err == nil && examsim.CheckBand(b) == nil {
		v.Saved = b
	}
	for _, g := range list {
		q, _ := s.Bank.Question(g.QuestionID)
		flagged, unsure := g.Flag.Open(), g.Unsure()
		title := g.QuestionID
		if q != nil {
			title = s.text(c, q).Title
		}
		v.Rows = append(v.Rows, queueRow{G: g, Title: title, Flagged: flagged, Unsure: unsure, URL: gradingURL(g.Target)})
	}
	return Render(c, http.StatusOK, GradingQueuePage(v))
}

// gradingConcept is one tick box of the regrade form.
type gradingConcept struct {
	ID, Label string
	Checked   bool
}

// regradeView is the regrade page of one explanation.
type regradeView struct {
	G        *examsim.Gradable
	Q        *questions.Question
	Title    string
	Feedback feedbackView
	Band     int
	Concepts []gradingConcept
	Note     string // the teacher's note back to the learner, as typed
	Error    string
	URL      string
}

// gradable returns the explanation in the URL when the teacher may regrade it.
func (s *Server) gradable(c echo.Context) (*examsim.Gradable, *questions.Question, error) {
	l, err := s.teacher(c)
	if err != nil {
		return nil, nil, err
	}
	if err := s.needDisputes(); err != nil {
		return nil, nil, err
	}
	notFound := examsim.E(examsim.ENOTFOUND, "grading.error_not_found")
	kind, ok := examsim.ParseTargetKind(c.Param("kind"))
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if !ok || err != nil {
		return nil, nil, notFound
	}
	g, err := s.Disputes.FindGradable(c.Request().Context(), examsim.Target{Kind: kind, ID: id}, examsim.ScopeOf(l))
	if err != nil {
		return nil, nil, err
	}
	q, ok := s.Bank.Question(g.QuestionID)
	if !ok || q.Text(g.Lang) == nil {
		return nil, nil, examsim.E(examsim.ENOTFOUND, "error.question_not_found", "ID", g.QuestionID)
	}
	return g, q, nil
}

// regradeForm builds the regrade page with the band and ticks shown: the
// teacher's earlier regrade, else the scorer's verdict.
func (s *Server) regradeForm(c echo.Context, g *examsim.Gradable, q *questions.Question, band int, ticked []string, note string) regradeView {
	tx := s.text(c, q)
	se := gradableScored(g)
	se.Human = nil // the teacher reads what the scorer saw, evidence and all
	v := regradeView{G: g, Q: q, Title: tx.Title, Feedback: buildFeedback(tx, se), Band: band, Note: note, URL: gradingURL(g.Target)}
	v.Feedback.ForTeacher = true
	hints := map[string]string{}
	for _, c := range tx.Rubric().Concepts {
		hints[c.ID] = c.Hint
	}
	for _, c := range q.Text(g.Lang).Rubric().Concepts {
		label := hints[c.ID]
		if label == "" {
			label = c.Hint
		}
		v.Concepts = append(v.Concepts, gradingConcept{ID: c.ID, Label: label, Checked: slices.Contains(ticked, c.ID)})
	}
	return v
}

func hitIDs(hits []examsim.ConceptHit) []string {
	var out []string
	for _, h := range hits {
		if h.Hit {
			out = append(out, h.ID)
		}
	}
	return out
}

func (s *Server) handleGradingItem(c echo.Context) error {
	g, q, err := s.gradable(c)
	if err != nil {
		return err
	}
	band, ticked, note := g.Band, hitIDs(g.Concepts), ""
	if g.Human != nil {
		band, ticked, note = g.Human.Band, hitIDs(g.Human.Concepts), g.Human.Note
	}
	return Render(c, http.StatusOK, RegradePage(s.regradeForm(c, g, q, band, ticked, note)))
}

// handleRegrade stores a teacher's band, ticks and note to the learner. A
// bad band, an unknown concept or a note too long brings the form back with
// what was chosen and written kept.
func (s *Server) handleRegrade(c echo.Context) error {
	g, q, err := s.gradable(c)
	if err != nil {
		return err
	}
	form, _ := c.FormParams()
	ticked := form["concept"]
	note := strings.TrimSpace(formText(c, "note"))
	band, convErr := strconv.Atoi(c.FormValue("band"))
	var rubric []string
	for _, rc := range q.Text(g.Lang).Rubric().Concepts {
		rubric = append(rubric, rc.ID)
	}
	var problem *examsim.Error
	if convErr != nil || examsim.CheckBand(band) != nil {
		band, problem = -1, examsim.E(examsim.EINVALID, "grading.error_band")
	}
	for _, id := range ticked {
		if problem == nil && !slices.Contains(rubric, id) {
			problem = examsim.E(examsim.EINVALID, "grading.error_concept", "ID", id)
		}
	}
	if tooLong := (*examsim.Error)(nil); problem == nil && errors.As(examsim.CheckTeacherNote(note), &tooLong) {
		problem = tooLong
	}
	show := func(status int, reason string) error {
		v := s.regradeForm(c, g, q, band, ticked, note)
		v.Error = reason
		return Render(c, status, RegradePage(v))
	}
	showInvalid := func(_ int, reason string) error { return show(http.StatusUnprocessableEntity, reason) }
	if problem != nil {
		return formError(c, problem, showInvalid)
	}
	grade := &examsim.HumanGrade{Target: g.Target, Band: band, GraderID: pageOf(c).Learner.ID, GradedAt: s.now(), Note: note}
	for _, id := range rubric {
		grade.Concepts = append(grade.Concepts, examsim.ConceptHit{ID: id, Hit: slices.Contains(ticked, id)})
	}
	if err := s.Disputes.Regrade(c.Request().Context(), grade); err != nil {
		if msg, ok := s.unavailableText(c, err); ok {
			return show(http.StatusServiceUnavailable, msg)
		}
		return formError(c, err, showInvalid, examsim.EINVALID)
	}
	return c.Redirect(http.StatusSeeOther, "/class/grading?saved="+strconv.Itoa(band))
}

// gradableName names the learner of an explanation for a teacher.
func gradableName(ctx context.Context, g *examsim.Gradable) string {
	if g.Name == "" {
		return t(ctx, "grading.unnamed")
	}
	return g.Name
}
