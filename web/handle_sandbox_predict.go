package web

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/sandbox"
)

// handleSandboxPredict scores and stores a learner's prediction of an
// agent's move. The expected move comes from replaying the run on the
// server, never from the form. The player gets JSON; a plain form goes on
// to the next decision with the verdict shown.
func (s *Server) handleSandboxPredict(c echo.Context) error {
	q, err := parseSandboxQuery(c.FormValue)
	if err != nil {
		return err
	}
	if q.Scenario == "" || q.Agent == "both" {
		return examsim.E(examsim.EINVALID, "sandbox.error.one_agent")
	}
	n, err := optionalInt(c.FormValue("decision"), "decision")
	if err != nil || n == 0 {
		return examsim.E(examsim.EINVALID, "sandbox.error.bad_value", "Name", "decision")
	}
	move := c.FormValue("move")
	if !sandbox.ValidMove(move) {
		return examsim.E(examsim.EINVALID, "sandbox.error.bad_move", "Move", move)
	}
	run := q.runs()[0]
	var decision *sandbox.Event
	for _, d := range s.decisionsOf(c.Request().Context(), run) {
		if d.Decision == n {
			decision = &d
			break
		}
	}
	if decision == nil {
		return examsim.E(examsim.EINVALID, "sandbox.error.bad_value", "Name", "decision")
	}
	learner, err := s.ensureLearner(c)
	if err != nil {
		return err
	}
	p := &examsim.Prediction{LearnerID: learner.ID, Scenario: run.Scenario, Agent: string(run.Agent), Generic: run.Generic,
		Decision: n, Predicted: move, Expected: string(decision.Should), Correct: move == string(decision.Should)}
	if s.Predictions != nil {
		if err := s.Predictions.CreatePrediction(c.Request().Context(), p); err != nil {
			return err
		}
	}
	if wantsJSON(c) {
		return c.JSON(http.StatusOK, map[string]any{"correct": p.Correct, "expected": p.Expected, "predicted": p.Predicted})
	}
	return c.Redirect(http.StatusSeeOther, q.url("step", strconv.Itoa(n+1), "checked", strconv.Itoa(n), "got", move))
}
