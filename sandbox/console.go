package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/examsim/examsim"
)

// The tool console lets a learner call the sandbox's tools by hand, in one
// persistent MCP session held on the server (so it works without
// JavaScript): a real SDK client over the in-memory transport, with every
// JSON-RPC message recorded.

// ConsoleLimits bound the console sessions the server keeps.
const (
	MaxConsoleSessions  = 500
	ConsoleIdle         = 30 * time.Minute
	MaxConsoleHistory   = 50
	MaxConsoleArgsBytes = 8 << 10
)

// ToolInfo is what the console shows about a tool.
type ToolInfo struct {
	Name, Title, Description  string
	InputSchema, OutputSchema json.RawMessage // indented
	ExampleArgs               string          // indented JSON
	ExampleMeta               string
}

// Tools describes the sandbox's tools in ToolNames order.
func (sb *Sandbox) Tools() []ToolInfo {
	var out []ToolInfo
	for _, t := range sb.tools() {
		ex := map[string]json.RawMessage{}
		for _, s := range t.specs {
			if s.required {
				ex[s.name] = json.RawMessage(s.example)
			}
		}
		args, _ := json.MarshalIndent(ex, "", "  ")
		meta := "{}"
		if t.tool.Name == "get_financial_records" {
			meta = "{\n  \"" + MetaPrincipal + "\": \"" + FinancePrincipal + "\"\n}"
		}
		in, _ := t.tool.InputSchema.(json.RawMessage)
		outSchema, _ := t.tool.OutputSchema.(json.RawMessage)
		out = append(out, ToolInfo{Name: t.tool.Name, Title: t.tool.Title, Description: t.tool.Description,
			InputSchema: indent(in), OutputSchema: indent(outSchema), ExampleArgs: string(args), ExampleMeta: meta})
	}
	return out
}

// ConsoleCall is one call made in the console, as it crossed the wire.
type ConsoleCall struct {
	N          int
	Tool       string
	Request    json.RawMessage // the JSON-RPC request
	Response   json.RawMessage // the JSON-RPC response
	ToolResult json.RawMessage // the same result as a Messages API tool_result block
	IsError    bool
	Category   string // errorCategory, if any
	// NotSent marks a call the console answered for the tool, with the
	// tool's own validation error, without sending it: arguments nested
	// deeper than MaxArgumentDepth, which could end the session.
	NotSent bool
}

// Console is the console sessions, least recently used first to go.
type Console struct {
	sb  *Sandbox
	now func() time.Time

	mu       sync.Mutex
	sessions map[string]*consoleSession
	// evicted remembers sessions closed to make room for others, so their
	// owner is told rather than silently given a new one; at most
	// MaxConsoleSessions ids, about 24 bytes each.
	evicted map[string]bool
}

type consoleSession struct {
	mu       sync.Mutex // one call at a time per console session
	cs       *mcp.ClientSession
	rec      *recorder
	history  []ConsoleCall
	calls    int
	lastUsed time.Time // guarded by Console.mu
}

// Console returns the sandbox's tool console, made on first use.
func (sb *Sandbox) Console() *Console {
	sb.consoleOnce.Do(func() {
		sb.console = &Console{sb: sb, now: time.Now, sessions: map[string]*consoleSession{}, evicted: map[string]bool{}}
	})
	return sb.console
}

// Session returns the console session with this id, or opens a new one when
// id is "" or unknown (expired or evicted); fresh says which.
func (c *Console) Session(ctx context.Context, id string) (newID string, fresh bool, err error) {
	return c.SessionAdmitted(ctx, id, nil)
}

// SessionAdmitted is Session that asks admit, when not nil, before opening
// a new session: its error (a rate limit per client) is returned as is.
func (c *Console) SessionAdmitted(ctx context.Context, id string, admit func() error) (newID string, fresh bool, err error) {
	c.mu.Lock()
	if s, ok := c.sessions[id]; ok && id != "" {
		s.lastUsed = c.now()
		c.mu.Unlock()
		return id, false, nil
	}
	c.mu.Unlock()
	if admit != nil {
		if err := admit(); err != nil {
			return "", false, err
		}
	}
	id, err = c.open(ctx)
	return id, true, err
}

// Evicted reports whether the session id was closed to make room for
// others (rather than left idle, or never opened), and forgets it: the
// owner is told once.
func (c *Console) Evicted(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	was := c.evicted[id]
	delete(c.evicted, id)
	return was
}

func (c *Console) open(ctx context.Context) (string, error) {
	clientT, serverT := mcp.NewInMemoryTransports()
	// The server session outlives this request: it ends when the console
	// session is closed, not when the page is served.
	if _, err := c.sb.server.Connect(context.WithoutCancel(ctx), serverT, nil); err != nil {
		return "", err
	}
	rec := &recorder{inner: clientT}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "examsim-console", Version: "1.0.0"}, nil).
		Connect(context.WithoutCancel(ctx), rec, &mcp.ClientSessionOptions{ProtocolVersion: ProtocolVersion})
	if err != nil {
		return "", err
	}
	b := make([]byte, 18)
	_, _ = rand.Read(b)
	id := base64.RawURLEncoding.EncodeToString(b)
	now := c.now()
	var evict []*consoleSession
	c.mu.Lock()
	for k, s := range c.sessions { // idle ones first
		if now.Sub(s.lastUsed) >= ConsoleIdle {
			evict = append(evict, s)
			delete(c.sessions, k)
		}
	}
	for len(c.sessions) >= MaxConsoleSessions { // then the least recently used
		oldK := ""
		for k, s := range c.sessions {
			if oldK == "" || s.lastUsed.Before(c.sessions[oldK].lastUsed) {
				oldK = k
			}
		}
		evict = append(evict, c.sessions[oldK])
		delete(c.sessions, oldK)
		for k := range c.evicted { // bounded: forget one at random
			if len(c.evicted) < MaxConsoleSessions {
				break
			}
			delete(c.evicted, k)
		}
		c.evicted[oldK] = true
	}
	c.sessions[id] = &consoleSession{cs: cs, rec: rec, lastUsed: now}
	c.mu.Unlock()
	for _, s := range evict {
		_ = s.cs.Close()
	}
	return id, nil
}

// Close ends a console session (the "new session" button).
func (c *Console) Close(id string) {
	c.mu.Lock()
	s, ok := c.sessions[id]
	delete(c.sessions, id)
	c.mu.Unlock()
	if ok {
		_ = s.cs.Close()
	}
}

// Len is how many console sessions are kept.
func (c *Console) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.sessions)
}

// History returns the calls made in a console session, newest last.
func (c *Console) History(id string) []ConsoleCall {
	c.mu.Lock()
	s, ok := c.sessions[id]
	c.mu.Unlock()
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]ConsoleCall(nil), s.history...)
}

// Call calls tool with the arguments and _meta as the learner wrote them
// (JSON text). Arguments go on the wire as written, so a non-object reaches
// the tool and comes back as its validation error; _meta must be an object.
func (c *Console) Call(ctx context.Context, id, tool, argsText, metaText string) (*ConsoleCall, error) {
	if !validTool(tool) {
		return nil, examsim.E(examsim.EINVALID, "sandbox.console.unknown_tool", "Tool", tool)
	}
	if len(argsText) > MaxConsoleArgsBytes || len(metaText) > MaxConsoleArgsBytes {
		return nil, examsim.E(examsim.EINVALID, "sandbox.console.too_large", "Max", MaxConsoleArgsBytes/1024)
	}
	var args any
	if err := json.Unmarshal([]byte(orEmpty(argsText, "{}")), &args); err != nil {
		return nil, argsError([]byte(argsText))
	}
	var meta map[string]any
	if err := json.Unmarshal([]byte(orEmpty(metaText, "{}")), &meta); err != nil || meta == nil {
		return nil, examsim.E(examsim.EINVALID, "sandbox.console.bad_meta")
	}
	c.mu.Lock()
	s, ok := c.sessions[id]
	if ok {
		s.lastUsed = c.now()
	}
	c.mu.Unlock()
	if !ok {
		return nil, examsim.E(examsim.ENOTFOUND, "sandbox.console.expired")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if terr := c.sb.tooDeep(tool, argsText, metaText); terr != nil {
		s.calls++
		res := errorResult(terr, false)
		return s.keep(ConsoleCall{N: s.calls, Tool: tool, NotSent: true, IsError: true, Category: string(examsim.Validation),
			Request: unsentRequest(s.calls, tool, argsText, metaText), Response: unsentResponse(s.calls, res),
			ToolResult: toolResultBlock(s.calls, res)}), nil
	}
	params := &mcp.CallToolParams{Name: tool, Arguments: args}
	if len(meta) > 0 {
		params.Meta = mcp.Meta(meta)
	}
	res, err := s.cs.CallTool(ctx, params)
	if err != nil {
		return nil, &examsim.Error{Code: examsim.EINTERNAL, MessageID: "error.internal", Detail: "sandbox console: " + err.Error()}
	}
	s.calls++
	req, resp := s.rec.exchange("tools/call")
	s.rec.clear() // calls are one at a time: nothing older is needed again
	cc := ConsoleCall{N: s.calls, Tool: tool, Request: req, Response: resp, ToolResult: toolResultBlock(s.calls, res), IsError: res.IsError}
	if m, ok := res.StructuredContent.(map[string]any); ok && res.IsError {
		cc.Category, _ = m["errorCategory"].(string)
	}
	return s.keep(cc), nil
}

// keep adds a call to the session's history, which holds the last
// MaxConsoleHistory. The caller holds s.mu.
func (s *consoleSession) keep(cc ConsoleCall) *ConsoleCall {
	s.history = append(s.history, cc)
	if len(s.history) > MaxConsoleHistory {
		s.history = s.history[len(s.history)-MaxConsoleHistory:]
	}
	return &cc
}

// tooDeep is the tool's validation error for arguments or _meta nested
// deeper than MaxArgumentDepth, nil for any others.
func (sb *Sandbox) tooDeep(tool, argsText, metaText string) *toolError {
	for _, t := range sb.tools() {
		if t.tool.Name != tool {
			continue
		}
		if terr := tooDeep(tool, "arguments", json.RawMessage(argsText), t.specs); terr != nil {
			return terr
		}
		return tooDeep(tool, "_meta", json.RawMessage(metaText), t.specs)
	}
	return nil
}

// unsentRequest is the JSON-RPC request a call would have been, for the
// console to show beside its answer.
func unsentRequest(n int, tool, argsText, metaText string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": map[string]any{
		"name": tool, "arguments": json.RawMessage(orEmpty(argsText, "{}")), "_meta": json.RawMessage(orEmpty(metaText, "{}"))}})
	return indent(b)
}

// unsentResponse is the JSON-RPC response carrying the console's answer.
func unsentResponse(n int, res *mcp.CallToolResult) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": n, "result": res})
	return indent(b)
}

func validTool(name string) bool {
	for _, n := range ToolNames {
		if n == name {
			return true
		}
	}
	return false
}

func orEmpty(s, def string) string {
	for _, r := range s {
		if r != ' ' && r != '\n' && r != '\r' && r != '\t' {
			return s
		}
	}
	return def
}

// argsError says where arguments that are not JSON go wrong, by line and
// column rather than with encoding/json's English text, which would leak
// into a localised message (review m10).
func argsError(src []byte) *examsim.Error {
	problem := syntaxCheck(src)
	switch {
	case problem == nil: // not reached: the caller saw the parser fail
		return examsim.E(examsim.EINVALID, "sandbox.console.bad_args", "Line", 1, "Column", 1)
	case problem.Message == "sandbox.edit.truncated":
		return examsim.E(examsim.EINVALID, "sandbox.console.args_truncated")
	default:
		return examsim.E(examsim.EINVALID, "sandbox.console.bad_args", "Line", problem.Line, "Column", problem.Column)
	}
}
