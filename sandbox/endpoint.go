package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOptions configures the Streamable HTTP endpoint.
type HTTPOptions struct {
	// MaxRequestBytes bounds a request body (default 64 KiB).
	MaxRequestBytes int64
	// AllowAnyHost turns off the SDK's refusal of non-local Host headers on
	// requests that arrive on a loopback address (DNS-rebinding protection).
	// Only for a deployment behind a proxy that checks Host itself.
	AllowAnyHost bool
	// AllowedOrigins are the browser origins (scheme://host[:port]) allowed
	// besides the endpoint's own. A request with no Origin, as every non-browser
	// client sends, is always allowed.
	AllowedOrigins []string
	// AdmitSession, if set, is asked before a request opens a new session; it
	// returns false and how long to wait to refuse it (a per-client limit).
	AdmitSession func(*http.Request) (ok bool, wait time.Duration)
	// Scheme, if set, says which scheme the browser used ("http" or
	// "https"), as a trusted TLS proxy reports it; by default https when
	// the request came over TLS. The endpoint's own origin is scheme://Host.
	Scheme func(*http.Request) string
	// EventStore, if set, keeps each stream's events so that a client can
	// resume a stream the server closed mid-call (SEP-1699). The sandbox
	// itself never closes a stream early and leaves it nil.
	EventStore mcp.EventStore
}

// HTTPHandler returns the sandbox's Streamable HTTP endpoint: the SDK's
// handler, behind the checks of the 2025-11-25 transport that the SDK does
// not make (Origin, a required Mcp-Session-Id, -32601 for unknown methods).
func (sb *Sandbox) HTTPHandler(opts HTTPOptions) http.Handler {
	return newEndpoint(sb.server, sb.sessions.limits.Idle, opts)
}

// ServeServer puts any MCP server behind the same endpoint as the sandbox's
// own, with the same session cap: the conformance fixture server uses it so
// that the suite tests the transport examsim wrote, not a stand-in.
func ServeServer(server *mcp.Server, limits SessionLimits, opts HTTPOptions) http.Handler {
	table := newSessionTable(limits)
	server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
				table.touch(ss)
			}
			return next(ctx, method, req)
		}
	})
	return newEndpoint(server, table.limits.Idle, opts)
}

func newEndpoint(server *mcp.Server, idle time.Duration, opts HTTPOptions) http.Handler {
	if opts.MaxRequestBytes <= 0 {
		opts.MaxRequestBytes = 64 << 10
	}
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{
		MaxRequestBodyBytes:        opts.MaxRequestBytes,
		DisableLocalhostProtection: opts.AllowAnyHost,
		// The SDK's own timer closes idle sessions even when no other
		// session is active to sweep them.
		SessionTimeout: idle,
		EventStore:     opts.EventStore,
	})
	return &endpoint{sdk: sdk, opts: opts}
}

type endpoint struct {
	sdk  http.Handler
	opts HTTPOptions
}

// JSON-RPC error codes the endpoint answers with itself.
const (
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
)

// serverMethods are the methods the SDK's server handles (serverMethodInfos
// in go-sdk mcp/server.go); the SDK's transport answers any other with a
// plain-text HTTP 400. TestKnownMethodsMatchTheSDK keeps the list honest.
var serverMethods = []string{
	"initialize", "ping", "tools/list", "tools/call", "prompts/list", "prompts/get",
	"resources/list", "resources/templates/list", "resources/read", "resources/subscribe", "resources/unsubscribe",
	"logging/setLevel", "completion/complete", "server/discover", "subscriptions/listen",
	"notifications/initialized", "notifications/cancelled", "notifications/progress", "notifications/roots/list_changed",
}

// sessionIDHeader is the Streamable HTTP transport's session header.
const sessionIDHeader = "Mcp-Session-Id"

func (e *endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !e.originAllowed(r) {
		writeRPCError(w, http.StatusForbidden, nil, codeInvalidRequest,
			fmt.Sprintf("Forbidden: Origin %q is not allowed to use this MCP endpoint", r.Header.Get("Origin")))
		return
	}
	if r.Method != http.MethodPost {
		e.sdk.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, e.opts.MaxRequestBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, fmt.Sprintf("request body exceeds %d bytes", tooBig.Limit), http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "could not read the request body", http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	msgs, ok := peekMessages(body)
	if !ok { // not JSON-RPC: the SDK answers with its parse error
		e.sdk.ServeHTTP(w, r)
		return
	}
	initialize := false
	for _, m := range msgs {
		if m.Method == "" { // a response to a server request
			continue
		}
		if !slices.Contains(serverMethods, m.Method) {
			status := http.StatusOK
			if m.ID == nil { // a notification: the transport says 4xx, with an id-less error
				status = http.StatusBadRequest
			}
			writeRPCError(w, status, m.ID, codeMethodNotFound, fmt.Sprintf("Method not found: %q", m.Method))
			return
		}
		initialize = initialize || m.Method == "initialize"
	}
	if r.Header.Get(sessionIDHeader) == "" {
		if !initialize {
			writeRPCError(w, http.StatusBadRequest, firstID(msgs), codeInvalidRequest,
				"Bad Request: this request needs the Mcp-Session-Id header from the initialize response; send initialize first")
			return
		}
		if e.opts.AdmitSession != nil {
			if ok, wait := e.opts.AdmitSession(r); !ok {
				secs := max(1, int((wait+time.Second-1)/time.Second))
				w.Header().Set("Retry-After", strconv.Itoa(secs))
				writeRPCError(w, http.StatusTooManyRequests, firstID(msgs), codeInvalidRequest,
					fmt.Sprintf("Too many new MCP sessions from this address: wait %d s and initialize again, or keep using the session you have", secs))
				return
			}
		}
	}
	e.sdk.ServeHTTP(w, r)
}

// originAllowed follows the transport's rule: validate Origin on every
// request; none (a non-browser client), the endpoint's own (same scheme and
// host) or a configured one.
func (e *endpoint) originAllowed(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	if slices.ContainsFunc(e.opts.AllowedOrigins, func(o string) bool { return strings.EqualFold(strings.TrimRight(o, "/"), origin) }) {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return strings.EqualFold(u.Scheme, e.scheme(r)) && strings.EqualFold(u.Host, r.Host)
}

// scheme is the scheme the browser reached the endpoint with.
func (e *endpoint) scheme(r *http.Request) string {
	if e.opts.Scheme != nil {
		return e.opts.Scheme(r)
	}
	if r.TLS != nil {
		return "https"
	}
	return "http"
}

// rpcMessage is as much of a JSON-RPC message as the checks need.
type rpcMessage struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method"`
}

// peekMessages parses a body as one JSON-RPC message or a batch of them.
func peekMessages(body []byte) ([]rpcMessage, bool) {
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '[' {
		var batch []rpcMessage
		if json.Unmarshal(body, &batch) != nil || len(batch) == 0 {
			return nil, false
		}
		return batch, true
	}
	var m rpcMessage
	if json.Unmarshal(body, &m) != nil {
		return nil, false
	}
	if string(m.ID) == "null" {
		m.ID = nil
	}
	return []rpcMessage{m}, true
}

func firstID(msgs []rpcMessage) json.RawMessage {
	for _, m := range msgs {
		if m.ID != nil {
			return m.ID
		}
	}
	return nil
}

// writeRPCError answers with a JSON-RPC error object; without an id (a
// notification, or no request to answer) it carries none, as the transport
// allows for error bodies.
func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, code int, message string) {
	resp := map[string]any{"jsonrpc": "2.0", "error": map[string]any{"code": code, "message": message}}
	if id != nil {
		resp["id"] = id
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(resp)
}

// ParseOrigins reads a comma-separated list of origins for
// HTTPOptions.AllowedOrigins, refusing anything that is not scheme://host[:port].
func ParseOrigins(list string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(list, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		u, err := url.Parse(f)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.TrimRight(u.Path, "/") != "" || u.RawQuery != "" {
			return nil, fmt.Errorf("%q is not an origin: write scheme://host[:port], such as https://tools.example.org", f)
		}
		out = append(out, u.Scheme+"://"+u.Host)
	}
	return out, nil
}
