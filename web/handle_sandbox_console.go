package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/sandbox"
)

// consolePage is the tool console: the tools to pick from, the chosen one's
// schemas, the form, the last call on the wire and the session's history.
type consolePage struct {
	Tools      []sandbox.ToolInfo
	Tool       sandbox.ToolInfo
	ID         string // the console session, carried in the form
	Args, Meta string
	Last       *sandbox.ConsoleCall
	History    []sandbox.ConsoleCall
	Error      string // translated
	Expired    bool   // the session had ended, so a new one was opened
	Evicted    bool   // it was closed to make room for others' sessions
	NewSession bool   // the learner asked for a new session
}

// consoleTool returns the tool named name, or the first one for "".
func consoleTool(tools []sandbox.ToolInfo, name string) (sandbox.ToolInfo, error) {
	if name == "" {
		return tools[0], nil
	}
	for _, t := range tools {
		if t.Name == name {
			return t, nil
		}
	}
	return sandbox.ToolInfo{}, examsim.E(examsim.EINVALID, "sandbox.console.unknown_tool", "Tool", name)
}

// handleSandboxConsole shows the console for a tool, in the session the
// link carries (a new one if it has none or it ended).
func (s *Server) handleSandboxConsole(c echo.Context) error {
	tools := s.Sandbox.Tools()
	tool, err := consoleTool(tools, c.QueryParam("tool"))
	if err != nil {
		return err
	}
	v := consolePage{Tools: tools, Tool: tool, Args: tool.ExampleArgs, Meta: tool.ExampleMeta}
	if id := c.QueryParam("console"); id != "" {
		v.ID = id
		v.History = s.Sandbox.Console().History(id)
	}
	return Render(c, http.StatusOK, SandboxConsolePage(v))
}

// handleSandboxConsoleCall makes one call from the console form (or opens a
// new session), and shows the page again with the result: a plain form post,
// so the console works without JavaScript.
func (s *Server) handleSandboxConsoleCall(c echo.Context) error {
	tools := s.Sandbox.Tools()
	tool, err := consoleTool(tools, c.FormValue("tool"))
	if err != nil {
		return err
	}
	con := s.Sandbox.Console()
	ctx := c.Request().Context()
	v := consolePage{Tools: tools, Tool: tool, Args: c.FormValue("arguments"), Meta: c.FormValue("meta")}
	if c.FormValue("action") == "call-form" { // the generated form, not the raw JSON
		v.Args = formArguments(schemaFields(tool.InputSchema, ""), c.FormValue)
	}
	id := c.FormValue("console")
	if c.FormValue("action") == "new" {
		con.Close(id)
		id, v.NewSession = "", true
		v.Args, v.Meta = tool.ExampleArgs, tool.ExampleMeta
	}
	id, fresh, err := con.SessionAdmitted(ctx, id, func() error {
		if ok, wait := s.limits.console.Take(s.clientKey(c.Request()), s.now()); !ok {
			return examsim.E(examsim.ERATELIMIT, "sandbox.console.rate_limited", "Minutes", retryAfter(c, wait))
		}
		return nil
	})
	if err != nil {
		return err
	}
	if old := c.FormValue("console"); fresh && old != "" && !v.NewSession {
		v.Expired, v.Evicted = true, con.Evicted(old)
	}
	v.ID = id
	if v.NewSession {
		return Render(c, http.StatusOK, SandboxConsolePage(v))
	}
	call, err := con.Call(ctx, id, tool.Name, v.Args, v.Meta)
	if err != nil {
		return formError(c, err, func(_ int, reason string) error {
			v.Error, v.History = reason, con.History(id)
			return Render(c, http.StatusUnprocessableEntity, SandboxConsolePage(v))
		}, examsim.EINVALID)
	}
	v.Last, v.History = call, con.History(id)
	return Render(c, http.StatusOK, SandboxConsolePage(v))
}

// consoleURL links the console for a tool in a session.
func consoleURL(tool, id string) string {
	u := "/sandbox/console?tool=" + tool
	if id != "" {
		u += "&console=" + id
	}
	return u
}

func categorySuffix(c string) string {
	if c == "" {
		return ""
	}
	return ", " + c
}
