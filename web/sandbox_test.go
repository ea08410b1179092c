package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/examsim/examsim/internal/loadgen"
	"github.com/examsim/examsim/sandbox"
	"github.com/examsim/examsim/web"
	"github.com/examsim/examsim/web/webtest"
)

// untranslated finds a message id that reached the page instead of its text.
var untranslated = regexp.MustCompile(`\b(sandbox|nav|me)\.[a-z_]+(\.[a-z_]+)*\b`)

func moves(s *goquery.Selection) []string {
	var out []string
	s.Find(`[data-testid=move]`).Each(func(_ int, m *goquery.Selection) {
		v, _ := m.Attr("data-move")
		out = append(out, v)
	})
	return out
}

// TestSandboxEveryScenarioBothAgentsEveryLanguage: a learner can watch both
// agents on every scenario in each of the four languages, whole, without
// JavaScript.
func TestSandboxEveryScenarioBothAgentsEveryLanguage(t *testing.T) {
	c := newClient(t, newServer(t))
	titles := map[string]bool{}
	for _, lang := range []string{"en", "vi", "pl", "th"} {
		for _, sc := range sandbox.Scenarios {
			for _, generic := range []string{"", "1"} {
				p := c.get("/sandbox?scenario=" + sc.ID + "&agent=both&generic=" + generic + "&lang=" + lang)
				where := lang + " " + sc.ID + " generic=" + generic
				if p.status != http.StatusOK {
					t.Fatalf("%s: status %d", where, p.status)
				}
				if got, _ := p.doc.Find("html").Attr("lang"); got != lang {
					t.Errorf("%s: html lang %q", where, got)
				}
				for _, agent := range []string{"structured", "naive"} {
					tr := p.doc.Find(`[data-testid=trace-` + agent + `]`)
					if tr.Length() != 1 {
						t.Fatalf("%s: no %s trace", where, agent)
					}
					if tr.Find(`[data-testid=ev-request]`).Length() == 0 || tr.Find(`[data-testid=ev-decision]`).Length() == 0 {
						t.Errorf("%s %s: the trace has no requests or decisions", where, agent)
					}
					if tr.Find(`[data-testid=outcome]`).Length() != 1 {
						t.Errorf("%s %s: no outcome", where, agent)
					}
					if stream, _ := tr.Attr("data-stream"); !strings.HasPrefix(stream, "/sandbox/stream?") {
						t.Errorf("%s %s: no stream URL for the player: %q", where, agent, stream)
					}
				}
				// Each decision states its move once (review p2: it was
				// printed in the event's head and again below it).
				p.doc.Find(`[data-testid=ev-decision]`).Each(func(_ int, ev *goquery.Selection) {
					move := strings.TrimSpace(ev.Find(`[data-testid=move]`).Text())
					if head := ev.Find(`.ev-head`).Text(); move == "" || strings.Contains(head, move) {
						t.Errorf("%s: a decision states its move %q in its head too: %q", where, move, strings.Join(strings.Fields(head), " "))
					}
				})
				text := p.doc.Find("main").Text()
				if m := untranslated.FindString(text); m != "" {
					t.Errorf("%s: untranslated message id %q on the page", where, m)
				}
			}
		}
		titles[c.get("/sandbox?lang="+lang).text("h1")] = true
	}
	if len(titles) != 4 {
		t.Errorf("the sandbox title is not translated: %v", titles)
	}
}

// TestSandboxLessonStory is the lessons' story, one click from the page: an
// empty lookup the naive agent retries three times and escalates, and the
// structured agent accepts at once.
func TestSandboxLessonStory(t *testing.T) {
	c := newClient(t, newServer(t))
	home := c.get("/sandbox?lang=en")
	href, _ := home.doc.Find(`[data-testid=lesson-story]`).Attr("href")
	p := c.get(href)
	structured := p.doc.Find(`[data-testid=trace-structured]`)
	naive := p.doc.Find(`[data-testid=trace-naive]`)
	if got := strings.Join(moves(structured), ","); got != "accept" {
		t.Errorf("structured moves = %s", got)
	}
	if got := strings.Join(moves(naive), ","); got != "retry,retry,retry,escalate" {
		t.Errorf("naive moves = %s", got)
	}
	if o, _ := structured.Find(`[data-testid=outcome]`).Attr("data-outcome"); o != "answer" {
		t.Errorf("structured outcome = %s", o)
	}
	if o, _ := naive.Find(`[data-testid=outcome]`).Attr("data-outcome"); o != "escalation" {
		t.Errorf("naive outcome = %s", o)
	}
	if n := naive.Find(`[data-testid=ev-request]`).Length(); n != 4 {
		t.Errorf("the naive agent called %d times, want 4", n)
	}
	if n := naive.Find(`[data-testid=should]`).Length(); n != 4 {
		t.Errorf("each naive move should show the policy's move: %d", n)
	}
	// Protocol JSON as it is, in both views.
	if js := structured.Find(`[data-testid=result-json]`).Text(); !strings.Contains(js, `"resultCount": 0`) || !strings.Contains(js, `"jsonrpc": "2.0"`) {
		t.Errorf("result JSON = %s", js)
	}
	if js := structured.Find(`[data-testid=tool-result-json]`).Text(); !strings.Contains(js, `"type": "tool_result"`) {
		t.Errorf("tool_result view = %s", js)
	}
	// The page says where to connect a client.
	if got := p.text(`[data-testid=mcp-url]`); got != c.base+"/mcp" {
		t.Errorf("MCP URL = %q, want %q", got, c.base+"/mcp")
	}
	if cfg := p.text(`[data-testid=client-config]`); !strings.Contains(cfg, c.base+"/mcp") || !json.Valid([]byte(cfg)) {
		t.Errorf("client config = %s", cfg)
	}
}

type sseEvent struct{ name, data string }

func readSSE(t *testing.T, c *client, path string) (*http.Response, []sseEvent) {
	t.Helper()
	resp, err := c.http.Get(c.base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var events []sseEvent
	for ev := range loadgen.Events(resp.Body) {
		events = append(events, sseEvent{name: ev.Name, data: ev.Data})
	}
	return resp, events
}

func TestSandboxStream(t *testing.T) {
	c := newClient(t, newServer(t))
	resp, events := readSSE(t, c, "/sandbox/stream?scenario=transient&agent=structured&lang=pl")
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("content type %q", ct)
	}
	if len(events) < 5 || events[len(events)-1].name != "end" {
		t.Fatalf("events = %v", events)
	}
	kinds := map[string]int{}
	for _, e := range events[:len(events)-1] {
		var step struct {
			Seq  int    `json:"seq"`
			Kind string `json:"kind"`
			HTML string `json:"html"`
		}
		if e.name != "step" || json.Unmarshal([]byte(e.data), &step) != nil {
			t.Fatalf("bad event %+v", e)
		}
		if !strings.Contains(step.HTML, `data-kind="`+step.Kind+`"`) {
			t.Errorf("event html does not match its kind: %s", step.HTML)
		}
		kinds[step.Kind]++
	}
	if kinds["wait"] != 1 || kinds["request"] != 2 || kinds["outcome"] != 1 {
		t.Errorf("kinds = %v", kinds)
	}
	// Narration in the learner's language (Polish here).
	if !strings.Contains(events[len(events)-2].data, "Odpowiada") {
		t.Errorf("the outcome is not in Polish: %s", events[len(events)-2].data)
	}
	if p := c.get("/sandbox/stream?scenario=transient&agent=both"); p.status != http.StatusBadRequest {
		t.Errorf("streaming both agents at once: %d", p.status)
	}
}

func TestSandboxPredictionsAreScoredStoredAndShown(t *testing.T) {
	c := newClient(t, newServer(t))
	// Without JavaScript: step by step with a form.
	p := c.get("/sandbox?scenario=empty&agent=naive&step=1&lang=en")
	form := p.doc.Find(`[data-testid=step-form]`)
	if form.Length() != 1 {
		t.Fatalf("no prediction form: %s", p.body)
	}
	if n := p.doc.Find(`[data-testid=ev-decision]`).Length(); n != 0 {
		t.Errorf("the move to predict is already shown (%d decisions)", n)
	}
	token, _ := form.Find(`input[name=_csrf]`).Attr("value")
	post := func(v url.Values, accept string) *page {
		v.Set("_csrf", token)
		req, _ := http.NewRequest("POST", c.base+"/sandbox/predictions", strings.NewReader(v.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		return c.do(req)
	}
	res := post(url.Values{"scenario": {"empty"}, "agent": {"naive"}, "seed": {"1"}, "decision": {"1"}, "move": {"retry"}}, "")
	if res.status != http.StatusSeeOther {
		t.Fatalf("prediction: %d %s", res.status, res.body)
	}
	next := c.get(res.header.Get("Location"))
	if v, _ := next.doc.Find(`[data-testid=prediction-verdict]`).Attr("data-correct"); v != "false" {
		t.Errorf("retrying an empty result is wrong, verdict %q", v)
	}
	if n := next.doc.Find(`[data-testid=ev-decision]`).Length(); n != 1 {
		t.Errorf("after predicting decision 1 it should be shown: %d", n)
	}
	// With JavaScript: JSON.
	res = post(url.Values{"scenario": {"empty"}, "agent": {"naive"}, "seed": {"1"}, "decision": {"2"}, "move": {"accept"}}, "application/json")
	var verdict struct {
		Correct  bool   `json:"correct"`
		Expected string `json:"expected"`
	}
	if res.status != http.StatusOK || json.Unmarshal([]byte(res.body), &verdict) != nil || !verdict.Correct || verdict.Expected != "accept" {
		t.Errorf("JSON prediction: %d %s", res.status, res.body)
	}
	// Bad input is refused, not stored.
	for _, v := range []url.Values{
		{"scenario": {"empty"}, "agent": {"naive"}, "decision": {"1"}, "move": {"panic"}},
		{"scenario": {"empty"}, "agent": {"naive"}, "decision": {"99"}, "move": {"retry"}},
		{"scenario": {"nope"}, "agent": {"naive"}, "decision": {"1"}, "move": {"retry"}},
		{"scenario": {"empty"}, "agent": {"both"}, "decision": {"1"}, "move": {"retry"}},
	} {
		if r := post(v, "application/json"); r.status != http.StatusBadRequest || !strings.Contains(r.body, `"errorCategory":"validation"`) {
			t.Errorf("%v: %d %s", v, r.status, r.body)
		}
	}
	me := c.get("/me?lang=en")
	if n := me.doc.Find(`[data-testid=prediction-row]`).Length(); n != 2 {
		t.Errorf("/me lists %d predictions, want 2", n)
	}
	if s := me.text(`[data-testid=predictions-summary]`); !strings.Contains(s, "2 predictions, 1 right") {
		t.Errorf("summary = %q", s)
	}
}

func TestSandboxEditAndReplay(t *testing.T) {
	c := newClient(t, newServer(t))
	p := c.get("/sandbox?scenario=empty&agent=structured&edit=1&lang=en")
	text := p.text(`[data-testid=edit-text]`)
	if !strings.Contains(text, `"isError"`) && !strings.Contains(text, `"resultCount": 0`) {
		t.Fatalf("the editor should hold the result: %q", text)
	}
	replay := func(result string) *page {
		return c.post("/sandbox?scenario=empty&agent=structured&edit=1", "/sandbox/replay", url.Values{
			"scenario": {"empty"}, "agent": {"structured"}, "seed": {"1"}, "call": {"1"}, "result": {result}})
	}
	bad := "{\n  \"isError\": true\n  \"content\": []\n}"
	r := replay(bad)
	if r.status != http.StatusUnprocessableEntity {
		t.Fatalf("invalid JSON: %d", r.status)
	}
	errEl := r.doc.Find(`[data-testid=edit-error]`)
	if line, _ := errEl.Attr("data-line"); line != "3" || !strings.Contains(errEl.Text(), "Line 3, column 3") {
		t.Errorf("the message should point at line 3, column 3: %q", errEl.Text())
	}
	if got := r.doc.Find(`[data-testid=edit-text]`).Text(); got != bad {
		t.Errorf("the learner's text was not kept: %q", got)
	}
	r = replay(`{"content": [], "structuredContent": {"resultCount": 0}}`)
	if r.status != http.StatusUnprocessableEntity || !strings.Contains(r.text(`[data-testid=edit-error]`), "no isError field") {
		t.Errorf("a result without isError: %d %q", r.status, r.text(`[data-testid=edit-error]`))
	}
	// Results a strict client would reject are refused, pointing at the field.
	quota := "{\"isError\": true, \"content\": [],\n \"structuredContent\": {\"errorCategory\": \"quota\", \"isRetryable\": true, \"description\": \"d\", \"attempted_query\": \"q\"}}"
	r = replay(quota)
	if errEl := r.doc.Find(`[data-testid=edit-error]`); r.status != http.StatusUnprocessableEntity ||
		!strings.Contains(errEl.Text(), `"quota"`) || !strings.Contains(errEl.Text(), "Line 2") {
		t.Errorf("errorCategory quota: %d %q", r.status, errEl.Text())
	}
	r = replay(`{"isError": true, "content": [], "structuredContent": {"errorCategory": "transient", "isRetryable": "yes"}}`)
	if r.status != http.StatusUnprocessableEntity {
		t.Errorf("isRetryable as a string: %d", r.status)
	}
	r = replay(`{"isError": true, "content": [], "structuredContent": {"errorCategory": "transient", "isRetryable": true}}`)
	if r.status != http.StatusUnprocessableEntity || !strings.Contains(r.text(`[data-testid=edit-error]`), "outputSchema of lookup_customer") {
		t.Errorf("an envelope without description and attempted_query: %d %q", r.status, r.text(`[data-testid=edit-error]`))
	}
	r = replay(`{"isError": false, "content": [{"type": "text", "text": "ok"}]}`)
	if r.status != http.StatusUnprocessableEntity || !strings.Contains(r.text(`[data-testid=edit-error]`), "structuredContent") {
		t.Errorf("a success without structuredContent: %d %q", r.status, r.text(`[data-testid=edit-error]`))
	}
	r = replay(`{"isError": true, "content": [{"type": "text", "text": "Customer database unreachable"}],
		"structuredContent": {"errorCategory": "transient", "isRetryable": true, "description": "timed out", "attempted_query": "q"}}`)
	if r.status != http.StatusOK {
		t.Fatalf("replay: %d %s", r.status, r.text(`[data-testid=edit-error]`))
	}
	tr := r.doc.Find(`[data-testid=trace-structured]`)
	if replayed, _ := tr.Attr("data-replay"); replayed != "true" || r.doc.Find(`[data-testid=replayed]`).Length() != 1 {
		t.Error("the replay is not marked")
	}
	if got := strings.Join(moves(tr), ","); got != "retry,accept" {
		t.Errorf("after the edit the agent should retry, then accept: %s", got)
	}
}

func TestSandboxRefusesBadChoices(t *testing.T) {
	c := newClient(t, newServer(t))
	for _, path := range []string{
		"/sandbox?scenario=nope", "/sandbox?scenario=empty&agent=clever", "/sandbox?scenario=empty&seed=x",
		"/sandbox?scenario=empty&agent=both&edit=1", "/sandbox?scenario=empty&agent=naive&edit=9",
	} {
		p := c.get(path + "&lang=vi")
		if p.status != http.StatusBadRequest || p.doc.Find(`[data-testid=error]`).Length() != 1 {
			t.Errorf("%s: %d", path, p.status)
		}
	}
}

// TestMCPEndpoint: the same sandbox answers a real MCP client at /mcp on
// the app's own server.
func TestMCPEndpoint(t *testing.T) {
	app := webtest.Start(t)
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "web-test", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: app.URL + "/mcp", DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if v := cs.InitializeResult().ProtocolVersion; v != sandbox.ProtocolVersion {
		t.Errorf("protocol %s", v)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != len(sandbox.ToolNames) {
		t.Fatalf("tools: %v %v", tools, err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "lookup_order", Arguments: map[string]any{"order_id": "order-abc"}})
	if err != nil || !res.IsError || res.StructuredContent.(map[string]any)["errorCategory"] != "validation" {
		t.Errorf("order-abc: %v %v", res, err)
	}

	send := func(host, body string) int {
		req, _ := http.NewRequest("POST", app.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	if code := send("rebind.attacker.example", init); code != http.StatusForbidden {
		t.Errorf("a non-local Host should get 403, got %d", code)
	}
	if code := send("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"pad":"`+strings.Repeat("x", 70<<10)+`"}}`); code != http.StatusRequestEntityTooLarge {
		t.Errorf("a request over 64 KiB should get 413, got %d", code)
	}
	if code := send("", init); code != http.StatusOK {
		t.Errorf("a local initialize should work, got %d", code)
	}
}

// TestMCPNewSessionsPerClientAndOrigins: the app's /mcp limits new sessions
// per client address and refuses a foreign browser Origin.
func TestMCPNewSessionsPerClientAndOrigins(t *testing.T) {
	app := webtest.Start(t, webtest.WithConfig(func(c *web.Config) {
		c.MCPSessionsPerClient = web.Limit{Burst: 2, Every: time.Hour}
		c.MCPAllowedOrigins = []string{"https://tools.example.org"}
	}))
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	send := func(origin string) (int, http.Header) {
		req, _ := http.NewRequest("POST", app.URL+"/mcp", strings.NewReader(init))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode, resp.Header
	}
	if code, _ := send("https://evil.example"); code != http.StatusForbidden {
		t.Errorf("a foreign Origin: %d, want 403", code)
	}
	if code, _ := send("https://tools.example.org"); code != http.StatusOK {
		t.Errorf("a configured Origin: %d, want 200", code)
	}
	if code, _ := send(""); code != http.StatusOK {
		t.Errorf("no Origin: %d, want 200", code)
	}
	code, h := send("")
	if code != http.StatusTooManyRequests || h.Get("Retry-After") == "" {
		t.Errorf("a third new session from one address: %d Retry-After %q, want 429 with a wait", code, h.Get("Retry-After"))
	}
}

// TestSandboxScoreboardTaxonomyAndSilentSuppression: each played trace ends
// with a scoreboard the two agents compare on; the page maps the four
// categories onto retryable / recoverable / fatal; the silent scenario shows
// the learner what the tools hid.
func TestSandboxScoreboardTaxonomyAndSilentSuppression(t *testing.T) {
	c := newClient(t, newServer(t))
	for _, lang := range []string{"en", "vi", "pl", "th"} {
		p := c.get("/sandbox?scenario=partial&agent=both&lang=" + lang)
		if p.status != http.StatusOK {
			t.Fatalf("%s: %d", lang, p.status)
		}
		structured := p.doc.Find(`[data-testid=trace-structured] [data-testid=scoreboard]`)
		naive := p.doc.Find(`[data-testid=trace-naive] [data-testid=scoreboard]`)
		if structured.Length() != 1 || naive.Length() != 1 {
			t.Fatalf("%s: want one scoreboard per trace", lang)
		}
		if k, _ := structured.Attr("data-kept"); k != "10" {
			t.Errorf("%s: the structured agent keeps all 10 sources, scoreboard says %s", lang, k)
		}
		if k, _ := naive.Attr("data-kept"); k != "0" {
			t.Errorf("%s: the naive agent loses the six partial results, scoreboard says kept %s", lang, k)
		}
		rows := p.doc.Find(`[data-testid=taxonomy-row]`)
		classes := map[string]int{}
		rows.Each(func(_ int, r *goquery.Selection) { v, _ := r.Attr("data-class"); classes[v]++ })
		if classes["retryable"] == 0 || classes["recoverable"] == 0 || classes["fatal"] == 0 {
			t.Errorf("%s: the taxonomy table should use all three classes: %v", lang, classes)
		}
		if p.doc.Find(`[data-testid=taxonomy-fields]`).Length() != 1 || p.doc.Find(`[data-testid=connect-sessions]`).Length() != 1 {
			t.Errorf("%s: the field-name note or the session guidance is missing", lang)
		}
	}
	p := c.get("/sandbox?scenario=silent&agent=structured&lang=th")
	if n := p.doc.Find(`[data-testid=hidden-failure]`).Length(); n != 2 {
		t.Errorf("the silent scenario should reveal both hidden failures, shows %d", n)
	}
	if w, _ := p.doc.Find(`[data-testid=outcome]`).Attr("data-wrong"); w != "true" {
		t.Error("the silent scenario's outcome should be marked wrong")
	}
}

// TestSandboxConsoleWithoutJavaScript: the console works as plain form
// posts: one persistent session across calls, the raw JSON-RPC and the
// tool_result view, a history, a new-session button, and localized errors
// that keep what the learner wrote.
func TestSandboxConsoleWithoutJavaScript(t *testing.T) {
	c := newClient(t, newServer(t))
	for _, lang := range []string{"en", "vi", "pl", "th"} {
		p := c.get("/sandbox/console?tool=issue_refund&lang=" + lang)
		if p.status != http.StatusOK || p.doc.Find(`[data-testid=input-schema]`).Length() != 1 || p.doc.Find(`[data-testid=output-schema]`).Length() != 1 {
			t.Fatalf("%s: console page %d", lang, p.status)
		}
		if m := untranslated.FindString(p.doc.Find("main").Text()); m != "" {
			t.Errorf("%s: untranslated %q", lang, m)
		}
	}
	call := func(id, args string) *page {
		return c.post("/sandbox/console?tool=issue_refund&lang=th", "/sandbox/console", url.Values{
			"tool": {"issue_refund"}, "console": {id}, "arguments": {args}, "meta": {"{}"}, "action": {"call"}})
	}
	first := call("", `{"order_id": "#12345", "amount_gbp": 375}`)
	id, _ := first.doc.Find(`[data-testid=console]`).Attr("data-console")
	if first.status != http.StatusOK || id == "" {
		t.Fatalf("first call: %d %q", first.status, id)
	}
	if v, _ := first.doc.Find(`[data-testid=console-result]`).Attr("data-is-error"); v != "false" {
		t.Errorf("£375 should be refunded: is-error %s", v)
	}
	second := call(id, `{"order_id": "#12345", "amount_gbp": 375}`)
	res := second.doc.Find(`[data-testid=console-result]`)
	if v, _ := res.Attr("data-category"); v != "business" {
		t.Errorf("in the same session the second £375 is a split refused as business: %q", v)
	}
	if !strings.Contains(res.Find(`[data-testid=console-request]`).Text(), `"method": "tools/call"`) ||
		!strings.Contains(res.Find(`[data-testid=console-response]`).Text(), `"isError": true`) ||
		!strings.Contains(res.Find(`[data-testid=console-tool-result]`).Text(), `"is_error": true`) {
		t.Error("the raw request, response and tool_result views should all be there")
	}
	if n := second.doc.Find(`[data-testid=history-item]`).Length(); n != 2 {
		t.Errorf("history: %d items, want 2", n)
	}
	bad := call(id, `{"order_id": `)
	if bad.status != http.StatusUnprocessableEntity || !strings.Contains(bad.text(`[data-testid=console-error]`), "JSON") ||
		bad.doc.Find(`[data-testid=console-args]`).Text() != `{"order_id": ` {
		t.Errorf("bad JSON: %d %q, the text should be kept", bad.status, bad.text(`[data-testid=console-error]`))
	}
	fresh := c.post("/sandbox/console?tool=issue_refund", "/sandbox/console", url.Values{
		"tool": {"issue_refund"}, "console": {id}, "action": {"new"}})
	newID, _ := fresh.doc.Find(`[data-testid=console]`).Attr("data-console")
	if newID == id || fresh.doc.Find(`[data-testid=console-new]`).Length() != 1 || fresh.doc.Find(`[data-testid=history-item]`).Length() != 0 {
		t.Errorf("a new session should start afresh: %q", newID)
	}
	if again := call(newID, `{"order_id": "#12345", "amount_gbp": 375}`); again.doc.Find(`[data-testid=console-result]`).AttrOr("data-is-error", "") != "false" {
		t.Error("in the new session the first £375 should go through again")
	}
	expired := call("no-such-session", `{"order_id": "#12345", "amount_gbp": 1}`)
	if expired.doc.Find(`[data-testid=console-expired]`).Length() != 1 {
		t.Error("an ended session should be replaced, and the page should say so")
	}
	if p := c.get("/sandbox/console?tool=drop_tables&lang=pl"); p.status != http.StatusBadRequest {
		t.Errorf("an unknown tool: %d", p.status)
	}
}

// TestSandboxJSONErrorsAreWhollyLocalised: a console call or an edited
// result that is not JSON is refused in the learner's language, with where
// it goes wrong, and no English from the JSON parser (review m10).
func TestSandboxJSONErrorsAreWhollyLocalised(t *testing.T) {
	c := newClient(t, newServer(t))
	parserEnglish := regexp.MustCompile(`unexpected end|invalid character|JSON input|looking for|after object key|cannot unmarshal`)
	for _, tt := range []struct {
		lang, args, want string
	}{
		{"pl", `{"email": `, "urywa się za wcześnie"},
		{"vi", `{"email": `, "kết thúc quá sớm"},
		{"th", `{"email": `, "จบเร็วเกินไป"},
		{"en", `{"email": `, "ends too early"},
		{"pl", `{"email" "ana@slow.example"}`, "wiersz 1, kolumna 10"},
		{"vi", "{\n  \"email\": x}", "dòng 2, cột 12"},
		{"th", `{"email": "a",}`, "บรรทัด 1 คอลัมน์ 15"},
	} {
		p := c.post("/sandbox/console?tool=lookup_customer&lang="+tt.lang, "/sandbox/console", url.Values{
			"tool": {"lookup_customer"}, "arguments": {tt.args}, "meta": {"{}"}, "action": {"call"}})
		msg := p.text(`[data-testid=console-error]`)
		if p.status != http.StatusUnprocessableEntity || !strings.Contains(msg, tt.want) || parserEnglish.MatchString(msg) {
			t.Errorf("%s %q: %d %q, want %q and no parser English", tt.lang, tt.args, p.status, msg, tt.want)
		}
	}
	for _, bad := range []string{`{"isError": tru`, `{"isError": true, "content": [{"type": "video"}]}`, `{"isError" true}`} {
		for _, lang := range []string{"pl", "vi", "th"} {
			p := c.post("/sandbox?scenario=transient&agent=structured&lang="+lang, "/sandbox/replay", url.Values{
				"scenario": {"transient"}, "agent": {"structured"}, "call": {"1"}, "result": {bad}})
			msg := p.text(`[data-testid=edit-error]`)
			if p.status != http.StatusUnprocessableEntity || msg == "" || p.doc.Find("html").AttrOr("lang", "") != lang || parserEnglish.MatchString(msg) {
				t.Errorf("%s %q: %d %q, want a localised editor error without the parser's English", lang, bad, p.status, msg)
			}
		}
	}
}

// TestSandboxConsoleSchemaForm: each tool's form is built from its
// inputSchema, a call from the form sends what the fields hold, and the raw
// JSON shows what was sent.
func TestSandboxConsoleSchemaForm(t *testing.T) {
	c := newClient(t, newServer(t))
	for _, tool := range sandbox.ToolNames {
		p := c.get("/sandbox/console?tool=" + tool + "&lang=pl")
		form := p.doc.Find(`[data-testid=schema-form]`)
		if form.Length() != 1 || form.Find(`input[name^="arg."]`).Length() == 0 || form.Find(`label[for^="arg-"]`).Length() != form.Find(`input[name^="arg."]`).Length() {
			t.Errorf("%s: no labelled form from the inputSchema", tool)
		}
	}
	if typ := c.get("/sandbox/console?tool=issue_refund").doc.Find(`[data-testid=schema-field-amount_gbp]`).AttrOr("type", ""); typ != "number" {
		t.Errorf("a number argument should be a number field, got %q", typ)
	}
	call := func(fields url.Values) *page {
		fields.Set("tool", "issue_refund")
		fields.Set("action", "call-form")
		fields.Set("meta", "{}")
		return c.post("/sandbox/console?tool=issue_refund&lang=vi", "/sandbox/console", fields)
	}
	ok := call(url.Values{"arg.order_id": {"#48213"}, "arg.amount_gbp": {"20.5"}})
	if ok.doc.Find(`[data-testid=console-result]`).AttrOr("data-is-error", "") != "false" ||
		!strings.Contains(ok.text(`[data-testid=console-request]`), `"amount_gbp": 20.5`) {
		t.Errorf("a form call should send the number as a number: %q", ok.text(`[data-testid=console-request]`))
	}
	if got := ok.doc.Find(`[data-testid=console-args]`).Text(); !strings.Contains(got, `"order_id": "#48213"`) {
		t.Errorf("the raw JSON should show what the form sent: %q", got)
	}
	if v := ok.doc.Find(`[data-testid=schema-field-amount_gbp]`).AttrOr("value", ""); v != "20.5" {
		t.Errorf("the form should keep its values: %q", v)
	}
	bad := call(url.Values{"arg.order_id": {"#48213"}, "arg.amount_gbp": {"twenty"}})
	if res := bad.doc.Find(`[data-testid=console-result]`); res.AttrOr("data-category", "") != "validation" {
		t.Errorf("a number field holding text is sent as text, and the tool refuses it: %q", res.AttrOr("data-category", ""))
	}
}

// TestLearnExplainsTheMCPFeatures: the Learn page explains the lessons as
// resources, progress and elicitation in each language, with the resource
// URI of the learner's own language.
func TestLearnExplainsTheMCPFeatures(t *testing.T) {
	c := newClient(t, newServer(t))
	seen := map[string]bool{}
	for _, lang := range []string{"en", "vi", "pl", "th"} {
		p := c.get("/learn/structured-errors?lang=" + lang)
		sec := p.doc.Find(`[data-testid=learn-mcp]`)
		if p.status != http.StatusOK || sec.Length() != 1 {
			t.Fatalf("%s: no MCP section (%d)", lang, p.status)
		}
		if got := sec.Find(`[data-testid=learn-mcp-resources]`).Text(); !strings.Contains(got, sandbox.LessonURI("structured-errors", lang)) {
			t.Errorf("%s: the resource URI should be this language's: %q", lang, got)
		}
		for _, k := range []string{"progress", "elicitation"} {
			if sec.Find(`[data-testid=learn-mcp-`+k+`]`).Text() == "" {
				t.Errorf("%s: no %s explanation", lang, k)
			}
		}
		if m := untranslated.FindString(sec.Text()); m != "" {
			t.Errorf("%s: untranslated %q", lang, m)
		}
		seen[sec.Find("h2").Text()] = true
	}
	if len(seen) != 4 {
		t.Errorf("the section is not translated: %v", seen)
	}
}
