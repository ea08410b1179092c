package sandbox

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

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
		"search_sources":        {"sixth", "partial_results", "attempted_query", "alternatives", "transient"},
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
		{"refund at the limit", toolCall{"issue_refund", map[string]any{"order_id": "#12345", "amount_gbp": 500}, nil},
			want{resultCount: -1, text: "Refunded £500"}},
		{"refund a little", toolCall{"issue_refund", map[string]any{"order_id": "#30517", "amount_gbp": 120.5}, nil},
			want{resultCount: -1, text: "Refunded £120.50"}},
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
	cs := connect(t, sb)
	schemas := outputSchemas(t, cs)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
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

func TestSlowExampleSucceedsOnTheThirdCallPerSession(t *testing.T) {
	sb := New()
	a, b := connect(t, sb), connect(t, sb)
	call := func(cs *mcp.ClientSession, email string) bool {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "lookup_customer", Arguments: map[string]any{"email": email}})
		if err != nil {
			t.Fatal(err)
		}
		return res.IsError
	}
	const jo = "jo.lee@slow.example"
	if first, second := call(a, jo), call(a, jo); !first || !second {
		t.Fatal("the first two calls should time out")
	}
	// Another learner's session starts from scratch and does not move a's count.
	if !call(b, jo) {
		t.Error("a second session's first call should time out too")
	}
	if call(a, jo) {
		t.Error("the third call in a session should succeed")
	}
	if !call(b, jo) {
		t.Error("the second session's second call should still time out")
	}
	// The count is per email as well.
	if !call(a, "other@slow.example") {
		t.Error("another slow.example email starts its own count")
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
			if got := movesOf(tr); !cmp.Equal(got, []Move{MoveRetry, MoveRetry, MoveAccept}) {
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
