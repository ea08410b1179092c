package sandbox

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// progressEvery is how often a tool that waits says how far it got.
const progressEvery = 500 * time.Millisecond

// clientSide is what a tool may ask of the client that called it: progress
// notifications, when the request carried a progressToken, and the user's
// input through elicitation/create, when the client declared elicitation.
type clientSide struct {
	ctx     context.Context
	session *mcp.ServerSession
	token   any
}

func newClientSide(ctx context.Context, req *mcp.CallToolRequest) *clientSide {
	if req == nil || req.Session == nil {
		return nil
	}
	var token any
	if req.Params != nil {
		token = req.Params.GetProgressToken()
	}
	return &clientSide{ctx: ctx, session: req.Session, token: token}
}

// waitOut waits d in real time while telling the client how far it got,
// and reports whether it waited it all. It waits only for a client that
// asked for progress and only for a known, short outage: one that says how
// long it lasts (d) and ends within SlowOutage. Otherwise the caller fails
// fast, as before, with retry_after_ms.
func (c *clientSide) waitOut(d time.Duration) bool {
	if c == nil || c.token == nil || d <= 0 || d > SlowOutage {
		return false
	}
	start := time.Now()
	tick := time.NewTicker(progressEvery)
	defer tick.Stop()
	for {
		waited := min(time.Since(start), d)
		_ = c.session.NotifyProgress(c.ctx, &mcp.ProgressNotificationParams{
			ProgressToken: c.token,
			Progress:      float64(waited.Milliseconds()),
			Total:         float64(d.Milliseconds()),
			Message: fmt.Sprintf("The customer database is down for %s more; waiting it out instead of failing (%s of %s)",
				formatWait(d-waited), formatWait(waited), formatWait(d)),
		})
		if waited >= d {
			return true
		}
		select {
		case <-c.ctx.Done():
			return false
		case <-tick.C:
		}
	}
}

// canAsk reports whether the client can put a question to its user.
func (c *clientSide) canAsk() bool {
	if c == nil {
		return false
	}
	p := c.session.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.Elicitation != nil
}

// ask puts a form to the client's user through elicitation/create and
// returns the action ("accept", "decline" or "cancel") and the answer.
func (c *clientSide) ask(message string, schema map[string]any) (string, map[string]any, error) {
	res, err := c.session.Elicit(c.ctx, &mcp.ElicitParams{Message: message, RequestedSchema: schema})
	if err != nil {
		return "", nil, err
	}
	return res.Action, res.Content, nil
}
