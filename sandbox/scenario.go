package sandbox

// Scenario is a task whose tool calls run into one case of the lessons: each
// error category, the valid empty result, partial results, and a
// coordinator with a research subagent. Its name and task are i18n messages
// sandbox.scenario.<ID>.name and sandbox.scenario.<ID>.task.
type Scenario struct {
	ID    string
	Steps []Step
	// AltPrincipal is a principal with more access that the agent holds, for
	// a permission error's recovery ("" for none).
	AltPrincipal string
	// Multi makes a coordinator delegate the steps to a research subagent.
	Multi bool
	// Silent makes the tools hide their failures as empty or complete
	// successes (silent suppression), whatever the agent.
	Silent bool
}

// Step is one tool call an agent must get done.
type Step struct {
	Tool string
	Args map[string]any
}

// Scenarios lists the scenarios in the order the page offers them.
var Scenarios = []Scenario{
	{ID: "transient", Steps: []Step{{Tool: "lookup_customer", Args: map[string]any{"email": "jo.lee@slow.example"}}}},
	{ID: "transient_exhausted", Steps: []Step{{Tool: "lookup_customer", Args: map[string]any{"email": "pat.kim@down.example"}}}},
	{ID: "blip", Steps: []Step{{Tool: "lookup_customer", Args: map[string]any{"email": "sam.ng@flaky.example"}}}},
	{ID: "validation", Steps: []Step{{Tool: "lookup_order", Args: map[string]any{"order_id": "order-48213"}}}},
	{ID: "validation_unfixable", Steps: []Step{{Tool: "lookup_order", Args: map[string]any{"order_id": "order-abc"}}}},
	{ID: "business", Steps: []Step{{Tool: "issue_refund", Args: map[string]any{"order_id": "#12345", "amount_gbp": 750}}}},
	{ID: "business_split", Steps: []Step{
		{Tool: "issue_refund", Args: map[string]any{"order_id": "#12345", "amount_gbp": 375}},
		{Tool: "issue_refund", Args: map[string]any{"order_id": "#12345", "amount_gbp": 375}},
	}},
	{ID: "permission", AltPrincipal: FinancePrincipal, Steps: []Step{{Tool: "get_financial_records", Args: map[string]any{"customer_id": "C-1042"}}}},
	{ID: "permission_none", Steps: []Step{{Tool: "get_financial_records", Args: map[string]any{"customer_id": "C-1042"}}}},
	{ID: "empty", Steps: []Step{{Tool: "lookup_customer", Args: map[string]any{"email": "maria.k@example.com"}}}},
	{ID: "partial", Steps: []Step{{Tool: "search_sources", Args: map[string]any{"query": "EU battery regulation", "max_sources": 10}}}},
	{ID: "multi", Multi: true, Steps: []Step{
		{Tool: "lookup_customer", Args: map[string]any{"email": "jo.lee@slow.example"}},
		{Tool: "search_sources", Args: map[string]any{"query": "EU battery regulation live coverage", "max_sources": 10}},
	}},
	{ID: "silent", Multi: true, Silent: true, Steps: []Step{
		{Tool: "lookup_customer", Args: map[string]any{"email": "jo.lee@slow.example"}},
		{Tool: "search_sources", Args: map[string]any{"query": "EU battery regulation", "max_sources": 10}},
	}},
}

// FindScenario returns the scenario with this id.
func FindScenario(id string) (Scenario, bool) {
	for _, s := range Scenarios {
		if s.ID == id {
			return s, true
		}
	}
	return Scenario{}, false
}
