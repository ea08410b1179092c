package web_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/examsim/examsim/web/webtest"
)

// TestMCPRepliesAreNotStored: every /mcp reply, the initialize answer, a
// tool call's and an error's, carries Cache-Control: no-store, as README
// promises of every API reply.
func TestMCPRepliesAreNotStored(t *testing.T) {
	app := webtest.Start(t)
	send := func(session, body string) (*http.Response, string) {
		req, _ := http.NewRequest("POST", app.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b)
	}
	init, _ := send("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	session := init.Header.Get("Mcp-Session-Id")
	send(session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	call, body := send(session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"#12345"}}}`)
	noSession, _ := send("", `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
	for name, resp := range map[string]*http.Response{"initialize": init, "tools/call": call, "no session (400)": noSession} {
		if cc := resp.Header.Get("Cache-Control"); !strings.Contains(cc, "no-store") || strings.Contains(cc, "no-cache") {
			t.Errorf("%s (%d): Cache-Control %q; want no-store", name, resp.StatusCode, cc)
		}
	}
	if !strings.Contains(body, "12345") {
		t.Errorf("the tool call's reply: %.300s", body)
	}
}
