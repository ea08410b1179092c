package web_test

import (
	"io"
	"strings"
	"testing"

	"github.com/examsim/examsim/web/webtest"
)

// TestSandboxStreamOnShutdown: once the server is shutting down, a sandbox
// trace stream stops with an SSE retry hint instead of running to its end
// (the classroom and MCP streams are checked on a real process, in
// cmd/examsim's SIGTERM test).
func TestSandboxStreamOnShutdown(t *testing.T) {
	app := webtest.Start(t)
	c := newClient(t, app.Server)
	const path = "/sandbox/stream?scenario=transient&agent=structured"
	if _, events := readSSE(t, c, path); len(events) == 0 || events[len(events)-1].name != "end" {
		t.Fatalf("before shutdown the trace should play to its end: %v", events)
	}
	app.Web.CloseStreams()
	resp, err := c.http.Get(c.base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body) // returns at EOF: the server ended the stream
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(body)), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "retry: ") || strings.Contains(string(body), "event: end") {
		t.Errorf("a stream during shutdown ended with %q; want a retry hint and no end event:\n%s", last, body)
	}
}
