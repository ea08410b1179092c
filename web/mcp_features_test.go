package web_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/examsim/examsim/sandbox"
	"github.com/examsim/examsim/web/webtest"
)

// connectMCP opens a session on the app's /mcp with a real go-sdk client.
func connectMCP(t *testing.T, url string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "web-test", Version: "1"}, opts).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url + "/mcp", DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// TestMCPLessonsAsResources: every lesson is a resource in each of the four
// languages, and reading one gives that language's lesson as Markdown.
func TestMCPLessonsAsResources(t *testing.T) {
	app := webtest.Start(t)
	ctx := context.Background()
	cs := connectMCP(t, app.URL, nil)
	if cs.InitializeResult().Capabilities.Resources == nil {
		t.Fatal("the server does not declare the resources capability")
	}
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	uris := map[string]*mcp.Resource{}
	for _, r := range list.Resources {
		uris[r.URI] = r
	}
	for _, lang := range []string{"en", "vi", "pl", "th"} {
		uri := sandbox.LessonURI("structured-errors", lang)
		r := uris[uri]
		if r == nil || r.MIMEType != "text/markdown" || r.Title == "" {
			t.Fatalf("%s: not listed as a Markdown resource with a title: %+v (listed: %d)", uri, r, len(list.Resources))
		}
		got, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil || len(got.Contents) != 1 {
			t.Fatalf("%s: %v %v", uri, got, err)
		}
		if c := got.Contents[0]; c.URI != uri || !strings.HasPrefix(c.Text, "# "+r.Title+"\n") || len(c.Text) < 2000 {
			t.Errorf("%s: the lesson should start with its title and be whole: %q…", uri, c.Text[:min(len(c.Text), 80)])
		}
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "examsim://lessons/structured-errors/xx"}); err == nil {
		t.Error("an unknown lesson should be an error")
	}
}

// TestMCPProgressWhileSlowExampleWaits: with a progressToken, a lookup at
// slow.example waits the outage out, telling the client how far it got,
// and then answers; without one it fails fast as transient, as before.
func TestMCPProgressWhileSlowExampleWaits(t *testing.T) {
	app := webtest.Start(t)
	ctx := context.Background()
	var mu sync.Mutex
	var got []*mcp.ProgressNotificationParams
	cs := connectMCP(t, app.URL, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		got = append(got, r.Params)
		mu.Unlock()
	}})
	params := &mcp.CallToolParams{Name: "lookup_customer", Arguments: map[string]any{"email": "jo.lee@slow.example"}}
	params.SetProgressToken("slow-1")
	start := time.Now()
	res, err := cs.CallTool(ctx, params)
	if err != nil || res.IsError {
		t.Fatalf("with a progress token the call should wait and succeed: %+v %v", res, err)
	}
	if took := time.Since(start); took < sandbox.SlowOutage-time.Second {
		t.Errorf("it answered after %s, before the outage ended", took)
	}
	// Notifications are handled apart from the response: give the last
	// one a moment to arrive.
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		mu.Lock()
		done := len(got) > 0 && got[len(got)-1].Progress == got[len(got)-1].Total
		mu.Unlock()
		if done {
			break
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) < 5 {
		t.Fatalf("want a notification every half second of the 4 s wait, got %d", len(got))
	}
	for i, p := range got {
		if p.ProgressToken != "slow-1" || p.Total != 4000 || p.Message == "" || (i > 0 && p.Progress <= got[i-1].Progress) {
			t.Errorf("notification %d: %+v", i, p)
		}
	}
	if last := got[len(got)-1]; last.Progress != last.Total {
		t.Errorf("the last notification should say the wait is over: %+v", last)
	}

	other := connectMCP(t, app.URL, nil)
	res, err = other.CallTool(ctx, &mcp.CallToolParams{Name: "lookup_customer", Arguments: map[string]any{"email": "jo.lee@slow.example"}})
	if err != nil || !res.IsError || res.StructuredContent.(map[string]any)["errorCategory"] != "transient" {
		t.Errorf("without a progress token it should fail fast as transient: %+v %v", res, err)
	}
	params = &mcp.CallToolParams{Name: "lookup_customer", Arguments: map[string]any{"email": "pat.kim@down.example"}}
	params.SetProgressToken(7)
	start = time.Now()
	if res, err = other.CallTool(ctx, params); err != nil || !res.IsError || time.Since(start) > time.Second {
		t.Errorf("an outage of unknown length is not waited out, progress token or not: %+v %v", res, err)
	}
}

// TestMCPElicitationForTheMissingPostcode: the postcode only the user knows
// is asked through elicitation/create when the client can ask; otherwise,
// or when the user declines, it is a validation error naming the field.
func TestMCPElicitationForTheMissingPostcode(t *testing.T) {
	app := webtest.Start(t)
	ctx := context.Background()
	noPostcode := &mcp.CallToolParams{Name: "book_courier", Arguments: map[string]any{"order_id": "#12345", "street": "10 Downing Street", "city": "London"}}
	envelope := func(res *mcp.CallToolResult) map[string]any { m, _ := res.StructuredContent.(map[string]any); return m }
	needsPostcode := func(res *mcp.CallToolResult) bool {
		e := envelope(res)
		needs, _ := e["needs_user_input"].([]any)
		return res.IsError && e["errorCategory"] == "validation" && e["isRetryable"] == false && len(needs) == 1 && needs[0] == "postcode"
	}

	var asked []*mcp.ElicitParams
	answer := map[string]any{"postcode": "sw1a 2aa"}
	action := "accept"
	cs := connectMCP(t, app.URL, &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked = append(asked, r.Params)
		return &mcp.ElicitResult{Action: action, Content: answer}, nil
	}})
	res, err := cs.CallTool(ctx, noPostcode)
	if err != nil || res.IsError || envelope(res)["postcode"] != "SW1A 2AA" || len(asked) != 1 || !strings.Contains(asked[0].Message, "postcode") {
		t.Fatalf("a client that can ask should be asked, and the booking made with the answer: %+v %v (asked %d)", res, err, len(asked))
	}
	action, answer = "decline", nil
	if res, err = cs.CallTool(ctx, noPostcode); err != nil || !needsPostcode(res) || len(asked) != 2 {
		t.Errorf("a declined question is a validation error naming the postcode: %+v %v", res, err)
	}

	plain := connectMCP(t, app.URL, nil)
	res, err = plain.CallTool(ctx, noPostcode)
	if err != nil || !needsPostcode(res) || !strings.Contains(envelope(res)["description"].(string), "Ask the customer") {
		t.Errorf("a client without elicitation gets a structured validation error: %+v %v", res, err)
	}
	withPostcode := &mcp.CallToolParams{Name: "book_courier", Arguments: map[string]any{"order_id": "#12345", "street": "10 Downing Street", "city": "London", "postcode": "SW1A 2AA"}}
	if res, err = plain.CallTool(ctx, withPostcode); err != nil || res.IsError {
		t.Errorf("with the postcode it books: %+v %v", res, err)
	}
}
