package web

import (
	"encoding/json"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/sandbox"
	"github.com/examsim/examsim/web/internal/sse"
)

// handleSandboxStream plays one agent's run and sends each event as it
// happens, as server-sent events carrying the event's markup in the
// learner's language. The page's player paces them on the simulated clock.
func (s *Server) handleSandboxStream(c echo.Context) error {
	q, err := parseSandboxQuery(c.QueryParam)
	if err != nil {
		return err
	}
	if q.Scenario == "" || q.Agent == "both" {
		return examsim.E(examsim.EINVALID, "sandbox.error.one_agent")
	}
	run := q.runs()[0]
	if err := run.Check(); err != nil {
		return err
	}
	v := s.newSandboxPage(c, q)
	tv := traceView{Run: run}

	stream := sse.Start(c)
	send := func(name string, data any) {
		b, _ := json.Marshal(data) // maps of strings and ints: it cannot fail
		_ = stream.Event(name, b)  // a client gone stops reading; the run ends with the request
	}
	ctx, stop := s.streamContext(c.Request().Context())
	defer stop()
	_, err = s.Sandbox.Play(ctx, run, func(ev sandbox.Event) {
		html, err := renderFor(c.Request().Context(), pageOf(c), sandboxEvent(v, tv, ev))
		if err != nil {
			return
		}
		send("step", map[string]any{"seq": ev.Seq, "kind": ev.Kind, "html": string(html)})
	})
	if err != nil && s.shuttingDown() {
		_ = stream.Send(retryHint()) // the page falls back to the whole trace, or reconnects
		return nil
	}
	if err != nil {
		// The response has begun, so the error goes down the stream.
		s.Logger.Error("sandbox stream", "err", err)
		p := pageOf(c)
		send("failed", map[string]string{"message": p.Catalog.T(p.Lang, "sandbox.stream_error")})
		return nil
	}
	send("end", map[string]any{})
	return nil
}
