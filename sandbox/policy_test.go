package sandbox

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestFixArguments feeds fixArguments the description each tool really
// sends for a bad argument, and checks the correction the structured agent
// makes from it, or that it gives up where the description offers no fix.
func TestFixArguments(t *testing.T) {
	tests := []struct {
		name string
		tool string
		args map[string]any
		want map[string]any // nil: no fix, ask a person
	}{
		{"order id from its digits", "lookup_order", map[string]any{"order_id": "order-48213"}, map[string]any{"order_id": "#48213"}},
		{"order id without digits", "lookup_order", map[string]any{"order_id": "order-abc"}, nil},
		{"order id with six digits", "issue_refund", map[string]any{"order_id": "#123456", "amount_gbp": 10.0}, nil},
		{"customer id from its digits", "get_financial_records", map[string]any{"customer_id": "1042"}, map[string]any{"customer_id": "C-1042"}},
		{"customer id with five digits", "get_financial_records", map[string]any{"customer_id": "C-10422"}, nil},
		{"too many sources", "search_sources", map[string]any{"query": "x", "max_sources": 11.0}, map[string]any{"query": "x", "max_sources": 10.0}},
		{"email spelt with at", "lookup_customer", map[string]any{"email": "maria.k at example.com"}, map[string]any{"email": "maria.k@example.com"}},
		{"email past fixing", "lookup_customer", map[string]any{"email": "maria.k"}, nil},
	}
	cs := connect(t, New())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tt.tool, Arguments: tt.args})
			if err != nil || !res.IsError {
				t.Fatalf("want a validation error to fix: %s %v", resultJSON(res), err)
			}
			got := fixArguments(tt.tool, tt.args, descriptionOf(res))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("fixed arguments (-want +got):\n%s", diff)
			}
		})
	}
}
