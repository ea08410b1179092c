package sandbox

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func postMCP(t *testing.T, url, host, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if host != "" {
		req.Host = host
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// fakeClock is a clock a test moves by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *fakeClock) Advance(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

func TestStreamableHTTP(t *testing.T) {
	sb := New()
	clock := newFakeClock()
	sb.sessions.now = clock.Now
	srv := httptest.NewServer(sb.HTTPHandler(HTTPOptions{MaxRequestBytes: 4096}))
	defer srv.Close()

	ctx := context.Background()
	cs := httpClient(t, srv.URL)
	// slow.example runs on the session's clock: a call before the stated
	// wait fails again, one after it succeeds.
	var got []bool
	for _, wait := range []time.Duration{0, 0, SlowOutage - time.Millisecond, time.Millisecond} {
		clock.Advance(wait)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "lookup_customer", Arguments: map[string]any{"email": "jo.lee@slow.example"}})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, res.IsError)
	}
	if !cmp.Equal(got, []bool{true, true, true, false}) {
		t.Errorf("over HTTP, one session: isError per call = %v, want [true true true false]", got)
	}
	// A header makes the caller a principal with finance access.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_financial_records", Arguments: map[string]any{"customer_id": "C-2077"}})
	if err != nil || !res.IsError {
		t.Errorf("without the header: %v %v", res, err)
	}

	if code, body := postMCP(t, srv.URL, "attacker.example", initialize); code != http.StatusForbidden {
		t.Errorf("a non-local Host header should be refused: %d %s", code, body)
	}
	if code, body := postMCP(t, srv.URL, "", initialize); code != http.StatusOK {
		t.Errorf("a local Host should be served: %d %s", code, body)
	}
	if code, _ := postMCP(t, srv.URL, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"pad":"`+strings.Repeat("x", 5000)+`"}}`); code != http.StatusRequestEntityTooLarge {
		t.Errorf("a body over the limit should get 413, got %d", code)
	}
	if code, body := postMCP(t, srv.URL, "", `{"jsonrpc":"2.0","id":1,"method":`); code < 400 && !strings.Contains(body, "-32700") {
		t.Errorf("malformed JSON-RPC should stay a protocol error: %d %s", code, body)
	}

	open := httptest.NewServer(sb.HTTPHandler(HTTPOptions{AllowAnyHost: true}))
	defer open.Close()
	if code, body := postMCP(t, open.URL, "sandbox.example.org", initialize); code != http.StatusOK {
		t.Errorf("with AllowAnyHost a proxied Host should be served: %d %s", code, body)
	}
}

func TestPrincipalHeaderOverHTTP(t *testing.T) {
	srv := httptest.NewServer(New().HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	hc := &http.Client{Transport: headerTransport{HeaderPrincipal: FinancePrincipal}}
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "finance", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: hc, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_financial_records", Arguments: map[string]any{"customer_id": "C-2077"}})
	if err != nil || res.IsError {
		t.Fatalf("with %s: %s the call should succeed: %s %v", HeaderPrincipal, FinancePrincipal, resultJSON(res), err)
	}
}

type headerTransport map[string]string

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h {
		r.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(r)
}
