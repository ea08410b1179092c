package sandbox

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawPost sends one JSON-RPC body to the endpoint with optional headers and
// returns the status, the headers and the body.
func rawPost(t *testing.T, url, body string, header map[string]string) (int, http.Header, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// rpcErrorOf decodes a JSON-RPC error body, failing the test if the body is
// not one (for instance the SDK's plain text).
func rpcErrorOf(t *testing.T, body string) (id json.RawMessage, code int) {
	t.Helper()
	var m struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &m); err != nil || m.Error == nil || m.JSONRPC != "2.0" {
		t.Fatalf("want a JSON-RPC error object, got %q", body)
	}
	return m.ID, m.Error.Code
}

// openSession initializes a session by hand and returns its id.
func openSession(t *testing.T, url string) string {
	t.Helper()
	code, h, body := rawPost(t, url, initialize, nil)
	if code != http.StatusOK || h.Get(sessionIDHeader) == "" {
		t.Fatalf("initialize: %d %q", code, body)
	}
	sid := h.Get(sessionIDHeader)
	inSession := map[string]string{sessionIDHeader: sid, "Mcp-Protocol-Version": ProtocolVersion}
	if code, _, body := rawPost(t, url, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, inSession); code != http.StatusAccepted {
		t.Fatalf("notifications/initialized: %d %q", code, body)
	}
	return sid
}

func TestOriginIsValidated(t *testing.T) {
	srv := httptest.NewServer(New().HTTPHandler(HTTPOptions{AllowedOrigins: []string{"https://tools.example.org"}}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	for _, tt := range []struct {
		origin string
		want   int
	}{
		{"", http.StatusOK},
		{"http://" + host, http.StatusOK},
		{"https://tools.example.org", http.StatusOK},
		{"https://evil.example", http.StatusForbidden},
		{"null", http.StatusForbidden},
		{"http://" + host + ".evil.example", http.StatusForbidden},
		{"https://" + host, http.StatusForbidden}, // same host, another scheme
	} {
		h := map[string]string{}
		if tt.origin != "" {
			h["Origin"] = tt.origin
		}
		code, _, body := rawPost(t, srv.URL, initialize, h)
		if code != tt.want {
			t.Errorf("Origin %q: status %d, want %d: %s", tt.origin, code, tt.want, body)
		}
		if tt.want == http.StatusForbidden {
			if id, c := rpcErrorOf(t, body); id != nil || c != codeInvalidRequest {
				t.Errorf("Origin %q: error id %s code %d", tt.origin, id, c)
			}
		}
	}
	// A GET for the event stream is checked too.
	req, _ := http.NewRequest("GET", srv.URL, nil)
	req.Header.Set("Origin", "https://evil.example")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("GET with a foreign Origin: %d", resp.StatusCode)
	}
}

// TestOriginSchemeFollowsTheRequest: behind a TLS proxy the endpoint's own
// origin is https://host, as HTTPOptions.Scheme says, and http://host is
// foreign.
func TestOriginSchemeFollowsTheRequest(t *testing.T) {
	srv := httptest.NewServer(New().HTTPHandler(HTTPOptions{Scheme: func(*http.Request) string { return "https" }}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	for origin, want := range map[string]int{"https://" + host: http.StatusOK, "http://" + host: http.StatusForbidden} {
		if code, _, body := rawPost(t, srv.URL, initialize, map[string]string{"Origin": origin}); code != want {
			t.Errorf("Origin %q behind TLS: status %d, want %d: %s", origin, code, want, body)
		}
	}
}

func TestParseOrigins(t *testing.T) {
	got, err := ParseOrigins(" https://a.example , http://b.example:8080/ ")
	if err != nil || strings.Join(got, " ") != "https://a.example http://b.example:8080" {
		t.Errorf("ParseOrigins = %v, %v", got, err)
	}
	for _, bad := range []string{"a.example", "ftp://a.example", "https://a.example/path", "https://"} {
		if _, err := ParseOrigins(bad); err == nil || !strings.Contains(err.Error(), "scheme://host") {
			t.Errorf("ParseOrigins(%q) = %v, want an error saying the form", bad, err)
		}
	}
}

func TestUnknownMethodsGetJSONRPCErrors(t *testing.T) {
	srv := httptest.NewServer(New().HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	sid := openSession(t, srv.URL)
	inSession := map[string]string{sessionIDHeader: sid, "Mcp-Protocol-Version": ProtocolVersion}

	code, _, body := rawPost(t, srv.URL, `{"jsonrpc":"2.0","id":7,"method":"foo/bar"}`, inSession)
	if id, c := rpcErrorOf(t, body); code != http.StatusOK || string(id) != "7" || c != codeMethodNotFound {
		t.Errorf("unknown method: %d id %s code %d", code, id, c)
	}
	code, _, body = rawPost(t, srv.URL, `{"jsonrpc":"2.0","method":"notifications/foo"}`, inSession)
	if id, c := rpcErrorOf(t, body); code != http.StatusBadRequest || id != nil || c != codeMethodNotFound {
		t.Errorf("unknown notification: %d id %s code %d", code, id, c)
	}
	// The session is still fine.
	code, _, body = rawPost(t, srv.URL, `{"jsonrpc":"2.0","id":8,"method":"tools/list"}`, inSession)
	if code != http.StatusOK || !strings.Contains(body, "lookup_customer") {
		t.Errorf("tools/list after the errors: %d %q", code, body)
	}
}

func TestRequestWithoutSessionIDGets400(t *testing.T) {
	srv := httptest.NewServer(New().HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":4,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"#12345"}}}`,
	} {
		code, _, resp := rawPost(t, srv.URL, body, nil)
		if code != http.StatusBadRequest {
			t.Errorf("%s without Mcp-Session-Id: %d, want 400", body, code)
		}
		if _, c := rpcErrorOf(t, resp); c != codeInvalidRequest || !strings.Contains(resp, "Mcp-Session-Id") {
			t.Errorf("the error should name the header: %s", resp)
		}
	}
}

// TestKnownMethodsMatchTheSDK keeps serverMethods in step with the SDK: none
// of them may meet the SDK's plain-text "not handled".
func TestKnownMethodsMatchTheSDK(t *testing.T) {
	srv := httptest.NewServer(New().HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	sid := openSession(t, srv.URL)
	inSession := map[string]string{sessionIDHeader: sid, "Mcp-Protocol-Version": ProtocolVersion}
	for _, m := range serverMethods {
		if m == "initialize" || m == "subscriptions/listen" { // one opens a session, the other a long stream
			continue
		}
		body := `{"jsonrpc":"2.0","id":1,"method":"` + m + `","params":{}}`
		if strings.HasPrefix(m, "notifications/") {
			body = `{"jsonrpc":"2.0","method":"` + m + `","params":{}}`
		}
		_, _, resp := rawPost(t, srv.URL, body, inSession)
		if strings.Contains(resp, "not handled") {
			t.Errorf("%s: the SDK does not handle it, drop it from serverMethods: %q", m, resp)
		}
	}
}

func TestNewSessionsAreAdmittedPerClient(t *testing.T) {
	var mu sync.Mutex
	left := 2
	srv := httptest.NewServer(New().HTTPHandler(HTTPOptions{AdmitSession: func(*http.Request) (bool, time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		left--
		return left >= 0, 1500 * time.Millisecond
	}}))
	defer srv.Close()
	sid := openSession(t, srv.URL)
	openSession(t, srv.URL)
	code, h, body := rawPost(t, srv.URL, initialize, nil)
	if code != http.StatusTooManyRequests || h.Get("Retry-After") != "2" {
		t.Errorf("a third session: %d Retry-After %q, want 429 and 2", code, h.Get("Retry-After"))
	}
	if id, c := rpcErrorOf(t, body); string(id) != "1" || c != codeInvalidRequest {
		t.Errorf("refusal: id %s code %d", id, c)
	}
	// Requests in a session it already has are not charged.
	inSession := map[string]string{sessionIDHeader: sid, "Mcp-Protocol-Version": ProtocolVersion}
	if code, _, body := rawPost(t, srv.URL, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, inSession); code != http.StatusOK {
		t.Errorf("a call in an existing session was refused: %d %s", code, body)
	}
}

// httpClient connects a real SDK client over Streamable HTTP.
func httpClient(t *testing.T, url string) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true, MaxRetries: -1}, &mcp.ClientSessionOptions{ProtocolVersion: ProtocolVersion})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func callOK(cs *mcp.ClientSession) error {
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "lookup_order", Arguments: map[string]any{"order_id": "#12345"}})
	return err
}

func TestSessionCapClosesTheLeastRecentlyUsed(t *testing.T) {
	sb := NewWithLimits(SessionLimits{Max: 3})
	srv := httptest.NewServer(sb.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	a, b, c := httpClient(t, srv.URL), httpClient(t, srv.URL), httpClient(t, srv.URL)
	// Each session's first flaky.example call meets the failing replica and
	// its second the healthy one, whatever the clock: that count is the
	// per-session state the old cap wiped for every session at once.
	flaky := func(cs *mcp.ClientSession) (failed bool, err error) {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "lookup_customer", Arguments: map[string]any{"email": "sam.ng@flaky.example"}})
		return err == nil && res.IsError, err
	}
	for _, cs := range []*mcp.ClientSession{b, c, a} { // a is now the most recent, b the least
		if failed, err := flaky(cs); err != nil || !failed {
			t.Fatalf("a first flaky.example call: failed %v, %v; want the failing replica", failed, err)
		}
	}
	d := httpClient(t, srv.URL)
	if err := callOK(b); err == nil {
		t.Error("the least recently used session should have been closed")
	}
	for name, cs := range map[string]*mcp.ClientSession{"a": a, "c": c} {
		if failed, err := flaky(cs); err != nil || failed {
			t.Errorf("session %s should live on with its state: its second flaky.example call failed %v, %v", name, failed, err)
		}
	}
	if err := callOK(d); err != nil {
		t.Errorf("session d should live on: %v", err)
	}
	if n := sb.sessions.len(); n != 3 {
		t.Errorf("%d sessions kept, want the cap of 3", n)
	}
}

func TestIdleSessionsAreClosed(t *testing.T) {
	sb := NewWithLimits(SessionLimits{Idle: 10 * time.Minute})
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	sb.sessions.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	srv := httptest.NewServer(sb.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	idle, busy := httpClient(t, srv.URL), httpClient(t, srv.URL)
	// A call in each makes sure their notifications/initialized, which the
	// server handles after answering 202, is behind them before time moves.
	for _, cs := range []*mcp.ClientSession{idle, busy} {
		if err := callOK(cs); err != nil {
			t.Fatal(err)
		}
	}
	advance(6 * time.Minute)
	if err := callOK(busy); err != nil {
		t.Fatal(err)
	}
	advance(6 * time.Minute) // idle: 12 min since it was heard from; busy: 6
	httpClient(t, srv.URL)
	if err := callOK(idle); err == nil {
		t.Error("a session idle past the limit should have been closed")
	}
	if err := callOK(busy); err != nil {
		t.Errorf("a session used within the limit should live on: %v", err)
	}
}

// toolsCall sends a tools/call in a session and returns the wire result.
func toolsCall(t *testing.T, url, sid, params string) map[string]any {
	t.Helper()
	inSession := map[string]string{sessionIDHeader: sid, "Mcp-Protocol-Version": ProtocolVersion}
	code, _, body := rawPost(t, url, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":`+params+`}`, inSession)
	data := body
	if i := strings.Index(body, "data: "); i >= 0 { // an event stream with one message
		data = strings.TrimSpace(body[i+len("data: "):])
	}
	var m struct {
		Result map[string]any `json:"result"`
	}
	if code != http.StatusOK || json.Unmarshal([]byte(data), &m) != nil || m.Result == nil {
		t.Fatalf("tools/call %s: %d %q", params, code, body)
	}
	return m.Result
}

// TestWireResults checks what a client really receives: isError false
// present on a valid empty result, the envelope mirrored in content, and a
// fix hint for non-object arguments that is itself valid JSON.
func TestWireResults(t *testing.T) {
	srv := httptest.NewServer(New().HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	sid := openSession(t, srv.URL)

	empty := toolsCall(t, srv.URL, sid, `{"name":"lookup_customer","arguments":{"email":"maria.k@example.com"}}`)
	if v, ok := empty["isError"]; !ok || v != false {
		t.Errorf("a valid empty result must carry isError: false on the wire: %v", empty)
	}

	failed := toolsCall(t, srv.URL, sid, `{"name":"lookup_order","arguments":{"order_id":"order-abc"}}`)
	content, _ := failed["content"].([]any)
	if failed["isError"] != true || len(content) != 2 {
		t.Fatalf("an error result: %v", failed)
	}
	var mirrored map[string]any
	text, _ := content[1].(map[string]any)["text"].(string)
	if err := json.Unmarshal([]byte(text), &mirrored); err != nil || mirrored["errorCategory"] != "validation" || mirrored["isRetryable"] != false {
		t.Errorf("content should carry the envelope as JSON text: %q", text)
	}

	notObject := toolsCall(t, srv.URL, sid, `{"name":"lookup_order","arguments":"#12345"}`)
	sc, _ := notObject["structuredContent"].(map[string]any)
	desc, _ := sc["description"].(string)
	i, j := strings.Index(desc, "{"), strings.LastIndex(desc, "}")
	if i < 0 || j < i {
		t.Fatalf("the hint gives no example object: %q", desc)
	}
	var example map[string]any
	if err := json.Unmarshal([]byte(desc[i:j+1]), &example); err != nil || example["order_id"] != "#12345" {
		t.Errorf("the example %q should be a JSON object with order_id #12345 (%v)", desc[i:j+1], err)
	}
}

// TestServeServerPutsAnyServerBehindTheEndpoint: another MCP server served
// with ServeServer (as the conformance fixture is) gets the same checks as
// the sandbox's own: Origin, a required Mcp-Session-Id, -32601 for an
// unknown method, and the session cap.
func TestServeServerPutsAnyServerBehindTheEndpoint(t *testing.T) {
	other := mcp.NewServer(&mcp.Implementation{Name: "other", Version: "1"}, nil)
	srv := httptest.NewServer(ServeServer(other, SessionLimits{Max: 1}, HTTPOptions{}))
	defer srv.Close()
	if code, _, body := rawPost(t, srv.URL, initialize, map[string]string{"Origin": "https://evil.example"}); code != http.StatusForbidden {
		t.Errorf("a foreign Origin: %d %q", code, body)
	}
	if code, _, body := rawPost(t, srv.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, nil); code != http.StatusBadRequest {
		t.Errorf("no Mcp-Session-Id: %d %q", code, body)
	}
	first := openSession(t, srv.URL)
	inFirst := map[string]string{sessionIDHeader: first, "Mcp-Protocol-Version": ProtocolVersion}
	if _, _, body := rawPost(t, srv.URL, `{"jsonrpc":"2.0","id":2,"method":"no/such"}`, inFirst); !strings.Contains(body, "-32601") {
		t.Errorf("an unknown method: %q", body)
	}
	if code, _, body := rawPost(t, srv.URL, `{"jsonrpc":"2.0","id":3,"method":"ping"}`, inFirst); code != http.StatusOK {
		t.Fatalf("ping in the first session: %d %q", code, body)
	}
	second := openSession(t, srv.URL)
	inSecond := map[string]string{sessionIDHeader: second, "Mcp-Protocol-Version": ProtocolVersion}
	if code, _, body := rawPost(t, srv.URL, `{"jsonrpc":"2.0","id":4,"method":"ping"}`, inSecond); code != http.StatusOK {
		t.Fatalf("ping in the second session: %d %q", code, body)
	}
	// With a cap of one, the second session closed the first.
	deadline := time.Now().Add(2 * time.Second)
	for {
		code, _, _ := rawPost(t, srv.URL, `{"jsonrpc":"2.0","id":5,"method":"ping"}`, inFirst)
		if code == http.StatusNotFound {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the first session should be closed by the cap, ping got %d", code)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
