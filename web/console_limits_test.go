package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/examsim/examsim/sandbox"
	"github.com/examsim/examsim/web"
	"github.com/examsim/examsim/web/webtest"
)

// consoleCall posts the console form as the page does.
func consoleCall(c *client, id, args, meta string) *page {
	return c.post("/sandbox/console?tool=issue_refund", "/sandbox/console", url.Values{
		"tool": {"issue_refund"}, "console": {id}, "arguments": {args}, "meta": {meta}, "action": {"call"}})
}

// TestConsoleSessionsPerClient: one address opens new console sessions up
// to its limit, then gets 429 with a wait and a message; its sessions go on
// working.
func TestConsoleSessionsPerClient(t *testing.T) {
	app := webtest.Start(t, webtest.WithConfig(func(c *web.Config) {
		c.ConsoleSessionsPerClient = web.Limit{Burst: 3, Every: time.Hour}
	}))
	c := newClient(t, app.Server)
	var id string
	for i := 0; i < 3; i++ {
		p := consoleCall(c, "", `{"order_id": "#12345", "amount_gbp": 10}`, "{}")
		if p.status != http.StatusOK {
			t.Fatalf("new session %d: %d", i+1, p.status)
		}
		id, _ = p.doc.Find(`[data-testid=console]`).Attr("data-console")
	}
	p := consoleCall(c, "", `{"order_id": "#12345", "amount_gbp": 10}`, "{}")
	if p.status != http.StatusTooManyRequests || p.header.Get("Retry-After") == "" || !strings.Contains(p.body, "Too many new console sessions") {
		t.Errorf("a fourth new session from one address: %d, Retry-After %q; want 429 with a wait and the reason", p.status, p.header.Get("Retry-After"))
	}
	if p := consoleCall(c, id, `{"order_id": "#12345", "amount_gbp": 10}`, "{}"); p.status != http.StatusOK || p.doc.Find(`[data-testid=console-expired]`).Length() != 0 {
		t.Errorf("a call in a session the client has: %d; want it to go on in that session", p.status)
	}
}

// TestConsoleEvictionIsShown: a learner whose session was closed to make
// room for others is told so on their next call, not silently started
// afresh.
func TestConsoleEvictionIsShown(t *testing.T) {
	sb := sandbox.New()
	app := webtest.Start(t, webtest.WithConfig(func(c *web.Config) { c.Sandbox = sb }))
	c := newClient(t, app.Server)
	p := consoleCall(c, "", `{"order_id": "#12345", "amount_gbp": 375}`, "{}")
	id, _ := p.doc.Find(`[data-testid=console]`).Attr("data-console")
	for i := 0; i < sandbox.MaxConsoleSessions; i++ { // other learners, elsewhere
		if _, _, err := sb.Console().Session(context.Background(), ""); err != nil {
			t.Fatal(err)
		}
	}
	p = consoleCall(c, id, `{"order_id": "#12345", "amount_gbp": 375}`, "{}")
	if p.status != http.StatusOK || !strings.Contains(p.text(`[data-testid=console-evicted]`), "to make room") {
		t.Errorf("after eviction: %d, notice %q; want the page to say the session was closed to make room", p.status, p.text(`[data-testid=console-evicted]`))
	}
}

// TestConsoleDeepNestingOverHTTP: arguments nested a thousand deep are
// answered with the tool's validation error (200, not 500), and the same
// console session goes on working.
func TestConsoleDeepNestingOverHTTP(t *testing.T) {
	c := newClient(t, newServer(t))
	deep := strings.Repeat(`{"a":`, 1000) + "1" + strings.Repeat("}", 1000)
	first := consoleCall(c, "", `{"order_id": "#12345", "amount_gbp": 10}`, "{}")
	id, _ := first.doc.Find(`[data-testid=console]`).Attr("data-console")
	for _, bad := range []struct{ args, meta string }{
		{`{"order_id": "#12345", "amount_gbp": 10, "x": ` + deep + `}`, "{}"},
		{`{"order_id": "#12345", "amount_gbp": 10}`, `{"x": ` + deep + `}`},
	} {
		p := consoleCall(c, id, bad.args, bad.meta)
		res := p.doc.Find(`[data-testid=console-result]`)
		if p.status != http.StatusOK || res.AttrOr("data-category", "") != "validation" || p.doc.Find(`[data-testid=console-not-sent]`).Length() != 1 {
			t.Errorf("nested 1000 deep: %d, category %q; want 200 with the tool's validation error, marked not sent", p.status, res.AttrOr("data-category", ""))
		}
		after := consoleCall(c, id, `{"order_id": "#12345", "amount_gbp": 10}`, "{}")
		if after.status != http.StatusOK || after.doc.Find(`[data-testid=console-result]`).AttrOr("data-is-error", "") != "false" ||
			after.doc.Find(`[data-testid=console-expired]`).Length() != 0 {
			t.Errorf("the next call in the same session: %d; want it to succeed there", after.status)
		}
	}
}
