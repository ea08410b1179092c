package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/sandbox"
)

// sandboxQuery is what the learner chose: a scenario, an agent ("both" puts
// the two side by side), generic errors or not, and the jitter seed.
type sandboxQuery struct {
	Scenario string
	Agent    string
	Generic  bool
	Seed     uint64
}

// parseSandboxQuery reads a choice from query or form values. An empty
// scenario is allowed (nothing chosen yet); anything unknown is refused.
func parseSandboxQuery(get func(string) string) (sandboxQuery, error) {
	q := sandboxQuery{Scenario: get("scenario"), Agent: get("agent"), Seed: 1}
	if q.Agent == "" {
		q.Agent = "both"
	}
	if q.Scenario != "" {
		if _, ok := sandbox.FindScenario(q.Scenario); !ok {
			return q, examsim.E(examsim.EINVALID, "sandbox.error.unknown_scenario", "Scenario", q.Scenario)
		}
	}
	if q.Agent != "both" && q.Agent != string(sandbox.Structured) && q.Agent != string(sandbox.Naive) {
		return q, examsim.E(examsim.EINVALID, "sandbox.error.unknown_agent", "Agent", q.Agent)
	}
	switch get("generic") {
	case "", "0", "false":
	case "1", "true", "on":
		q.Generic = true
	default:
		return q, examsim.E(examsim.EINVALID, "sandbox.error.bad_value", "Name", "generic")
	}
	if s := get("seed"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return q, examsim.E(examsim.EINVALID, "sandbox.error.bad_value", "Name", "seed")
		}
		q.Seed = n
	}
	return q, nil
}

// with returns the query with one field changed.
func (q sandboxQuery) with(name, value string) sandboxQuery {
	switch name {
	case "agent":
		q.Agent = value
	case "scenario":
		q.Scenario = value
	}
	return q
}

// url is the /sandbox address of the query, plus extra name/value pairs.
func (q sandboxQuery) url(extra ...string) string {
	v := url.Values{}
	v.Set("scenario", q.Scenario)
	v.Set("agent", q.Agent)
	if q.Generic {
		v.Set("generic", "1")
	}
	if q.Seed != 1 {
		v.Set("seed", strconv.FormatUint(q.Seed, 10))
	}
	for i := 0; i+1 < len(extra); i += 2 {
		v.Set(extra[i], extra[i+1])
	}
	return "/sandbox?" + v.Encode()
}

// runs returns the runs the query asks for: one agent, or both.
func (q sandboxQuery) runs() []sandbox.Run {
	agents := []sandbox.AgentKind{sandbox.AgentKind(q.Agent)}
	if q.Agent == "both" {
		agents = sandbox.Agents
	}
	out := make([]sandbox.Run, len(agents))
	for i, a := range agents {
		out[i] = sandbox.Run{Scenario: q.Scenario, Agent: a, Generic: q.Generic, Seed: q.Seed}
	}
	return out
}

func (q sandboxQuery) streamURL(r sandbox.Run) string {
	one := q.with("agent", string(r.Agent))
	return strings.Replace(one.url(), "/sandbox?", "/sandbox/stream?", 1)
}

// sandboxPage is everything the sandbox page shows.
type sandboxPage struct {
	Query  sandboxQuery
	Traces []traceView
	// A prediction just checked without JavaScript.
	Checked         int
	CheckedGot      string
	CheckedExpected string
	CheckedRight    bool
	Edit            *editView

	MCPURL       string
	ClientConfig string
	InspectorCmd string
}

// traceView is one agent's trace on the page.
type traceView struct {
	Run       sandbox.Run
	Events    []sandbox.Event
	StreamURL string // where the player streams the trace live; "" for a replay
	Replay    bool   // the trace of an edited result
	StepMode  bool   // predicting step by step without JavaScript
	Pending   *sandbox.Event
}

// editView is the result editor: the call being edited, the learner's text,
// and what is wrong with it.
type editView struct {
	Call         int
	Text         string
	Error        string // translated
	Line, Column int
}

// handleSandbox shows the sandbox: the chooser, and for a chosen scenario
// the whole trace of each agent rendered on the server, which the player
// replaces with a live stream where JavaScript runs.
func (s *Server) handleSandbox(c echo.Context) error {
	q, err := parseSandboxQuery(c.QueryParam)
	if err != nil {
		return err
	}
	v := s.newSandboxPage(c, q)
	if q.Scenario == "" {
		return Render(c, http.StatusOK, SandboxPage(v))
	}
	step, err := optionalInt(c.QueryParam("step"), "step")
	if err != nil {
		return err
	}
	editCall, err := optionalInt(c.QueryParam("edit"), "edit")
	if err != nil {
		return err
	}
	if (step > 0 || editCall > 0) && q.Agent == "both" {
		return examsim.E(examsim.EINVALID, "sandbox.error.one_agent")
	}
	for _, run := range q.runs() {
		tr, err := s.Sandbox.Play(c.Request().Context(), run, nil)
		if err != nil {
			return err
		}
		tv := traceView{Run: run, Events: tr.Events, StreamURL: q.streamURL(run)}
		if step > 0 {
			tv.StepMode, tv.StreamURL = true, ""
			tv.Events, tv.Pending = upToDecision(tr, step)
		}
		if editCall > 0 {
			text, ok := resultOfCall(tr, editCall)
			if !ok {
				return examsim.E(examsim.EINVALID, "sandbox.error.no_such_call", "Call", editCall)
			}
			v.Edit = &editView{Call: editCall, Text: text}
		}
		v.Traces = append(v.Traces, tv)
	}
	if checked, err := optionalInt(c.QueryParam("checked"), "checked"); err == nil && checked > 0 && len(v.Traces) == 1 {
		got := c.QueryParam("got")
		for _, d := range s.decisionsOf(c.Request().Context(), v.Traces[0].Run) {
			if d.Decision == checked && sandbox.ValidMove(got) {
				v.Checked, v.CheckedGot, v.CheckedExpected = checked, got, string(d.Should)
				v.CheckedRight = got == string(d.Should)
			}
		}
	}
	return Render(c, http.StatusOK, SandboxPage(v))
}

func (s *Server) newSandboxPage(c echo.Context, q sandboxQuery) sandboxPage {
	mcpURL := c.Scheme() + "://" + c.Request().Host + "/mcp"
	config, _ := json.MarshalIndent(map[string]any{"mcpServers": map[string]any{
		"examsim-sandbox": map[string]any{"type": "http", "url": mcpURL},
	}}, "", "  ")
	return sandboxPage{
		Query:        q,
		MCPURL:       mcpURL,
		ClientConfig: string(config),
		InspectorCmd: fmt.Sprintf("npx @modelcontextprotocol/inspector --cli %s --method tools/call --tool-name lookup_customer --tool-arg email=maria.k@example.com", mcpURL),
	}
}

func (s *Server) decisionsOf(ctx context.Context, run sandbox.Run) []sandbox.Event {
	tr, err := s.Sandbox.Play(ctx, run, nil)
	if err != nil {
		return nil
	}
	return tr.Decisions()
}

// upToDecision returns the events before decision n and that decision, or
// the whole trace when there is no decision n.
func upToDecision(tr *sandbox.Trace, n int) ([]sandbox.Event, *sandbox.Event) {
	for i, e := range tr.Events {
		if e.Kind == sandbox.KindDecision && e.Decision == n {
			pending := e
			return tr.Events[:i], &pending
		}
	}
	return tr.Events, nil
}

// resultOfCall returns the CallToolResult of tool call n as indented JSON.
func resultOfCall(tr *sandbox.Trace, n int) (string, bool) {
	for _, e := range tr.Events {
		if e.Kind == sandbox.KindResult && e.Call == n {
			return string(e.Result), true
		}
	}
	return "", false
}

// toolOfCall returns which tool call n called.
func toolOfCall(tr *sandbox.Trace, n int) (string, bool) {
	for _, e := range tr.Events {
		if e.Kind == sandbox.KindResult && e.Call == n {
			return e.Tool, true
		}
	}
	return "", false
}

func optionalInt(s, name string) (int, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 1000 {
		return 0, examsim.E(examsim.EINVALID, "sandbox.error.bad_value", "Name", name)
	}
	return n, nil
}

// taxonomyRow maps one case onto the four categories and onto the
// retryable / recoverable / fatal taxonomy; its case and advice are i18n
// messages sandbox.taxonomy.case.<Case> and sandbox.taxonomy.do.<Case>.
type taxonomyRow struct {
	Case, Category, Retryable, Class string
}

var taxonomyRows = []taxonomyRow{
	{"timeout", "transient", "true", "retryable"},
	{"rate_limit", "transient", "true", "retryable"},
	{"retries_exhausted", "transient", "true", "fatal"},
	{"validation", "validation", "false", "recoverable"},
	{"unfixable", "validation", "false", "fatal"},
	{"business", "business", "false", "fatal"},
	{"permission_switch", "permission", "false", "recoverable"},
	{"permission_expired", "permission", "false", "fatal"},
	{"empty", "—", "—", "—"},
}

// Small formatting helpers for the sandbox templates.

func boolAttr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func u64(n uint64) string { return strconv.FormatUint(n, 10) }

func i64(n int64) string { return strconv.FormatInt(n, 10) }

func seconds(ms int64) string { return fmt.Sprintf("%.2f", float64(ms)/1000) }

func movesAttr(ms []sandbox.Move) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = string(m)
	}
	return strings.Join(parts, " ")
}

func countRight(ps []*examsim.Prediction) int {
	n := 0
	for _, p := range ps {
		if p.Correct {
			n++
		}
	}
	return n
}
