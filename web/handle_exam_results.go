package web

import (
	"net/http"
	"slices"
	"sort"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/exam"
	"github.com/examsim/examsim/questions"
)

// examResultItem is one question of a submitted exam as the review shows it.
type examResultItem struct {
	Item    *examsim.ExamItem
	Q       *questions.Question // nil if the question left the bank
	Tx      *questions.Text
	Options []shownOption
	// Feedback is the scored explanation with its flag form.
	Feedback feedbackView
}

// conceptRow is one concept's line in a breakdown.
type conceptRow struct {
	Topic     string
	Objective string // the objective id, when the topic has objectives
	Stat      examsim.ConceptStat
}

// startsObjective says whether row i opens a new objective's group: rows
// are in teaching order, so each objective's concepts stand together.
func startsObjective(rows []conceptRow, i int) bool {
	r := rows[i]
	return r.Objective != "" && (i == 0 || rows[i-1].Objective != r.Objective || rows[i-1].Topic != r.Topic)
}

// newConceptRow is an empty row for concept of topic.
func newConceptRow(bank *questions.Bank, topic, concept string) *conceptRow {
	row := &conceptRow{Topic: topic, Stat: examsim.ConceptStat{Concept: concept}}
	if tp, ok := bank.Topic(topic); ok {
		row.Objective = tp.ObjectiveOf(concept)
	}
	return row
}

// examResultsView is a submitted exam's results page.
type examResultsView struct {
	Exam      *examsim.Exam
	OnlyWrong bool
	Wrong     int // questions not answered right
	Concepts  []conceptRow
	Items     []examResultItem
	// Objectives is the per-objective report of a blueprint exam.
	Objectives []objectiveRow
}

// objectiveRow is one objective's result in a blueprint exam.
type objectiveRow struct {
	Topic, Objective string
	Correct, Total   int
}

// Percent is the share right, rounded down.
func (r objectiveRow) Percent() int { return 100 * r.Correct / max(r.Total, 1) }

// handleExamResults shows a submitted exam's score, the pass or fail line,
// the per-concept breakdown and a review of every question (or only the
// wrong ones).
func (s *Server) handleExamResults(c echo.Context) error {
	e, err := s.ownExam(c)
	if err != nil {
		return err
	}
	if !e.Submitted() {
		return c.Redirect(http.StatusSeeOther, questionURL(e, firstOpenPosition(e)))
	}
	v := examResultsView{Exam: e, OnlyWrong: c.QueryParam("show") == "wrong"}
	stats := map[string]*conceptRow{}
	var order []string
	for _, it := range e.Items {
		if !it.Correct {
			v.Wrong++
		}
		q, ok := s.Bank.Question(it.QuestionID)
		if !ok {
			continue
		}
		if e.Blueprint {
			v.addObjective(s.Bank, q, it.Correct)
		}
		for _, concept := range q.Concepts {
			row := stats[concept]
			if row == nil {
				row = newConceptRow(s.Bank, q.Topic, concept)
				stats[concept] = row
				order = append(order, concept)
			}
			row.Stat.Add(it.Correct, it.Explanation != "", it.EffectiveBand())
		}
		if v.OnlyWrong && it.Correct {
			continue
		}
		tx := s.text(c, q)
		fb, err := s.itemFeedback(c, q, tx, it)
		if err != nil {
			return err
		}
		v.Items = append(v.Items, examResultItem{Item: it, Q: q, Tx: tx, Options: shownOptions(it, tx), Feedback: fb})
	}
	sort.SliceStable(v.Objectives, func(i, j int) bool { return v.Objectives[i].Objective < v.Objectives[j].Objective })
	for _, id := range topicConceptOrder(s.Bank, order) {
		v.Concepts = append(v.Concepts, *stats[id])
	}
	return Render(c, http.StatusOK, ExamResultsPage(v))
}

// addObjective counts an item under its question's objective, keeping the
// objectives in the order they are first met.
func (v *examResultsView) addObjective(bank *questions.Bank, q *questions.Question, correct bool) {
	tp, ok := bank.Topic(q.Topic)
	if !ok {
		return
	}
	id := exam.ObjectiveOf(tp, q)
	i := slices.IndexFunc(v.Objectives, func(r objectiveRow) bool { return r.Topic == q.Topic && r.Objective == id })
	if i < 0 {
		v.Objectives = append(v.Objectives, objectiveRow{Topic: q.Topic, Objective: id})
		i = len(v.Objectives) - 1
	}
	v.Objectives[i].Total++
	if correct {
		v.Objectives[i].Correct++
	}
}

// itemFeedback builds an exam item's feedback; once the exam is submitted
// an answered item is an attempt, and is flagged as one.
func (s *Server) itemFeedback(c echo.Context, q *questions.Question, tx *questions.Text, it *examsim.ExamItem) (feedbackView, error) {
	if it.Pending && it.AttemptID != 0 {
		// Scored on this view, through its attempt: UpdateScore keeps the
		// exam answer in step.
		if a, err := s.Attempts.FindAttempt(c.Request().Context(), it.AttemptID); err == nil {
			s.scorePending(c, q, a)
			if !a.Pending {
				it.SetScored(a.Verdict)
			}
		}
	}
	fb := buildFeedback(tx, itemScored(it))
	fb.TestID = "item-"
	if s.Disputes == nil || it.AttemptID == 0 {
		return fb, nil
	}
	fb.ID = "-" + strconv.FormatInt(it.AttemptID, 10)
	flag, err := s.Disputes.FindFlag(c.Request().Context(), examsim.Target{Kind: examsim.TargetAttempt, ID: it.AttemptID})
	if err != nil {
		return fb, err
	}
	fb.Flag = flagView{Flag: flag, Action: attemptURL(it.AttemptID) + "/flag", Back: flagBackExam}
	return fb, nil
}

// topicConceptOrder sorts concept ids in the order their topics teach them,
// grouped by objective where a topic has objectives.
func topicConceptOrder(bank *questions.Bank, ids []string) []string {
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	var out []string
	for _, tp := range bank.Topics {
		for _, c := range tp.ConceptOrder() {
			if want[c] {
				out = append(out, c)
				delete(want, c)
			}
		}
	}
	for _, id := range ids { // concepts no topic lists, last
		if want[id] {
			out = append(out, id)
		}
	}
	return out
}
