package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/examsim/examsim"
)

// Run says what to play: a scenario, an agent, whether the tools answer
// every failure with a bare "Operation failed", the seed of the backoff
// jitter, and results the learner edited.
type Run struct {
	Scenario string    `json:"scenario"`
	Agent    AgentKind `json:"agent"`
	Generic  bool      `json:"generic"`
	Seed     uint64    `json:"seed"`
	// Edits replaces the result of a tool call (by number, from 1) with one
	// the learner wrote. The call still reaches the server, so its state
	// moves on as in the original run; only what the agent sees changes.
	Edits map[int]*mcp.CallToolResult `json:"-"`
}

// Check returns an error for a run that names no scenario or agent.
func (r Run) Check() error {
	if _, ok := FindScenario(r.Scenario); !ok {
		return examsim.E(examsim.EINVALID, "sandbox.error.unknown_scenario", "Scenario", r.Scenario)
	}
	if r.Agent != Structured && r.Agent != Naive {
		return examsim.E(examsim.EINVALID, "sandbox.error.unknown_agent", "Agent", string(r.Agent))
	}
	return nil
}

// playTimeout bounds a run; runs take milliseconds, as waits are simulated.
const playTimeout = 20 * time.Second

// Play runs the agent through the scenario against the sandbox's own MCP
// server over the SDK's in-memory transport, calling emit with each event as
// it happens. The same Run always gives the same trace.
func (sb *Sandbox) Play(ctx context.Context, run Run, emit func(Event)) (*Trace, error) {
	if err := run.Check(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, playTimeout)
	defer cancel()
	sc, _ := FindScenario(run.Scenario)
	p := &player{sb: sb, run: run, sc: sc, emit: emit, trace: &Trace{Run: run},
		rng: rand.New(rand.NewPCG(run.Seed, 0x5eed5eed))} // #nosec G404 -- replays a run from its seed: reproducible on purpose
	var err error
	if sc.Multi {
		err = p.playMulti(ctx)
	} else {
		err = p.playSingle(ctx)
	}
	if err != nil {
		return nil, &examsim.Error{Code: examsim.EINTERNAL, MessageID: "error.internal", Detail: "sandbox: " + err.Error()}
	}
	return p.trace, nil
}

type player struct {
	sb    *Sandbox
	run   Run
	sc    Scenario
	rng   *rand.Rand
	emit  func(Event)
	trace *Trace

	clock     time.Duration
	calls     int
	decisions int
	// simNow is the clock the sandbox's server reads for this run's
	// sessions: the simulated clock, advanced only by waits.
	simNow atomic.Int64
}

// simEpoch is when every run starts on the simulated clock.
var simEpoch = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

func (p *player) now() time.Time { return simEpoch.Add(time.Duration(p.simNow.Load())) }

func (p *player) add(e Event) {
	e.Seq = len(p.trace.Events) + 1
	e.AtMs = p.clock.Milliseconds()
	if e.Kind == KindOutcome {
		e.Score = score(p.trace.Events, e)
	}
	p.trace.Events = append(p.trace.Events, e)
	if p.emit != nil {
		p.emit(e)
	}
}

// conn is one agent's MCP session with the sandbox.
type conn struct {
	cs  *mcp.ClientSession
	rec *recorder
}

func (p *player) connect(ctx context.Context, actor Actor) (*conn, error) {
	clientT, serverT := mcp.NewInMemoryTransports()
	ss, err := p.sb.server.Connect(ctx, serverT, nil)
	if err != nil {
		return nil, err
	}
	p.sb.state(ss).setClock(p.now)
	rec := &recorder{inner: clientT}
	client := mcp.NewClient(&mcp.Implementation{Name: "examsim-" + string(p.run.Agent) + "-" + string(actor), Version: "1.0.0"},
		&mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	cs, err := client.Connect(ctx, rec, &mcp.ClientSessionOptions{ProtocolVersion: ProtocolVersion})
	if err != nil {
		return nil, err
	}
	_, resp := rec.exchange("initialize")
	p.add(Event{Actor: actor, Kind: KindConnect, JSON: resp,
		Say: msg("sandbox.ev.connect", "Version", cs.InitializeResult().ProtocolVersion)})
	return &conn{cs: cs, rec: rec}, nil
}

// call makes one tools/call and records the request and the result.
func (p *player) call(ctx context.Context, actor Actor, c *conn, tool string, args map[string]any, principal string) (*mcp.CallToolResult, error) {
	p.calls++
	n := p.calls
	params := &mcp.CallToolParams{Name: tool, Arguments: args}
	meta := mcp.Meta{}
	if principal != "" {
		meta[MetaPrincipal] = principal
	}
	if p.run.Generic {
		meta[MetaErrors] = "generic"
	}
	if p.sc.Silent {
		meta[MetaErrors] = "silent"
	}
	if len(meta) > 0 {
		params.Meta = meta
	}
	res, err := c.cs.CallTool(ctx, params)
	if err != nil {
		return nil, fmt.Errorf("calling %s: %w", tool, err)
	}
	req, resp := c.rec.exchange("tools/call")
	say := msg("sandbox.ev.request", "Tool", tool, "Call", n)
	if principal != "" {
		say = msg("sandbox.ev.request_as", "Tool", tool, "Call", n, "Principal", principal)
	}
	p.add(Event{Actor: actor, Kind: KindRequest, Call: n, Tool: tool, JSON: req, Say: say})

	var wireResult struct {
		Result json.RawMessage `json:"result"`
	}
	_ = json.Unmarshal(resp, &wireResult) // the sandbox's own JSON-RPC; without a result there is nothing to show
	ev := Event{Actor: actor, Kind: KindResult, Call: n, Tool: tool, JSON: resp, Result: indent(wireResult.Result)}
	if edited, ok := p.run.Edits[n]; ok {
		res = edited
		b, _ := json.Marshal(edited)
		ev.JSON, ev.Result, ev.Edited = indent(b), indent(b), true
	}
	ev.IsError = res.IsError
	ev.ToolResult = toolResultBlock(n, res)
	ev.Say = resultNarration(res, ev.Edited)
	if hidden := metaString(res.Meta, MetaSuppressed); hidden != "" {
		ev.Hidden = msg("sandbox.ev.hidden_failure", "Failure", hidden)
	}
	p.add(ev)
	return res, nil
}

func resultNarration(r *mcp.CallToolResult, edited bool) Msg {
	prefix := "sandbox.ev.result_"
	if edited {
		prefix = "sandbox.ev.edited_result_"
	}
	switch {
	case r.IsError:
		return msg(prefix+"error", "Text", excerpt(textOf(r), 120))
	default:
		if n, ok := resultCountOf(r); ok && n == 0 {
			return msg(prefix+"empty", "Text", excerpt(textOf(r), 120))
		}
		return msg(prefix+"ok", "Text", excerpt(textOf(r), 120))
	}
}

func (p *player) wait(actor Actor, d time.Duration, say Msg) {
	p.clock += d
	p.simNow.Store(int64(p.clock))
	p.add(Event{Actor: actor, Kind: KindWait, WaitMs: d.Milliseconds(), Say: say})
}

// waitFor is the structured agent's pause before retry n: exponential
// backoff with jitter, but never shorter than the retry_after_ms the error
// asked for (Retry-After semantics).
func (p *player) waitFor(retries int, res *mcp.CallToolResult) (time.Duration, Msg) {
	d := backoff(retries, p.rng)
	secs := fmt.Sprintf("%.2f", d.Seconds())
	if ra := retryAfterOf(res); ra > d {
		return ra, msg("sandbox.ev.wait_retry_after", "Seconds", fmt.Sprintf("%.2f", ra.Seconds()), "Backoff", secs)
	}
	return d, msg("sandbox.ev.wait", "Seconds", secs)
}

func (p *player) decide(actor Actor, d decision, should Move, options []Move) {
	p.decisions++
	p.add(Event{Actor: actor, Kind: KindDecision, Decision: p.decisions, Move: d.move, Should: should,
		Options: options, Rule: d.rule}) // no Say: the move itself is the narration, stated once
}

// stepOutcome is how one step ended: a result to use, or an escalation.
type stepOutcome struct {
	res       *mcp.CallToolResult
	escalated bool
	packet    map[string]any
	// collected are the results kept from partial answers on the way; on
	// success they are already merged into res.
	collected []any
	retries   int // resends and missing-part retries made
}

// pursue gets one step done the agent's way: call, decide, and retry,
// correct, switch principal or escalate until the step is resolved.
func (p *player) pursue(ctx context.Context, actor Actor, c *conn, step Step, escalateTo string) (stepOutcome, error) {
	args := step.Args
	principal := ""
	retries, attempts, totalRetries := 0, 0, 0
	reformulated, switched := false, false
	var collected []any
	for {
		res, err := p.call(ctx, actor, c, step.Tool, args, principal)
		if err != nil {
			return stepOutcome{}, err
		}
		attempts++
		o := observation{res: res, retries: retries, reformulated: reformulated, switched: switched,
			altPrincipal: p.sc.AltPrincipal, fixed: fixArguments(step.Tool, args, descriptionOf(res)),
			missing: missingPart(step, args, res)}
		should := structuredDecide(o)
		d := should
		if p.run.Agent == Naive {
			d = naiveDecide(o)
		}
		var pause time.Duration
		var pauseSay Msg
		if (d.move == MoveRetry || d.move == MoveRetryMissing) && p.run.Agent == Structured {
			pause, pauseSay = p.waitFor(retries, res)
			d.rule.Args["Wait"] = fmt.Sprintf("%.2f", pause.Seconds())
		}
		p.decide(actor, d, should.move, AgentMoves)
		switch d.move {
		case MoveAccept:
			if len(collected) > 0 {
				res = mergeResults(collected, res)
			}
			return stepOutcome{res: res, collected: collected, retries: totalRetries}, nil
		case MoveRetry, MoveRetryMissing:
			if pause > 0 {
				p.wait(actor, pause, pauseSay)
			}
			if d.move == MoveRetryMissing {
				collected = append(collected, partialsOf(res)...)
				args = o.missing
			}
			retries++
			totalRetries++
		case MoveReformulate:
			args, reformulated, retries = o.fixed, true, 0
		case MoveSwitch:
			principal, switched, retries = p.sc.AltPrincipal, true, 0
		default:
			if p.run.Agent == Structured {
				collected = append(collected, partialsOf(res)...)
			}
			return stepOutcome{res: res, escalated: true, collected: collected, retries: totalRetries,
				packet: p.packet(escalateTo, step, args, principal, res, attempts, collected)}, nil
		}
	}
}

// missingPart is the call that fetches only what a partial result lacks:
// the same search from the first missing source on. nil when the result has
// no partial results or the tool has no way to ask for a part.
func missingPart(step Step, args map[string]any, res *mcp.CallToolResult) map[string]any {
	got := len(partialsOf(res))
	if step.Tool != "search_sources" || !res.IsError || got == 0 {
		return nil
	}
	n, _ := args["max_sources"].(float64)
	if v, ok := args["max_sources"].(int); ok {
		n = float64(v)
	}
	off, _ := args["offset"].(float64)
	if v, ok := args["offset"].(int); ok {
		off = float64(v)
	}
	if float64(got) >= n {
		return nil
	}
	return map[string]any{"query": args["query"], "offset": off + float64(got), "max_sources": n - float64(got)}
}

func partialsOf(r *mcp.CallToolResult) []any {
	if m, ok := r.StructuredContent.(map[string]any); ok && r.IsError {
		pr, _ := m["partial_results"].([]any)
		return pr
	}
	return nil
}

// mergeResults is the answer the agent builds from the partial results it
// kept and the result of the call that fetched the rest.
func mergeResults(collected []any, last *mcp.CallToolResult) *mcp.CallToolResult {
	all := append([]any{}, collected...)
	if m, ok := last.StructuredContent.(map[string]any); ok {
		rs, _ := m["results"].([]any)
		all = append(all, rs...)
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%d sources: %d kept from the partial results, %d fetched after the wait.", len(all), len(collected), len(all)-len(collected))}},
		StructuredContent: map[string]any{"resultCount": float64(len(all)), "results": all},
	}
}

// packet is what an escalation hands over. The structured agent passes on
// everything the error carried, and all the partial results it kept; the
// naive agent only has the text.
func (p *player) packet(to string, step Step, args map[string]any, principal string, res *mcp.CallToolResult, attempts int, collected []any) map[string]any {
	if p.run.Agent == Naive {
		return map[string]any{"escalate_to": to, "summary": "The tool keeps failing.", "last_text": textOf(res), "attempts": attempts}
	}
	pk := map[string]any{"escalate_to": to, "tool": step.Tool, "arguments": args, "attempts": attempts}
	if principal != "" {
		pk["principal"] = principal
	}
	if m, ok := res.StructuredContent.(map[string]any); ok && res.IsError {
		for _, k := range []string{"errorCategory", "isRetryable", "description", "attempted_query", "retry_after_ms", "partial_results", "alternatives"} {
			if v, ok := m[k]; ok {
				pk[k] = v
			}
		}
	}
	if len(collected) > 0 {
		pk["partial_results"] = collected
		pk["attempted_query"] = fmt.Sprint(step.Args["query"])
		pk["original_arguments"] = step.Args
	}
	if _, ok := pk["errorCategory"]; !ok {
		pk["last_text"] = textOf(res)
	}
	return pk
}

func jsonOf(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return indent(b)
}

func (p *player) playSingle(ctx context.Context) error {
	p.add(Event{Actor: ActorAgent, Kind: KindTask, Say: msg("sandbox.scenario." + p.sc.ID + ".task")})
	c, err := p.connect(ctx, ActorAgent)
	if err != nil {
		return err
	}
	defer c.cs.Close()
	for i, step := range p.sc.Steps {
		out, err := p.pursue(ctx, ActorAgent, c, step, "human")
		if err != nil {
			return err
		}
		if out.escalated {
			p.add(Event{Actor: ActorAgent, Kind: KindOutcome, Outcome: OutcomeEscalation, JSON: jsonOf(out.packet), Say: p.escalationSay(out)})
			return nil
		}
		if i == len(p.sc.Steps)-1 {
			say := msg("sandbox.outcome.answer", "Text", textOf(out.res))
			if n, ok := resultCountOf(out.res); ok && n == 0 {
				say = msg("sandbox.outcome.not_found", "Text", textOf(out.res))
			}
			if p.run.Agent == Naive && out.retries > 0 {
				say = msg("sandbox.outcome.lucky", "Text", textOf(out.res), "Retries", out.retries)
			}
			p.add(Event{Actor: ActorAgent, Kind: KindOutcome, Outcome: OutcomeAnswer, JSON: jsonOf(out.res.StructuredContent), Say: say})
		}
	}
	return nil
}

// escalationSay narrates an escalation by what the packet can tell a person.
func (p *player) escalationSay(out stepOutcome) Msg {
	category, _ := out.packet["errorCategory"].(string)
	switch {
	case p.run.Agent == Naive:
		return msg("sandbox.outcome.escalation_bare")
	case category == "":
		return msg("sandbox.outcome.escalation_blind")
	case category == string(examsim.Validation):
		return msg("sandbox.outcome.ask_person")
	case category == string(examsim.Transient):
		return msg("sandbox.outcome.escalation_exhausted", "Max", MaxRetries)
	}
	return msg("sandbox.outcome.escalation", "Category", category)
}

// playMulti is the coordinator and its research subagent: the subagent
// recovers from what it can on its own and reports the rest, with
// attempted_query and partial_results; the coordinator decides what to do
// with the report, and asks again later for only what is missing.
func (p *player) playMulti(ctx context.Context) error {
	p.add(Event{Actor: ActorCoordinator, Kind: KindTask, Say: msg("sandbox.scenario." + p.sc.ID + ".task")})
	brief := map[string]any{"task": "research for a customer briefing"}
	for _, s := range p.sc.Steps {
		brief[s.Tool] = s.Args
	}
	p.add(Event{Actor: ActorCoordinator, Kind: KindDelegate, JSON: jsonOf(brief), Say: msg("sandbox.ev.delegate")})
	c, err := p.connect(ctx, ActorSubagent)
	if err != nil {
		return err
	}
	defer c.cs.Close()

	findings, unresolved, lastText, err := p.subagentResearch(ctx, c)
	if err != nil {
		return err
	}
	report := p.subagentReport(findings, unresolved, lastText)
	d := p.coordinatorDecision(report, unresolved)
	return p.coordinatorOutcome(ctx, c, d, findings, unresolved)
}

// subagentResearch has the subagent pursue every step; it returns what it
// found by tool, the packets of the steps it escalated, and the text of
// the last of those.
func (p *player) subagentResearch(ctx context.Context, c *conn) (findings map[string]any, unresolved []map[string]any, lastText string, err error) {
	findings = map[string]any{}
	for _, step := range p.sc.Steps {
		out, err := p.pursue(ctx, ActorSubagent, c, step, "coordinator")
		if err != nil {
			return nil, nil, "", err
		}
		if out.escalated {
			unresolved = append(unresolved, out.packet)
			lastText = textOf(out.res)
			continue
		}
		findings[step.Tool] = out.res.StructuredContent
	}
	return findings, unresolved, lastText, nil
}

// subagentReport is the subagent's report to the coordinator: complete,
// partial with what is unresolved, or (the naive agent) a bare failure.
func (p *player) subagentReport(findings map[string]any, unresolved []map[string]any, lastText string) map[string]any {
	var report map[string]any
	switch {
	case len(unresolved) == 0:
		report = map[string]any{"status": "complete", "findings": findings}
		p.add(Event{Actor: ActorSubagent, Kind: KindReport, JSON: jsonOf(report), Say: msg("sandbox.ev.report_complete")})
	case p.run.Agent == Naive:
		report = map[string]any{"status": "failed", "message": lastText}
		p.add(Event{Actor: ActorSubagent, Kind: KindReport, JSON: jsonOf(report), Say: msg("sandbox.ev.report_failed")})
	default:
		report = map[string]any{"status": "partial", "findings": findings, "unresolved": unresolved}
		p.add(Event{Actor: ActorSubagent, Kind: KindReport, JSON: jsonOf(report),
			Say: msg("sandbox.ev.report_partial", "Count", len(unresolved))})
	}
	return report
}

// coordinatorDecision records the coordinator's move, and the one the
// lessons call for, and returns the move made.
func (p *player) coordinatorDecision(report map[string]any, unresolved []map[string]any) decision {
	should := decision{MoveAccept, msg("sandbox.rule.coord_complete")}
	if len(unresolved) > 0 {
		should = decision{MoveAnnotate, msg("sandbox.rule.coord_annotate")}
	}
	d := should
	if p.run.Agent == Naive && report["status"] == "failed" {
		d = decision{MoveAbort, msg("sandbox.rule.coord_abort")}
	}
	p.decide(ActorCoordinator, d, should.move, append([]Move{MoveAccept}, CoordinatorMoves...))
	return d
}

// coordinatorOutcome plays out the coordinator's move: give up, draft
// with the gaps marked and follow them up, or answer with the findings.
func (p *player) coordinatorOutcome(ctx context.Context, c *conn, d decision, findings map[string]any, unresolved []map[string]any) error {
	switch d.move {
	case MoveAbort:
		p.add(Event{Actor: ActorCoordinator, Kind: KindOutcome, Outcome: OutcomeGiveUp, Say: msg("sandbox.outcome.abort")})
	case MoveAnnotate:
		gaps := p.annotate(findings, unresolved)
		draft := map[string]any{"status": "answered with gaps marked", "findings": findings, "gaps": gaps}
		p.add(Event{Actor: ActorCoordinator, Kind: KindReport, JSON: jsonOf(draft), Say: msg("sandbox.ev.draft_with_gaps", "Count", len(gaps))})
		still, err := p.followUp(ctx, c, findings, unresolved)
		if err != nil {
			return err
		}
		answer := map[string]any{"status": "complete", "findings": findings}
		say := msg("sandbox.outcome.filled_gaps")
		if len(still) > 0 {
			answer = map[string]any{"status": "answered with gaps marked", "findings": findings, "gaps": p.annotate(findings, still)}
			say = msg("sandbox.outcome.annotated", "Count", len(still))
		}
		p.add(Event{Actor: ActorCoordinator, Kind: KindOutcome, Outcome: OutcomeAnswer, JSON: jsonOf(answer), Say: say})
	default:
		say := msg("sandbox.outcome.complete")
		ev := Event{Actor: ActorCoordinator, Kind: KindOutcome, Outcome: OutcomeAnswer, JSON: jsonOf(findings), Say: say}
		if p.sc.Silent {
			ev.Say, ev.Wrong = msg("sandbox.outcome.silent_wrong"), true
		}
		p.add(ev)
	}
	return nil
}

// annotate marks each gap in the findings with what was tried and what to
// do next, and keeps the partial results in the findings.
func (p *player) annotate(findings map[string]any, unresolved []map[string]any) []map[string]any {
	gaps := make([]map[string]any, 0, len(unresolved))
	for _, u := range unresolved {
		g := map[string]any{"tool": u["tool"], "arguments": u["arguments"]}
		for _, k := range []string{"errorCategory", "description", "attempted_query", "alternatives", "last_text"} {
			if v, ok := u[k]; ok {
				g[k] = v
			}
		}
		if pr, ok := u["partial_results"].([]any); ok {
			g["partial_results_used"] = len(pr)
			findings[fmt.Sprint(u["tool"])+" (partial)"] = pr
		}
		gaps = append(gaps, g)
	}
	return gaps
}

// FollowUpPause is how long the coordinator lets pass before it asks the
// subagent again for only what is missing: long enough for a shared quota
// to come back, short enough for the briefing to be useful.
const FollowUpPause = LiveWindow

// followUp sends the subagent back for only the missing part of each
// retryable gap, after FollowUpPause, and merges what it brings into the
// findings. It returns the gaps that are still open.
func (p *player) followUp(ctx context.Context, c *conn, findings map[string]any, unresolved []map[string]any) ([]map[string]any, error) {
	var still []map[string]any
	waited := false
	for _, u := range unresolved {
		args, _ := u["arguments"].(map[string]any)
		retryable, _ := u["isRetryable"].(bool)
		if !retryable || args == nil {
			still = append(still, u)
			continue
		}
		if !waited {
			p.wait(ActorCoordinator, FollowUpPause, msg("sandbox.ev.wait_follow_up", "Seconds", fmt.Sprintf("%.0f", FollowUpPause.Seconds())))
			waited = true
		}
		tool := fmt.Sprint(u["tool"])
		p.add(Event{Actor: ActorCoordinator, Kind: KindDelegate, JSON: jsonOf(map[string]any{"task": "fetch only the missing part", tool: args}),
			Say: msg("sandbox.ev.delegate_missing")})
		out, err := p.pursue(ctx, ActorSubagent, c, Step{Tool: tool, Args: args}, "coordinator")
		if err != nil {
			return nil, err
		}
		if out.escalated {
			still = append(still, out.packet)
			continue
		}
		kept, _ := u["partial_results"].([]any)
		merged := mergeResults(kept, out.res)
		delete(findings, tool+" (partial)")
		findings[tool] = merged.StructuredContent
	}
	return still, nil
}
