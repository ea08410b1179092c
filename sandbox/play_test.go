package sandbox

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func movesOf(tr *Trace) []Move {
	var out []Move
	for _, e := range tr.Decisions() {
		out = append(out, e.Move)
	}
	return out
}

func shouldsOf(tr *Trace) []Move {
	var out []Move
	for _, e := range tr.Decisions() {
		out = append(out, e.Should)
	}
	return out
}

func movesStrings(ms []Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = string(m)
	}
	return out
}

func play(t *testing.T, sb *Sandbox, run Run) *Trace {
	t.Helper()
	var streamed []Event
	tr, err := sb.Play(context.Background(), run, func(e Event) { streamed = append(streamed, e) })
	if err != nil {
		t.Fatalf("%+v: %v", run, err)
	}
	if len(streamed) != len(tr.Events) {
		t.Errorf("emitted %d events, the trace has %d", len(streamed), len(tr.Events))
	}
	return tr
}

var (
	accept   = MoveAccept
	retry    = MoveRetry
	fix      = MoveReformulate
	switchP  = MoveSwitch
	escalate = MoveEscalate
)

// TestBothAgentsInEveryScenario is the heart of the sandbox: what each agent
// does with each result, and how the run ends.
func TestBothAgentsInEveryScenario(t *testing.T) {
	tests := []struct {
		scenario string
		agent    AgentKind
		generic  bool
		moves    []Move
		outcome  OutcomeKind
		sayID    string
	}{
		{"transient", Structured, false, []Move{retry, retry, accept}, OutcomeAnswer, "sandbox.outcome.answer"},
		{"transient", Naive, false, []Move{retry, retry, accept}, OutcomeAnswer, "sandbox.outcome.answer"},
		{"validation", Structured, false, []Move{fix, accept}, OutcomeAnswer, "sandbox.outcome.answer"},
		{"validation", Naive, false, []Move{retry, retry, retry, escalate}, OutcomeEscalation, "sandbox.outcome.escalation_bare"},
		{"business", Structured, false, []Move{escalate}, OutcomeEscalation, "sandbox.outcome.escalation"},
		{"business", Naive, false, []Move{retry, retry, retry, escalate}, OutcomeEscalation, "sandbox.outcome.escalation_bare"},
		{"permission", Structured, false, []Move{switchP, accept}, OutcomeAnswer, "sandbox.outcome.answer"},
		{"permission", Naive, false, []Move{retry, retry, retry, escalate}, OutcomeEscalation, "sandbox.outcome.escalation_bare"},
		// The lessons' story: an empty lookup retried three times, then escalated.
		{"empty", Structured, false, []Move{accept}, OutcomeAnswer, "sandbox.outcome.not_found"},
		{"empty", Naive, false, []Move{retry, retry, retry, escalate}, OutcomeEscalation, "sandbox.outcome.escalation_bare"},
		{"partial", Structured, false, []Move{retry, retry, retry, escalate}, OutcomeEscalation, "sandbox.outcome.escalation"},
		{"partial", Naive, false, []Move{retry, retry, retry, escalate}, OutcomeEscalation, "sandbox.outcome.escalation_bare"},
		{"multi", Structured, false, []Move{retry, retry, accept, retry, retry, retry, escalate, MoveAnnotate}, OutcomeAnswer, "sandbox.outcome.annotated"},
		{"multi", Naive, false, []Move{retry, retry, accept, retry, retry, retry, escalate, MoveAbort}, OutcomeGiveUp, "sandbox.outcome.abort"},
		// Generic errors: the structured agent loses its footing too.
		{"transient", Structured, true, []Move{escalate}, OutcomeEscalation, "sandbox.outcome.escalation_blind"},
		{"validation", Structured, true, []Move{escalate}, OutcomeEscalation, "sandbox.outcome.escalation_blind"},
		{"business", Structured, true, []Move{escalate}, OutcomeEscalation, "sandbox.outcome.escalation_blind"},
		{"permission", Structured, true, []Move{escalate}, OutcomeEscalation, "sandbox.outcome.escalation_blind"},
		{"empty", Structured, true, []Move{accept}, OutcomeAnswer, "sandbox.outcome.not_found"},
		{"partial", Structured, true, []Move{escalate}, OutcomeEscalation, "sandbox.outcome.escalation_blind"},
		{"multi", Structured, true, []Move{escalate, escalate, MoveAnnotate}, OutcomeAnswer, "sandbox.outcome.annotated"},
		{"transient", Naive, true, []Move{retry, retry, accept}, OutcomeAnswer, "sandbox.outcome.answer"},
		{"business", Naive, true, []Move{retry, retry, retry, escalate}, OutcomeEscalation, "sandbox.outcome.escalation_bare"},
		{"empty", Naive, true, []Move{retry, retry, retry, escalate}, OutcomeEscalation, "sandbox.outcome.escalation_bare"},
		{"multi", Naive, true, []Move{retry, retry, accept, retry, retry, retry, escalate, MoveAbort}, OutcomeGiveUp, "sandbox.outcome.abort"},
	}
	sb := New()
	seen := map[string]bool{}
	for _, tt := range tests {
		name := tt.scenario + "/" + string(tt.agent)
		if tt.generic {
			name += "/generic"
		}
		seen[tt.scenario+"/"+string(tt.agent)] = true
		t.Run(name, func(t *testing.T) {
			tr := play(t, sb, Run{Scenario: tt.scenario, Agent: tt.agent, Generic: tt.generic, Seed: 1})
			if diff := cmp.Diff(movesStrings(tt.moves), movesStrings(movesOf(tr))); diff != "" {
				t.Errorf("moves (-want +got):\n%s", diff)
			}
			out := tr.Outcome()
			if out.Kind != KindOutcome || out.Outcome != tt.outcome || out.Say.ID != tt.sayID {
				t.Errorf("outcome = %s %s %s, want %s %s", out.Kind, out.Outcome, out.Say.ID, tt.outcome, tt.sayID)
			}
			// The structured agent always does what the lessons' policy says.
			if tt.agent == Structured {
				if diff := cmp.Diff(movesOf(tr), shouldsOf(tr)); diff != "" {
					t.Errorf("the structured agent strayed from the policy:\n%s", diff)
				}
			}
		})
	}
	for _, sc := range Scenarios {
		for _, a := range Agents {
			if !seen[sc.ID+"/"+string(a)] {
				t.Errorf("no test for %s with the %s agent", sc.ID, a)
			}
		}
	}
}

func TestNaiveAgentIsMeasuredAgainstThePolicy(t *testing.T) {
	tr := play(t, New(), Run{Scenario: "empty", Agent: Naive, Seed: 1})
	if diff := cmp.Diff([]Move{accept, accept, accept, accept}, shouldsOf(tr)); diff != "" {
		t.Errorf("the policy's move for each empty result (-want +got):\n%s", diff)
	}
	for _, d := range tr.Decisions() {
		if d.Rule.ID == "" || len(d.Options) == 0 {
			t.Errorf("decision %d has no rule or no options", d.Decision)
		}
	}
}

func TestTraceShowsTheProtocol(t *testing.T) {
	tr := play(t, New(), Run{Scenario: "partial", Agent: Structured, Seed: 3})
	var kinds []Kind
	for i, e := range tr.Events {
		if e.Seq != i+1 {
			t.Errorf("event %d has seq %d", i, e.Seq)
		}
		kinds = append(kinds, e.Kind)
	}
	if kinds[0] != KindTask || kinds[1] != KindConnect || !strings.Contains(string(tr.Events[1].JSON), `"protocolVersion": "`+ProtocolVersion+`"`) {
		t.Errorf("the trace should open with the task and the handshake at %s: %v", ProtocolVersion, kinds[:2])
	}
	req, res := tr.Events[2], tr.Events[3]
	var wire struct {
		JSONRPC string         `json:"jsonrpc"`
		Method  string         `json:"method"`
		Params  map[string]any `json:"params"`
		Result  map[string]any `json:"result"`
	}
	if err := json.Unmarshal(req.JSON, &wire); err != nil || wire.JSONRPC != "2.0" || wire.Method != "tools/call" || wire.Params["name"] != "search_sources" {
		t.Errorf("request = %s (%v)", req.JSON, err)
	}
	if err := json.Unmarshal(res.JSON, &wire); err != nil || wire.Result["isError"] != true {
		t.Errorf("result = %s (%v)", res.JSON, err)
	}
	if !strings.Contains(string(res.JSON), "\n  ") {
		t.Error("protocol JSON should be formatted")
	}
	var block map[string]any
	if err := json.Unmarshal(res.ToolResult, &block); err != nil || block["type"] != "tool_result" || block["is_error"] != true {
		t.Errorf("Messages API view = %s (%v)", res.ToolResult, err)
	}
	ok := play(t, New(), Run{Scenario: "empty", Agent: Structured, Seed: 1}).Events[3]
	if strings.Contains(string(ok.ToolResult), "is_error") {
		t.Errorf("a success leaves is_error out (it defaults to false): %s", ok.ToolResult)
	}
	// The escalation packet carries everything the error did.
	var packet map[string]any
	json.Unmarshal(tr.Outcome().JSON, &packet)
	for _, k := range []string{"errorCategory", "isRetryable", "attempted_query", "partial_results", "alternatives"} {
		if _, ok := packet[k]; !ok {
			t.Errorf("the escalation packet lacks %s: %s", k, tr.Outcome().JSON)
		}
	}
	if pr, _ := packet["partial_results"].([]any); len(pr) != SourcesBeforeRateLimit {
		t.Errorf("partial_results in the packet: %d", len(pr))
	}
}

func TestMultiAgentHandsUpContextAndTheCoordinatorAnnotates(t *testing.T) {
	tr := play(t, New(), Run{Scenario: "multi", Agent: Structured, Seed: 1})
	var report, outcome map[string]any
	for _, e := range tr.Events {
		if e.Kind == KindReport {
			json.Unmarshal(e.JSON, &report)
		}
	}
	json.Unmarshal(tr.Outcome().JSON, &outcome)
	if report["status"] != "partial" {
		t.Fatalf("report = %v", report)
	}
	unresolved := report["unresolved"].([]any)
	if len(unresolved) != 1 {
		t.Fatalf("only the search should reach the coordinator (the timeouts were resolved locally): %v", unresolved)
	}
	u := unresolved[0].(map[string]any)
	if u["attempted_query"] != "EU battery regulation" || len(u["partial_results"].([]any)) != 6 {
		t.Errorf("the subagent should hand up attempted_query and partial_results: %v", u)
	}
	if _, ok := report["findings"].(map[string]any)["lookup_customer"]; !ok {
		t.Errorf("the resolved lookup should be in the findings: %v", report["findings"])
	}
	gaps := outcome["gaps"].([]any)
	if len(gaps) != 1 || gaps[0].(map[string]any)["partial_results_used"] != float64(6) {
		t.Errorf("the coordinator should mark the gap and use the six sources: %v", outcome)
	}
	for _, e := range tr.Events {
		if e.Kind == KindWait && e.Actor != ActorSubagent {
			t.Errorf("only the subagent backs off: %+v", e)
		}
	}
}

func TestSameSeedSameTrace(t *testing.T) {
	sb := New()
	a := play(t, sb, Run{Scenario: "multi", Agent: Structured, Seed: 42})
	b := play(t, sb, Run{Scenario: "multi", Agent: Structured, Seed: 42})
	if diff := cmp.Diff(a.Events, b.Events); diff != "" {
		t.Errorf("the same seed gave different traces:\n%s", diff)
	}
	c := play(t, sb, Run{Scenario: "multi", Agent: Structured, Seed: 43})
	if cmp.Equal(waits(a), waits(c)) {
		t.Errorf("another seed should jitter differently: %v", waits(a))
	}
}

func waits(tr *Trace) []int64 {
	var out []int64
	for _, e := range tr.Events {
		if e.Kind == KindWait {
			out = append(out, e.WaitMs)
		}
	}
	return out
}

func TestBackoffIsExponentialWithJitter(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for n := 0; n < 4; n++ {
		ceiling := BaseBackoff << n
		for i := 0; i < 50; i++ {
			d := backoff(n, rng)
			if d < ceiling/2 || d > ceiling {
				t.Fatalf("retry %d waited %v, want between %v and %v", n, d, ceiling/2, ceiling)
			}
		}
	}
	var total time.Duration
	for _, w := range waits(play(t, New(), Run{Scenario: "partial", Agent: Structured, Seed: 5})) {
		total += time.Duration(w) * time.Millisecond
	}
	if total < 3500*time.Millisecond || total > 7*time.Second {
		t.Errorf("three backoffs took %v: they should play in seconds", total)
	}
}

func TestReplayOnAnEditedResult(t *testing.T) {
	sb := New()
	edit := func(s string) map[int]*mcp.CallToolResult {
		r, err := ParseEditedResult(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err.Message)
		}
		return map[int]*mcp.CallToolResult{1: r}
	}
	// The empty lookup turned into a transient failure: the structured agent
	// retries, and the real server's empty result ends it.
	tr := play(t, sb, Run{Scenario: "empty", Agent: Structured, Seed: 1, Edits: edit(`{"isError": true,
		"content": [{"type": "text", "text": "Customer database unreachable"}],
		"structuredContent": {"errorCategory": "transient", "isRetryable": true, "description": "timed out", "attempted_query": "q"}}`)})
	if diff := cmp.Diff([]Move{retry, accept}, movesOf(tr)); diff != "" {
		t.Errorf("moves (-want +got):\n%s", diff)
	}
	if !tr.Events[3].Edited || tr.Events[3].Say.ID != "sandbox.ev.edited_result_error" {
		t.Errorf("the edited result should be marked: %+v", tr.Events[3])
	}
	// A business error flipped to isRetryable true is resent; the server's
	// real answer then stops it.
	tr = play(t, sb, Run{Scenario: "business", Agent: Structured, Seed: 1, Edits: edit(`{"isError": true,
		"content": [{"type": "text", "text": "Refund exceeds policy limit"}],
		"structuredContent": {"errorCategory": "business", "isRetryable": true, "description": "d", "attempted_query": "q"}}`)})
	if diff := cmp.Diff([]Move{retry, escalate}, movesOf(tr)); diff != "" {
		t.Errorf("moves (-want +got):\n%s", diff)
	}
	// An isError false with text that reads like data: both accept it.
	for _, a := range Agents {
		tr = play(t, sb, Run{Scenario: "permission", Agent: a, Seed: 1, Edits: edit(`{"isError": false,
			"content": [{"type": "text", "text": "Found 2 invoices for C-1042."}],
			"structuredContent": {"resultCount": 2, "results": [{}, {}]}}`)})
		if diff := cmp.Diff([]Move{accept}, movesOf(tr)); diff != "" {
			t.Errorf("%s moves (-want +got):\n%s", a, diff)
		}
	}
}

func TestRunCheck(t *testing.T) {
	sb := New()
	if _, err := sb.Play(context.Background(), Run{Scenario: "nope", Agent: Structured}, nil); err == nil {
		t.Error("an unknown scenario should be refused")
	}
	if _, err := sb.Play(context.Background(), Run{Scenario: "empty", Agent: "clever"}, nil); err == nil {
		t.Error("an unknown agent should be refused")
	}
}
