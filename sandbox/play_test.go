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
		// Backoff pays off: the outage ends after the stated wait; instant retries burn out inside it.
		{"transient", Structured, false, []Move{retry, accept}, OutcomeAnswer, "sandbox.outcome.answer"},
		{"transient", Naive, false, []Move{retry, retry, retry, escalate}, OutcomeEscalation, "sandbox.outcome.escalation_bare"},
		// A single agent whose transient retries run out.
		{"transient_exhausted", Structured, false, []Move{retry, retry, retry, escalate}, OutcomeEscalation, "sandbox.outcome.escalation_exhausted"},
		{"transient_exhausted", Naive, false, []Move{retry, retry, retry, escalate}, OutcomeEscalation, "sandbox.outcome.escalation_bare"},
		// A one-off blip: an instant retry works too, and the narration says it was luck.
		{"blip", Structured, false, []Move{retry, accept}, OutcomeAnswer, "sandbox.outcome.answer"},
		{"blip", Naive, false, []Move{retry, accept}, OutcomeAnswer, "sandbox.outcome.lucky"},
		{"validation", Structured, false, []Move{fix, accept}, OutcomeAnswer, "sandbox.outcome.answer"},
		{"validation", Naive, false, []Move{retry, retry, retry, escalate}, OutcomeEscalation, "sandbox.outcome.escalation_bare"},
		// order-abc has no digits to fix from: ask a person.
		{"validation_unfixable", Structured, false, []Move{escalate}, OutcomeEscalation, "sandbox.outcome.ask_person"},
		{"validation_unfixable", Naive, false, []Move{retry, retry, retry, escalate}, OutcomeEscalation, "sandbox.outcome.escalation_bare"},
		{"business", Structured, false, []Move{escalate}, OutcomeEscalation, "sandbox.outcome.escalation"},
		{"business", Naive, false, []Move{retry, retry, retry, escalate}, OutcomeEscalation, "sandbox.outcome.escalation_bare"},
		// The first half of a split goes through; the second is refused as a split.
		{"business_split", Structured, false, []Move{accept, escalate}, OutcomeEscalation, "sandbox.outcome.escalation"},
		{"business_split", Naive, false, []Move{accept, retry, retry, retry, escalate}, OutcomeEscalation, "sandbox.outcome.escalation_bare"},
		{"permission", Structured, false, []Move{switchP, accept}, OutcomeAnswer, "sandbox.outcome.answer"},
		{"permission", Naive, false, []Move{retry, retry, retry, escalate}, OutcomeEscalation, "sandbox.outcome.escalation_bare"},
		{"permission_none", Structured, false, []Move{escalate}, OutcomeEscalation, "sandbox.outcome.escalation"},
		{"permission_none", Naive, false, []Move{retry, retry, retry, escalate}, OutcomeEscalation, "sandbox.outcome.escalation_bare"},
		// The lessons' story: an empty lookup retried three times, then escalated.
		{"empty", Structured, false, []Move{accept}, OutcomeAnswer, "sandbox.outcome.not_found"},
		{"empty", Naive, false, []Move{retry, retry, retry, escalate}, OutcomeEscalation, "sandbox.outcome.escalation_bare"},
		// Partial results: keep the six, fetch only the missing four after the wait.
		{"partial", Structured, false, []Move{MoveRetryMissing, accept}, OutcomeAnswer, "sandbox.outcome.answer"},
		{"partial", Naive, false, []Move{retry, retry, retry, escalate}, OutcomeEscalation, "sandbox.outcome.escalation_bare"},
		{"multi", Structured, false, []Move{retry, accept, MoveRetryMissing, retry, retry, escalate, MoveAnnotate, accept}, OutcomeAnswer, "sandbox.outcome.filled_gaps"},
		{"multi", Naive, false, []Move{retry, retry, retry, escalate, retry, retry, retry, escalate, MoveAbort}, OutcomeGiveUp, "sandbox.outcome.abort"},
		// Silent suppression: every agent is misled, the structured one most smoothly.
		{"silent", Structured, false, []Move{accept, accept, accept}, OutcomeAnswer, "sandbox.outcome.silent_wrong"},
		{"silent", Naive, false, []Move{retry, retry, retry, escalate, accept, MoveAbort}, OutcomeGiveUp, "sandbox.outcome.abort"},
		// Generic errors: the structured agent loses its footing too.
		{"transient", Structured, true, []Move{escalate}, OutcomeEscalation, "sandbox.outcome.escalation_blind"},
		{"blip", Structured, true, []Move{escalate}, OutcomeEscalation, "sandbox.outcome.escalation_blind"},
		{"validation", Structured, true, []Move{escalate}, OutcomeEscalation, "sandbox.outcome.escalation_blind"},
		{"business", Structured, true, []Move{escalate}, OutcomeEscalation, "sandbox.outcome.escalation_blind"},
		{"permission", Structured, true, []Move{escalate}, OutcomeEscalation, "sandbox.outcome.escalation_blind"},
		{"empty", Structured, true, []Move{accept}, OutcomeAnswer, "sandbox.outcome.not_found"},
		{"partial", Structured, true, []Move{escalate}, OutcomeEscalation, "sandbox.outcome.escalation_blind"},
		{"multi", Structured, true, []Move{escalate, escalate, MoveAnnotate}, OutcomeAnswer, "sandbox.outcome.annotated"},
		// ...while the naive agent's blind retry "works" only where the fault was a blip, never on a business error.
		{"transient", Naive, true, []Move{retry, retry, retry, escalate}, OutcomeEscalation, "sandbox.outcome.escalation_bare"},
		{"blip", Naive, true, []Move{retry, accept}, OutcomeAnswer, "sandbox.outcome.lucky"},
		{"business", Naive, true, []Move{retry, retry, retry, escalate}, OutcomeEscalation, "sandbox.outcome.escalation_bare"},
		{"empty", Naive, true, []Move{retry, retry, retry, escalate}, OutcomeEscalation, "sandbox.outcome.escalation_bare"},
		{"multi", Naive, true, []Move{retry, retry, retry, escalate, retry, retry, retry, escalate, MoveAbort}, OutcomeGiveUp, "sandbox.outcome.abort"},
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
	ex := play(t, New(), Run{Scenario: "transient_exhausted", Agent: Structured, Seed: 1})
	var packet map[string]any
	json.Unmarshal(ex.Outcome().JSON, &packet)
	for _, k := range []string{"errorCategory", "isRetryable", "attempted_query", "description", "retry_after_ms"} {
		if _, ok := packet[k]; !ok {
			t.Errorf("the escalation packet lacks %s: %s", k, ex.Outcome().JSON)
		}
	}
}

// searchCalls returns the arguments of each search_sources request, in order.
func searchCalls(t *testing.T, tr *Trace) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, e := range tr.Events {
		if e.Kind != KindRequest || e.Tool != "search_sources" {
			continue
		}
		var wire struct {
			Params struct {
				Arguments map[string]any `json:"arguments"`
			} `json:"params"`
		}
		if err := json.Unmarshal(e.JSON, &wire); err != nil {
			t.Fatal(err)
		}
		out = append(out, wire.Params.Arguments)
	}
	return out
}

func resultsOf(t *testing.T, e Event) []any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(e.JSON, &m); err != nil {
		t.Fatalf("%s: %v", e.JSON, err)
	}
	rs, _ := m["results"].([]any)
	return rs
}

func TestBackoffSucceedsWhereInstantRetryFails(t *testing.T) {
	sb := New()
	structured := play(t, sb, Run{Scenario: "transient", Agent: Structured, Seed: 1})
	naive := play(t, sb, Run{Scenario: "transient", Agent: Naive, Seed: 1})
	var waited int64
	for _, e := range structured.Events {
		if e.Kind == KindWait {
			waited += e.WaitMs
		}
	}
	if waited < SlowOutage.Milliseconds() || structured.Outcome().Outcome != OutcomeAnswer {
		t.Errorf("the structured agent should wait out retry_after_ms (%v) and then answer: waited %d ms, %s", SlowOutage, waited, structured.Outcome().Outcome)
	}
	calls := 0
	for _, e := range naive.Events {
		if e.Kind == KindResult {
			calls++
			if !e.IsError || e.AtMs != 0 {
				t.Errorf("every instant retry lands inside the outage: call %d isError %v at %d ms", e.Call, e.IsError, e.AtMs)
			}
		}
	}
	if calls != MaxRetries+1 || naive.Outcome().Outcome != OutcomeEscalation {
		t.Errorf("the naive agent should burn all %d retries and escalate: %d calls, %s", MaxRetries, calls, naive.Outcome().Outcome)
	}
}

func TestPartialResultsRetryOnlyTheMissingPart(t *testing.T) {
	sb := New()
	tr := play(t, sb, Run{Scenario: "partial", Agent: Structured, Seed: 1})
	calls := searchCalls(t, tr)
	if len(calls) != 2 || calls[1]["offset"] != float64(6) || calls[1]["max_sources"] != float64(4) {
		t.Fatalf("the structured agent should resend only the missing 4 (offset 6): %v", calls)
	}
	if rs := resultsOf(t, tr.Outcome()); len(rs) != MaxSources {
		t.Errorf("the answer should hold all %d sources, six kept and four fetched: %d", MaxSources, len(rs))
	}
	naive := play(t, sb, Run{Scenario: "partial", Agent: Naive, Seed: 1})
	for _, c := range searchCalls(t, naive) {
		if c["max_sources"] != float64(10) || c["offset"] != nil {
			t.Errorf("the naive agent resends the whole search: %v", c)
		}
	}
	if strings.Contains(string(naive.Outcome().JSON), "partial_results") || strings.Contains(string(naive.Outcome().JSON), "Battery passport") {
		t.Errorf("the naive agent's escalation drops the partial results: %s", naive.Outcome().JSON)
	}
}

func TestMultiAgentRetriesOnlyTheMissingPartAndTheCoordinatorFillsTheGap(t *testing.T) {
	tr := play(t, New(), Run{Scenario: "multi", Agent: Structured, Seed: 1})
	calls := searchCalls(t, tr)
	if len(calls) < 3 || calls[0]["max_sources"] != float64(10) {
		t.Fatalf("search calls: %v", calls)
	}
	for _, c := range calls[1:] {
		if c["offset"] != float64(6) || c["max_sources"] != float64(4) {
			t.Errorf("every later search should ask only for the missing 4: %v", c)
		}
	}
	var report map[string]any
	for _, e := range tr.Events {
		if e.Kind == KindReport && e.Actor == ActorSubagent {
			json.Unmarshal(e.JSON, &report)
		}
	}
	if report["status"] != "partial" {
		t.Fatalf("report = %v", report)
	}
	unresolved := report["unresolved"].([]any)
	if len(unresolved) != 1 {
		t.Fatalf("only the search should reach the coordinator (the timeout was resolved locally): %v", unresolved)
	}
	u := unresolved[0].(map[string]any)
	if u["errorCategory"] != "transient" || u["attempted_query"] != "EU battery regulation live coverage" ||
		len(u["partial_results"].([]any)) != 6 || u["alternatives"] == nil {
		t.Errorf("the subagent should return transient with attempted_query, all six partial_results and alternatives: %v", u)
	}
	if _, ok := report["findings"].(map[string]any)["lookup_customer"]; !ok {
		t.Errorf("the resolved lookup should be in the findings: %v", report["findings"])
	}
	// The coordinator decides to carry on and mark the gap, drafts with it,
	// then asks only for the missing part and completes.
	var annotated, delegatedMissing bool
	for _, e := range tr.Events {
		annotated = annotated || (e.Kind == KindDecision && e.Actor == ActorCoordinator && e.Move == MoveAnnotate)
		delegatedMissing = delegatedMissing || (e.Kind == KindDelegate && e.Say.ID == "sandbox.ev.delegate_missing")
	}
	if !annotated || !delegatedMissing {
		t.Errorf("annotated %v, asked again for the missing part %v", annotated, delegatedMissing)
	}
	var outcome map[string]any
	json.Unmarshal(tr.Outcome().JSON, &outcome)
	search, _ := outcome["findings"].(map[string]any)["search_sources"].(map[string]any)
	if rs, _ := search["results"].([]any); outcome["status"] != "complete" || len(rs) != 10 {
		t.Errorf("the final answer should have all 10 sources: %v", outcome)
	}

	naive := play(t, New(), Run{Scenario: "multi", Agent: Naive, Seed: 1})
	if out := naive.Outcome(); out.Outcome != OutcomeGiveUp || len(out.JSON) != 0 {
		t.Errorf("the naive coordinator aborts the whole task and keeps nothing: %s %s", out.Outcome, out.JSON)
	}
}

func TestSilentSuppressionMisleadsTheCoordinator(t *testing.T) {
	tr := play(t, New(), Run{Scenario: "silent", Agent: Structured, Seed: 1})
	hidden := 0
	for _, e := range tr.Events {
		if e.Kind == KindResult {
			if e.IsError {
				t.Errorf("in silent mode no result admits a failure: call %d", e.Call)
			}
			if e.Hidden.ID != "" {
				hidden++
			}
		}
	}
	if hidden != 2 {
		t.Errorf("both results hid a failure (the timeout and the rate limit); %d are marked", hidden)
	}
	out := tr.Outcome()
	if !out.Wrong || out.Say.ID != "sandbox.outcome.silent_wrong" || out.Outcome != OutcomeAnswer {
		t.Errorf("the coordinator's answer is built on the lie and must be marked wrong: %+v", out)
	}
	if !strings.Contains(string(out.JSON), `"resultCount": 0`) {
		t.Errorf("the downstream answer says the customer does not exist: %s", out.JSON)
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
	// Where the error states no wait, the jittered backoff is the wait;
	// where it does, the wait is never shorter than retry_after_ms.
	ws := waits(play(t, New(), Run{Scenario: "transient_exhausted", Agent: Structured, Seed: 5}))
	if len(ws) != MaxRetries {
		t.Fatalf("waits %v", ws)
	}
	for i, w := range ws {
		if lo := max(DownHint, BaseBackoff<<i/2); time.Duration(w)*time.Millisecond < lo {
			t.Errorf("wait %d was %d ms, shorter than max(retry_after_ms, backoff) = %v", i, w, lo)
		}
	}
	blip := waits(play(t, New(), Run{Scenario: "blip", Agent: Structured, Seed: 5}))
	if len(blip) != 1 || blip[0] < (BaseBackoff/2).Milliseconds() || blip[0] > BaseBackoff.Milliseconds() {
		t.Errorf("without retry_after_ms the first wait is a jittered backoff of 0.5 to 1 s: %v", blip)
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

func TestScoreboardComparesTheAgents(t *testing.T) {
	sb := New()
	for _, tt := range []struct {
		scenario string
		agent    AgentKind
		want     Score
	}{
		{"transient", Structured, Score{Calls: 2, WastedRetries: 0, Answered: true, AnswerMs: SlowOutage.Milliseconds(), Found: 1, Kept: 1}},
		{"transient", Naive, Score{Calls: 4, WastedRetries: 3}},
		{"partial", Structured, Score{Calls: 2, Answered: true, AnswerMs: NewsWindow.Milliseconds(), Found: 10, Kept: 10}},
		{"partial", Naive, Score{Calls: 4, WastedRetries: 3, Found: 6, Kept: 0}},
	} {
		got := play(t, sb, Run{Scenario: tt.scenario, Agent: tt.agent, Seed: 1}).Outcome().Score
		if got == nil || *got != tt.want {
			t.Errorf("%s %s: score %+v, want %+v", tt.scenario, tt.agent, got, tt.want)
		}
	}
	silent := play(t, sb, Run{Scenario: "silent", Agent: Structured, Seed: 1}).Outcome().Score
	if silent.Answered {
		t.Error("an answer built on a silently suppressed failure does not count as answered")
	}
}
