package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata from the current output")

// compareGolden fails when got differs from testdata/name; with -update it
// rewrites the file instead, so a change to what clients see shows as a diff.
func compareGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./sandbox -run %s -update to create it)", err, t.Name())
	}
	if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n")); diff != "" {
		t.Errorf("%s changed (-want +got); if the change is meant, rerun with -update:\n%s", path, diff)
	}
}

// TestToolsListGolden pins tools/list as a client receives it: every tool's
// name, description, inputSchema, outputSchema and annotations.
func TestToolsListGolden(t *testing.T) {
	res, err := connect(t, New()).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(res.Tools, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	compareGolden(t, "tools_list.golden", append(got, '\n'))
}

// TestBadArgumentsGolden pins the result of every kind of bad argument for
// every tool: the summary, the category, isRetryable and what to send instead.
// The cases are written out here, not derived from the tools' declarations,
// so a change to those declarations cannot quietly change the cases too.
func TestBadArgumentsGolden(t *testing.T) {
	cases := []struct{ tool, args string }{
		{"lookup_customer", `null`},
		{"lookup_customer", `[1]`},
		{"lookup_customer", `"a.nowak@example.com"`},
		{"lookup_customer", `{}`},
		{"lookup_customer", `{"email": null}`},
		{"lookup_customer", `{"email": 42}`},
		{"lookup_customer", `{"email": ["a.nowak@example.com"]}`},
		{"lookup_customer", `{"email": "a.nowak@example.com", "name": "Anna"}`},
		{"lookup_customer", `{"email": "a.nowak@example.com", "name": "Anna", "country": "PL"}`},
		{"lookup_customer", `{"email": "not-an-email"}`},
		{"lookup_order", `[]`},
		{"lookup_order", `{}`},
		{"lookup_order", `{"order_id": 12345}`},
		{"lookup_order", `{"order_id": "#12345", "customer": "me"}`},
		{"lookup_order", `{"order_id": "order-abc"}`},
		{"issue_refund", `7`},
		{"issue_refund", `{}`},
		{"issue_refund", `{"order_id": "#12345"}`},
		{"issue_refund", `{"amount_gbp": 10}`},
		{"issue_refund", `{"order_id": "#12345", "amount_gbp": "lots"}`},
		{"issue_refund", `{"order_id": "#12345", "amount_gbp": 1e400}`},
		{"issue_refund", `{"order_id": "#12345", "amount_gbp": true}`},
		{"issue_refund", `{"order_id": 12345, "amount_gbp": 10}`},
		{"issue_refund", `{"order_id": "#12345", "amount_gbp": 10, "reason": "late"}`},
		{"issue_refund", `{"order_id": "#12345", "amount_gbp": 0}`},
		{"issue_refund", `{"order_id": "#12345", "amount_gbp": -5}`},
		{"issue_refund", `{"order_id": "order-abc", "amount_gbp": 10}`},
		{"issue_refund", `{"order_id": "#99999", "amount_gbp": 10}`},
		{"get_financial_records", `"C-1042"`},
		{"get_financial_records", `{}`},
		{"get_financial_records", `{"customer_id": 1042}`},
		{"get_financial_records", `{"customer_id": "C-1042", "principal": "finance-analyst"}`},
		{"get_financial_records", `{"customer_id": "1042"}`},
		{"search_sources", `[]`},
		{"search_sources", `{}`},
		{"search_sources", `{"query": "EU battery regulation"}`},
		{"search_sources", `{"max_sources": 3}`},
		{"search_sources", `{"query": 7, "max_sources": 3}`},
		{"search_sources", `{"query": "x", "max_sources": "3"}`},
		{"search_sources", `{"query": "x", "max_sources": 2.5}`},
		{"search_sources", `{"query": "x", "max_sources": 3, "offset": 1.5}`},
		{"search_sources", `{"query": "x", "max_sources": 3, "offset": "6"}`},
		{"search_sources", `{"query": "x", "max_sources": 1, "offset": 10}`},
		{"search_sources", `{"query": "x", "max_sources": 3, "page": 2}`},
		{"search_sources", `{"query": " ", "max_sources": 3}`},
		{"search_sources", `{"query": "x", "max_sources": 0}`},
		{"search_sources", `{"query": "x", "max_sources": 11}`},
		{"search_sources", `{"query": "x", "max_sources": 3, "offset": -1}`},
		{"search_sources", `{"query": "x", "max_sources": 4, "offset": 7}`},
	}
	cs := connect(t, New())
	var out bytes.Buffer
	for _, c := range cases {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{
			Name: c.tool, Arguments: json.RawMessage(c.args), Meta: mcp.Meta{MetaPrincipal: FinancePrincipal}})
		if err != nil {
			t.Fatalf("%s(%s): protocol error, want a tool result: %v", c.tool, c.args, err)
		}
		if !res.IsError {
			t.Errorf("%s(%s) succeeded; every case here must be an error", c.tool, c.args)
		}
		sc, _ := json.MarshalIndent(res.StructuredContent, "", "  ")
		fmt.Fprintf(&out, "%s(%s)\n%s\n%s\n\n", c.tool, c.args, res.Content[0].(*mcp.TextContent).Text, sc)
	}
	compareGolden(t, "bad_arguments.golden", out.Bytes())
}

// TestConsoleToolsGolden pins what the console shows of each tool beyond
// tools/list: the example arguments and _meta it fills in, and the
// inputSchema byte for byte as the page prints it.
func TestConsoleToolsGolden(t *testing.T) {
	var out bytes.Buffer
	for _, tool := range New().Tools() {
		fmt.Fprintf(&out, "%s\nargs %s\nmeta %s\ninput %s\n\n", tool.Name, tool.ExampleArgs, tool.ExampleMeta, tool.InputSchema)
	}
	compareGolden(t, "console_tools.golden", out.Bytes())
}
