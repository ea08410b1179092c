package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/examsim/examsim"
)

// connect opens an in-memory MCP session with sb, as the agents do.
func connect(t testing.TB, sb *Sandbox) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := sb.MCPServer().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: ProtocolVersion})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// outputSchemas returns each tool's output schema, resolved for validation.
func outputSchemas(t testing.TB, cs *mcp.ClientSession) map[string]*jsonschema.Resolved {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*jsonschema.Resolved{}
	for _, tool := range res.Tools {
		b, _ := json.Marshal(tool.OutputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatalf("%s: output schema: %v", tool.Name, err)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: output schema does not resolve: %v", tool.Name, err)
		}
		out[tool.Name] = r
	}
	return out
}

func TestToolsList(t *testing.T) {
	cs := connect(t, New())
	if v := cs.InitializeResult().ProtocolVersion; v != ProtocolVersion {
		t.Errorf("negotiated protocol %s, want the pinned %s", v, ProtocolVersion)
	}
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if tool.OutputSchema == nil || tool.InputSchema == nil {
			t.Errorf("%s lacks a schema", tool.Name)
		}
		schema, _ := json.Marshal(tool.OutputSchema)
		if !strings.Contains(string(schema), `"anyOf"`) || !strings.Contains(string(schema), `"errorCategory"`) {
			t.Errorf("%s: the output schema must accept the error envelope too: %s", tool.Name, schema)
		}
		in, _ := json.Marshal(tool.InputSchema)
		if !strings.Contains(string(in), `"additionalProperties":false`) {
			t.Errorf("%s: input schema allows extra properties: %s", tool.Name, in)
		}
	}
	if diff := cmp.Diff(ToolNames, names, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	// Each description says how to trigger its cases.
	for name, words := range map[string][]string{
		"lookup_customer":       {"slow.example", "valid empty result", "malformed", "validation"},
		"lookup_order":          {"#NNNNN", "order-abc", "validation"},
		"issue_refund":          {"£500", "business", "manager"},
		"get_financial_records": {"permission", MetaPrincipal, FinancePrincipal, HeaderPrincipal},
		"search_sources":        {"offset", "partial_results", "attempted_query", "alternatives", "transient", "retry_after_ms", "live"},
	} {
		for _, tool := range res.Tools {
			if tool.Name != name {
				continue
			}
			for _, w := range words {
				if !strings.Contains(tool.Description, w) {
					t.Errorf("%s: the description does not mention %q", name, w)
				}
			}
		}
	}
}

// want is what a call should return.
type want struct {
	isError     bool
	category    examsim.Category
	resultCount int    // for successes with a count
	text        string // a part of the one-line text
	description []string
	partial     int // number of partial_results
	alts        bool
	attempted   string // exact attempted_query, when set
	generic     bool
}

type toolCall struct {
	tool string
	args map[string]any
	meta mcp.Meta
}

func TestEveryToolAndTrigger(t *testing.T) {
	finance := mcp.Meta{MetaPrincipal: FinancePrincipal}
	tests := []struct {
		name string
		call toolCall
		want want
	}{
		{"known customer", toolCall{"lookup_customer", map[string]any{"email": "a.nowak@example.com"}, nil},
			want{resultCount: 1, text: "Anna Nowak"}},
		{"unknown customer is a valid empty result", toolCall{"lookup_customer", map[string]any{"email": "maria.k@example.com"}, nil},
			want{resultCount: 0, text: "ran successfully and found no customer"}},
		{"malformed email", toolCall{"lookup_customer", map[string]any{"email": "maria.k.example.com"}, nil},
			want{isError: true, category: examsim.Validation, description: []string{"maria.k.example.com", "@"}}},
		{"slow.example first call", toolCall{"lookup_customer", map[string]any{"email": "someone@slow.example"}, nil},
			want{isError: true, category: examsim.Transient, text: "timed out", attempted: "customers where email = 'someone@slow.example'"}},
		{"known order", toolCall{"lookup_order", map[string]any{"order_id": "#12345"}, nil},
			want{resultCount: 1, text: "#12345"}},
		{"unknown order is empty", toolCall{"lookup_order", map[string]any{"order_id": "#99999"}, nil},
			want{resultCount: 0, text: "found no order"}},
		{"order-abc", toolCall{"lookup_order", map[string]any{"order_id": "order-abc"}, nil},
			want{isError: true, category: examsim.Validation, text: "Invalid order ID format", description: []string{"#NNNNN", "#12345", "'order-abc'"}}},
		{"refund over the limit", toolCall{"issue_refund", map[string]any{"order_id": "#12345", "amount_gbp": 750}, nil},
			want{isError: true, category: examsim.Business, alts: true, description: []string{"£750", "£500", "manager"}, attempted: "refund £750.00 on order #12345"}},
		{"refund at the limit", toolCall{"issue_refund", map[string]any{"order_id": "#48213", "amount_gbp": 89.99}, nil},
			want{resultCount: -1, text: "Refunded £89.99"}},
		{"refund a little", toolCall{"issue_refund", map[string]any{"order_id": "#30517", "amount_gbp": 100.5}, nil},
			want{resultCount: -1, text: "Refunded £100.50"}},
		{"refund a malformed order", toolCall{"issue_refund", map[string]any{"order_id": "order-abc", "amount_gbp": 10}, nil},
			want{isError: true, category: examsim.Validation, description: []string{"#NNNNN"}}},
		{"refund an unknown order", toolCall{"issue_refund", map[string]any{"order_id": "#99999", "amount_gbp": 10}, nil},
			want{isError: true, category: examsim.Validation, description: []string{"#99999"}}},
		{"refund nothing", toolCall{"issue_refund", map[string]any{"order_id": "#12345", "amount_gbp": 0}, nil},
			want{isError: true, category: examsim.Validation, description: []string{"more than 0"}}},
		{"finance as the default principal", toolCall{"get_financial_records", map[string]any{"customer_id": "C-1042"}, nil},
			want{isError: true, category: examsim.Permission, text: "Access denied", alts: true, description: []string{DefaultPrincipal, FinancePrincipal}}},
		{"finance as finance-analyst", toolCall{"get_financial_records", map[string]any{"customer_id": "C-1042"}, finance},
			want{resultCount: 2, text: "2 invoices"}},
		{"finance, malformed id", toolCall{"get_financial_records", map[string]any{"customer_id": "1042"}, finance},
			want{isError: true, category: examsim.Validation, description: []string{"C-NNNN"}}},
		{"search ten sources", toolCall{"search_sources", map[string]any{"query": "EU battery regulation", "max_sources": 10}, nil},
			want{isError: true, category: examsim.Transient, partial: 6, alts: true, attempted: "EU battery regulation", text: "after 6 of 10"}},
		{"search six sources", toolCall{"search_sources", map[string]any{"query": "EU battery regulation", "max_sources": 6}, nil},
			want{resultCount: 6}},
		{"search eleven sources", toolCall{"search_sources", map[string]any{"query": "x", "max_sources": 11}, nil},
			want{isError: true, category: examsim.Validation, description: []string{"1 to 10"}}},
		{"search nothing", toolCall{"search_sources", map[string]any{"query": " ", "max_sources": 3}, nil},
			want{isError: true, category: examsim.Validation}},
		{"wrong type", toolCall{"lookup_customer", map[string]any{"email": 42}, nil},
			want{isError: true, category: examsim.Validation, text: "Wrong type for email", description: []string{"must be a string", "42"}}},
		{"fraction for an integer", toolCall{"search_sources", map[string]any{"query": "x", "max_sources": 2.5}, nil},
			want{isError: true, category: examsim.Validation, description: []string{"whole number"}}},
		{"string for a number", toolCall{"issue_refund", map[string]any{"order_id": "#12345", "amount_gbp": "lots"}, nil},
			want{isError: true, category: examsim.Validation, description: []string{"amount_gbp must be a number", `"lots"`}}},
		{"extra property", toolCall{"lookup_order", map[string]any{"order_id": "#12345", "customer": "me"}, nil},
			want{isError: true, category: examsim.Validation, text: `Unexpected argument "customer"`}},
		{"missing argument", toolCall{"issue_refund", map[string]any{"order_id": "#12345"}, nil},
			want{isError: true, category: examsim.Validation, text: "Missing argument amount_gbp"}},
		{"generic errors", toolCall{"issue_refund", map[string]any{"order_id": "#12345", "amount_gbp": 750}, mcp.Meta{MetaErrors: "generic"}},
			want{isError: true, generic: true}},
		{"generic errors leave successes alone", toolCall{"lookup_customer", map[string]any{"email": "maria.k@example.com"}, mcp.Meta{MetaErrors: "generic"}},
			want{resultCount: 0}},
	}
	sb := New()
	schemas := outputSchemas(t, connect(t, sb))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := connect(t, sb) // each case from a fresh session: no outage, quota or refund carries over
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tt.call.tool, Arguments: tt.call.args, Meta: tt.call.meta})
			if err != nil {
				t.Fatalf("protocol error, want a tool result: %v", err)
			}
			checkResult(t, res, tt.want)
			if res.StructuredContent != nil {
				if err := schemas[tt.call.tool].Validate(res.StructuredContent); err != nil {
					t.Errorf("structuredContent does not match the tool's outputSchema: %v\n%s", err, resultJSON(res))
				}
			}
		})
	}
}

func checkResult(t *testing.T, res *mcp.CallToolResult, w want) {
	t.Helper()
	raw := string(resultJSON(res))
	if res.IsError != w.isError {
		t.Fatalf("isError = %v, want %v: %s", res.IsError, w.isError, raw)
	}
	wantBlocks := 2 // the summary line, then structuredContent as JSON text
	if w.generic {
		wantBlocks = 1
	}
	if len(res.Content) != wantBlocks {
		t.Fatalf("want %d text blocks in content, got %d: %s", wantBlocks, len(res.Content), raw)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if !w.generic {
		mirror := res.Content[1].(*mcp.TextContent).Text
		sc, _ := json.Marshal(res.StructuredContent)
		if !jsonEqual(mirror, sc) {
			t.Errorf("content[1] should mirror structuredContent:\n%s\n%s", mirror, sc)
		}
	}
	if strings.Contains(text, "\n") {
		t.Errorf("the summary is not one line: %q", text)
	}
	if !strings.Contains(text, w.text) {
		t.Errorf("text %q lacks %q", text, w.text)
	}
	if w.generic {
		if text != GenericFailure || res.StructuredContent != nil {
			t.Errorf("generic mode should give a bare %q: %s", GenericFailure, raw)
		}
		return
	}
	sc, _ := res.StructuredContent.(map[string]any)
	if sc == nil {
		t.Fatalf("no structuredContent: %s", raw)
	}
	if !w.isError {
		if w.resultCount >= 0 {
			if n, _ := sc["resultCount"].(float64); int(n) != w.resultCount {
				t.Errorf("resultCount = %v, want %d", sc["resultCount"], w.resultCount)
			}
			if rs, ok := sc["results"].([]any); !ok || len(rs) != w.resultCount {
				t.Errorf("results = %v, want %d items", sc["results"], w.resultCount)
			}
		}
		return
	}
	for _, k := range []string{"errorCategory", "isRetryable", "description", "attempted_query"} {
		if _, ok := sc[k]; !ok {
			t.Errorf("the envelope lacks %s: %s", k, raw)
		}
	}
	if got := sc["errorCategory"]; got != string(w.category) {
		t.Errorf("errorCategory = %v, want %s", got, w.category)
	}
	// The lessons' table: only transient errors are retryable.
	if got := sc["isRetryable"]; got != (w.category == examsim.Transient) {
		t.Errorf("isRetryable = %v for %s", got, w.category)
	}
	desc, _ := sc["description"].(string)
	for _, d := range w.description {
		if !strings.Contains(desc, d) {
			t.Errorf("description %q lacks %q", desc, d)
		}
	}
	if w.attempted != "" && sc["attempted_query"] != w.attempted {
		t.Errorf("attempted_query = %q, want %q", sc["attempted_query"], w.attempted)
	}
	pr, hasPartial := sc["partial_results"].([]any)
	if len(pr) != w.partial || (w.partial == 0 && hasPartial) {
		t.Errorf("partial_results = %v, want %d", sc["partial_results"], w.partial)
	}
	if _, hasAlts := sc["alternatives"]; hasAlts != w.alts {
		t.Errorf("alternatives present = %v, want %v", hasAlts, w.alts)
	}
	if strings.Contains(raw, "unmarshal") || strings.Contains(raw, "jsonschema") {
		t.Errorf("SDK text leaked into the result: %s", raw)
	}
}

// TestEnvelopeMatchesTheLessonTable checks one trigger per category against
// the table in the lesson: transient true, the other three false.
func TestEnvelopeMatchesTheLessonTable(t *testing.T) {
	cs := connect(t, New())
	triggers := map[examsim.Category]toolCall{
		examsim.Transient:  {"lookup_customer", map[string]any{"email": "a@slow.example"}, nil},
		examsim.Validation: {"lookup_order", map[string]any{"order_id": "order-abc"}, nil},
		examsim.Business:   {"issue_refund", map[string]any{"order_id": "#12345", "amount_gbp": 750}, nil},
		examsim.Permission: {"get_financial_records", map[string]any{"customer_id": "C-1042"}, nil},
	}
	table := map[examsim.Category]bool{examsim.Transient: true, examsim.Validation: false, examsim.Business: false, examsim.Permission: false}
	got := map[examsim.Category]bool{}
	for cat, c := range triggers {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil {
			t.Fatal(err)
		}
		sc := res.StructuredContent.(map[string]any)
		if sc["errorCategory"] != string(cat) {
			t.Errorf("%s trigger gave %v", cat, sc["errorCategory"])
		}
		got[cat] = sc["isRetryable"].(bool)
	}
	if diff := cmp.Diff(table, got); diff != "" {
		t.Errorf("isRetryable per category (-lesson +sandbox):\n%s", diff)
	}
}

// callIn makes one call and returns the result, failing on a protocol error.
func callIn(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func envelope(res *mcp.CallToolResult) map[string]any {
	m, _ := res.StructuredContent.(map[string]any)
	return m
}

func TestSlowExampleClearsAfterTheStatedWaitPerSession(t *testing.T) {
	sb := New()
	clock := newFakeClock()
	sb.sessions.now = clock.Now
	a, b := connect(t, sb), connect(t, sb)
	lookup := func(cs *mcp.ClientSession, email string) *mcp.CallToolResult {
		return callIn(t, cs, "lookup_customer", map[string]any{"email": email})
	}
	const jo = "jo.lee@slow.example"
	first := lookup(a, jo)
	if !first.IsError || envelope(first)["retry_after_ms"] != float64(SlowOutage.Milliseconds()) {
		t.Fatalf("the first call should time out and ask for %v: %s", SlowOutage, resultJSON(first))
	}
	clock.Advance(time.Second)
	second := lookup(a, jo)
	if !second.IsError || envelope(second)["retry_after_ms"] != float64((SlowOutage-time.Second).Milliseconds()) {
		t.Errorf("a call before the wait fails again, saying what is left: %s", resultJSON(second))
	}
	// Another session's outage starts with its own first call.
	if !lookup(b, jo).IsError {
		t.Error("a second session's first call should time out too")
	}
	clock.Advance(SlowOutage - time.Second)
	if res := lookup(a, jo); res.IsError {
		t.Errorf("after the stated wait the call should succeed: %s", resultJSON(res))
	}
	if !lookup(b, jo).IsError {
		t.Error("the second session's outage started a second later and is not over")
	}
	if !lookup(a, "other@slow.example").IsError {
		t.Error("another slow.example email has its own outage")
	}
	// down.example only ever hints, and stays down far longer than its hint.
	down := lookup(a, "pat.kim@down.example")
	clock.Advance(time.Duration(envelope(down)["retry_after_ms"].(float64)) * time.Millisecond)
	if !lookup(a, "pat.kim@down.example").IsError {
		t.Error("down.example should stay down after its hint")
	}
	// flaky.example fails every other call, whatever the clock.
	if got := []bool{lookup(a, "sam.ng@flaky.example").IsError, lookup(a, "sam.ng@flaky.example").IsError}; !cmp.Equal(got, []bool{true, false}) {
		t.Errorf("flaky.example: isError %v, want [true false]", got)
	}
}

func TestSearchRetriesOnlyTheMissingSourcesAfterTheWindow(t *testing.T) {
	sb := New()
	clock := newFakeClock()
	sb.sessions.now = clock.Now
	cs := connect(t, sb)
	search := func(args map[string]any) *mcp.CallToolResult { return callIn(t, cs, "search_sources", args) }
	const q = "EU battery regulation"
	first := search(map[string]any{"query": q, "max_sources": 10})
	env := envelope(first)
	if pr, _ := env["partial_results"].([]any); !first.IsError || len(pr) != 6 || env["retry_after_ms"] != float64(NewsWindow.Milliseconds()) {
		t.Fatalf("10 sources: want 6 partial results and a %v wait: %s", NewsWindow, resultJSON(first))
	}
	if alts := fmt.Sprint(env["alternatives"]); !strings.Contains(alts, "offset 6 and max_sources 4") {
		t.Errorf("the alternatives should name the call for the missing part: %s", alts)
	}
	// Before the window resets, even the missing part is limited.
	if res := search(map[string]any{"query": q, "max_sources": 4, "offset": 6}); !res.IsError {
		t.Errorf("a call before the wait should be limited again: %s", resultJSON(res))
	}
	clock.Advance(NewsWindow)
	rest := search(map[string]any{"query": q, "max_sources": 4, "offset": 6})
	if rest.IsError {
		t.Fatalf("after the wait the missing 4 should come back: %s", resultJSON(rest))
	}
	var numbers []float64
	for _, r := range envelope(rest)["results"].([]any) {
		numbers = append(numbers, r.(map[string]any)["source"].(float64))
	}
	if !cmp.Equal(numbers, []float64{7, 8, 9, 10}) {
		t.Errorf("offset 6 should give sources 7 to 10, got %v", numbers)
	}
	// Resending the whole search after the wait spends the quota again and
	// stops at six: the habit the lessons warn about never completes.
	clock.Advance(NewsWindow)
	if whole := search(map[string]any{"query": q, "max_sources": 10}); !whole.IsError {
		t.Errorf("a whole resend should be limited at six again: %s", resultJSON(whole))
	}
	if res := search(map[string]any{"query": q, "max_sources": 5, "offset": 6}); !res.IsError ||
		!strings.Contains(envelope(res)["description"].(string), "offset") {
		t.Errorf("an offset past the corpus is a validation error naming offset: %s", resultJSON(res))
	}
}

func TestRefundsAreCumulativeAndSplitsAreRefused(t *testing.T) {
	cs := connect(t, New())
	refund := func(order string, amount float64) *mcp.CallToolResult {
		return callIn(t, cs, "issue_refund", map[string]any{"order_id": order, "amount_gbp": amount})
	}
	over := refund("#12345", 750)
	if !over.IsError || envelope(over)["errorCategory"] != "business" {
		t.Fatalf("£750 should be a business error: %s", resultJSON(over))
	}
	desc := envelope(over)["description"].(string)
	if !strings.Contains(desc, "Escalate to a human") || strings.Contains(desc, "goes to a colleague") {
		t.Errorf("the description should say what the agent must do, not that it was done: %q", desc)
	}
	if res := refund("#12345", 375); res.IsError {
		t.Fatalf("£375 alone is within the limit: %s", resultJSON(res))
	}
	split := refund("#12345", 375)
	if !split.IsError || envelope(split)["errorCategory"] != "business" || envelope(split)["isRetryable"] != false {
		t.Fatalf("the second £375 brings the order to £750: %s", resultJSON(split))
	}
	if d := envelope(split)["description"].(string); !strings.Contains(d, "Splitting") || !strings.Contains(d, "Escalate to a human") || !strings.Contains(d, "£375 refunded so far") {
		t.Errorf("the split refusal should name the split and say to escalate: %q", d)
	}
	// The order total holds too: #30517 came to £120.
	if res := refund("#30517", 100); res.IsError {
		t.Fatalf("£100 of £120: %s", resultJSON(res))
	}
	beyond := refund("#30517", 30)
	if !beyond.IsError || !strings.Contains(envelope(beyond)["description"].(string), "£20") {
		t.Errorf("more than the order total should be refused, saying £20 is left: %s", resultJSON(beyond))
	}
	if res := refund("#30517", 20); res.IsError {
		t.Errorf("the last £20 should go through: %s", resultJSON(res))
	}
}

// TestConcurrentRefundsCannotPassTheLimit: two refunds racing in one
// session cannot both slip under the limit.
func TestConcurrentRefundsCannotPassTheLimit(t *testing.T) {
	cs := connect(t, New())
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "issue_refund", Arguments: map[string]any{"order_id": "#12345", "amount_gbp": 100}})
			if err == nil && !res.IsError {
				mu.Lock()
				ok++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if ok != 5 {
		t.Errorf("%d refunds of £100 went through on one order, want exactly 5 (the £500 limit)", ok)
	}
}

func TestSessionsRunConcurrently(t *testing.T) {
	sb := New()
	var wg sync.WaitGroup
	errs := make(chan string, 20)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tr, err := sb.Play(context.Background(), Run{Scenario: "transient", Agent: Structured, Seed: 7}, nil)
			if err != nil {
				errs <- err.Error()
				return
			}
			if got := movesOf(tr); !cmp.Equal(got, []Move{MoveRetry, MoveAccept}) {
				errs <- "moves " + strings.Join(movesStrings(got), ",")
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestUnknownToolIsAProtocolError(t *testing.T) {
	cs := connect(t, New())
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "drop_database", Arguments: map[string]any{}})
	if err == nil {
		t.Fatal("an unknown tool should be a JSON-RPC error, not a tool result")
	}
}
