package sandbox

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Msg is narration as an i18n message id with its template data, so the web
// layer can say it in the learner's language. Protocol JSON is never
// translated; only the story around it is.
type Msg struct {
	ID   string         `json:"id"`
	Args map[string]any `json:"args,omitempty"`
}

func msg(id string, kv ...any) Msg {
	m := Msg{ID: id}
	if len(kv) > 0 {
		m.Args = make(map[string]any, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			m.Args[kv[i].(string)] = kv[i+1]
		}
	}
	return m
}

// KV returns the template data as alternating keys and values.
func (m Msg) KV() []any {
	kv := make([]any, 0, 2*len(m.Args))
	for k, v := range m.Args {
		kv = append(kv, k, v)
	}
	return kv
}

// Kind says what an event is.
type Kind string

const (
	KindTask     Kind = "task"     // what the agent was asked to do
	KindConnect  Kind = "connect"  // the initialize handshake
	KindRequest  Kind = "request"  // a tools/call request
	KindResult   Kind = "result"   // its result
	KindDecision Kind = "decision" // what the agent does next, and why
	KindWait     Kind = "wait"     // a backoff on the simulated clock
	KindDelegate Kind = "delegate" // a coordinator hands work to a subagent
	KindReport   Kind = "report"   // a subagent reports back
	KindOutcome  Kind = "outcome"  // how the run ended
)

// Actor is who acts in an event.
type Actor string

const (
	ActorAgent       Actor = "agent"
	ActorCoordinator Actor = "coordinator"
	ActorSubagent    Actor = "subagent"
)

// Move is what an agent decides to do with a result.
type Move string

const (
	MoveAccept       Move = "accept"           // use the result as the answer
	MoveRetry        Move = "retry"            // send the same call again
	MoveRetryMissing Move = "retry_missing"    // keep the partial results, fetch only the rest
	MoveReformulate  Move = "reformulate"      // fix the input and make a new call
	MoveSwitch       Move = "switch_principal" // call again as a principal with access
	MoveEscalate     Move = "escalate"         // stop and hand over, with context
	MoveAnnotate     Move = "annotate"         // coordinator: carry on and mark the gap
	MoveHide         Move = "hide"             // coordinator: present partial results as complete
	MoveAbort        Move = "abort"            // coordinator: end the whole task
)

// AgentMoves and CoordinatorMoves are the choices a learner predicts from.
var (
	AgentMoves       = []Move{MoveAccept, MoveRetry, MoveRetryMissing, MoveReformulate, MoveSwitch, MoveEscalate}
	CoordinatorMoves = []Move{MoveAnnotate, MoveHide, MoveAbort}
)

// ValidMove reports whether s names a move.
func ValidMove(s string) bool {
	for _, m := range append(append([]Move{}, AgentMoves...), CoordinatorMoves...) {
		if string(m) == s {
			return true
		}
	}
	return false
}

// OutcomeKind is how a run ended.
type OutcomeKind string

const (
	OutcomeAnswer     OutcomeKind = "answer"
	OutcomeEscalation OutcomeKind = "escalation"
	OutcomeGiveUp     OutcomeKind = "give_up"
)

// Event is one step of a trace.
type Event struct {
	Seq   int   `json:"seq"`
	AtMs  int64 `json:"atMs"` // simulated time since the run began
	Actor Actor `json:"actor"`
	Kind  Kind  `json:"kind"`
	Say   Msg   `json:"say"`

	// Requests and results.
	Call       int             `json:"call,omitempty"` // tool call number, from 1
	Tool       string          `json:"tool,omitempty"`
	JSON       json.RawMessage `json:"json,omitempty"`       // wire JSON-RPC, or a packet
	Result     json.RawMessage `json:"result,omitempty"`     // the CallToolResult alone, for the editor
	ToolResult json.RawMessage `json:"toolResult,omitempty"` // the same as a Messages API tool_result block
	IsError    bool            `json:"isError,omitempty"`
	Edited     bool            `json:"edited,omitempty"`
	// Hidden says what a silently suppressing tool hid behind this result:
	// the learner sees it, the agent does not.
	Hidden Msg `json:"hidden,omitzero"`

	// Decisions.
	Decision int    `json:"decision,omitempty"` // decision number, from 1
	Move     Move   `json:"move,omitempty"`
	Should   Move   `json:"should,omitempty"` // what the lessons' policy does here
	Options  []Move `json:"options,omitempty"`
	Rule     Msg    `json:"rule,omitzero"`

	WaitMs  int64       `json:"waitMs,omitempty"`
	Outcome OutcomeKind `json:"outcome,omitempty"`
	// Wrong marks an outcome built on a result that hid a failure.
	Wrong bool `json:"wrong,omitempty"`
	// Score sums the run up, on its outcome.
	Score *Score `json:"score,omitempty"`
}

// Trace is a whole run.
type Trace struct {
	Run    Run     `json:"run"`
	Events []Event `json:"events"`
}

// Decisions returns the decision events in order.
func (t *Trace) Decisions() []Event {
	var out []Event
	for _, e := range t.Events {
		if e.Kind == KindDecision {
			out = append(out, e)
		}
	}
	return out
}

// Outcome returns the last event, the outcome of a finished run.
func (t *Trace) Outcome() Event {
	if len(t.Events) == 0 {
		return Event{}
	}
	return t.Events[len(t.Events)-1]
}

// toolResultBlock shows a result the way an agent built on the Anthropic
// Messages API passes it to Claude: a tool_result block, with is_error set
// only for a failure (it defaults to false) and the structured fields as
// JSON text beside the summary.
func toolResultBlock(call int, r *mcp.CallToolResult) json.RawMessage {
	type textBlock struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	block := struct {
		Type      string      `json:"type"`
		ToolUseID string      `json:"tool_use_id"`
		Content   []textBlock `json:"content"`
		IsError   bool        `json:"is_error,omitempty"`
	}{Type: "tool_result", ToolUseID: toolUseID(call), Content: []textBlock{}, IsError: r.IsError}
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			block.Content = append(block.Content, textBlock{Type: "text", Text: tc.Text})
		}
	}
	if r.StructuredContent != nil { // an edited result may lack the JSON mirror in content
		b, _ := json.Marshal(r.StructuredContent)
		if !slices.ContainsFunc(block.Content, func(t textBlock) bool { return jsonEqual(t.Text, b) }) {
			block.Content = append(block.Content, textBlock{Type: "text", Text: string(b)})
		}
	}
	b, _ := json.Marshal(block)
	return indent(b)
}

// jsonEqual reports whether text is JSON with the same value as b.
func jsonEqual(text string, b []byte) bool {
	var x, y any
	if json.Unmarshal([]byte(text), &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

func toolUseID(call int) string {
	return "toolu_sandbox_" + strings.Repeat("0", max(0, 2-len(itoa(call)))) + itoa(call)
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
