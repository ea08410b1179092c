package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/examsim/examsim"
)

// handleSandboxReplay replays an agent on a tool result the learner edited.
// A result that does not parse, or is not a result at all, re-shows the
// editor with the learner's text and a message that points at the line and
// column of the problem.
func (s *Server) handleSandboxReplay(c echo.Context) error {
	q, err := parseSandboxQuery(c.FormValue)
	if err != nil {
		return err
	}
	if q.Scenario == "" || q.Agent == "both" {
		return examsim.E(examsim.EINVALID, "sandbox.error.one_agent")
	}
	call, err := optionalInt(c.FormValue("call"), "call")
	if err != nil || call == 0 {
		return examsim.E(examsim.EINVALID, "sandbox.error.bad_value", "Name", "call")
	}
	run := q.runs()[0]
	original, err := s.Sandbox.Play(c.Request().Context(), run, nil)
	if err != nil {
		return err
	}
	tool, ok := toolOfCall(original, call)
	if !ok {
		return examsim.E(examsim.EINVALID, "sandbox.error.no_such_call", "Call", call)
	}
	v := s.newSandboxPage(c, q)
	text := c.FormValue("result")
	v.Edit = &editView{Call: call, Text: text}

	edited, perr := s.Sandbox.CheckEditedResult(tool, text)
	if perr != nil {
		p := pageOf(c)
		kv := []any{"Line", perr.Line, "Column", perr.Column}
		for k, a := range perr.Args {
			kv = append(kv, k, a)
		}
		v.Edit.Error = p.Catalog.T(p.Lang, "sandbox.edit.at", "Line", perr.Line, "Column", perr.Column) + " " +
			p.Catalog.T(p.Lang, perr.Message, kv...)
		v.Edit.Line, v.Edit.Column = perr.Line, perr.Column
		v.Traces = []traceView{{Run: run, Events: original.Events, StreamURL: q.streamURL(run)}}
		return Render(c, http.StatusUnprocessableEntity, SandboxPage(v))
	}
	run.Edits = map[int]*mcp.CallToolResult{call: edited}
	replayed, err := s.Sandbox.Play(c.Request().Context(), run, nil)
	if err != nil {
		return err
	}
	v.Traces = []traceView{{Run: run, Events: replayed.Events, Replay: true}}
	return Render(c, http.StatusOK, SandboxPage(v))
}
