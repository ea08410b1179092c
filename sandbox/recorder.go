package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recorder wraps a client transport and keeps every JSON-RPC message as it
// crossed the wire, so a trace shows what was really sent and received.
type recorder struct {
	inner mcp.Transport

	mu       sync.Mutex
	sent     []jsonrpc.Message
	received []jsonrpc.Message
}

func (r *recorder) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := r.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &recordingConn{Connection: c, r: r}, nil
}

type recordingConn struct {
	mcp.Connection
	r *recorder
}

func (c *recordingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if err == nil {
		c.r.mu.Lock()
		c.r.received = append(c.r.received, m)
		c.r.mu.Unlock()
	}
	return m, err
}

func (c *recordingConn) Write(ctx context.Context, m jsonrpc.Message) error {
	c.r.mu.Lock()
	c.r.sent = append(c.r.sent, m)
	c.r.mu.Unlock()
	return c.Connection.Write(ctx, m)
}

// exchange returns the last request with this method and the response to
// it, each as indented wire JSON.
func (r *recorder) exchange(method string) (req, resp json.RawMessage) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var id jsonrpc.ID
	for i := len(r.sent) - 1; i >= 0; i-- {
		if q, ok := r.sent[i].(*jsonrpc.Request); ok && q.Method == method {
			req, id = wire(q), q.ID
			break
		}
	}
	for i := len(r.received) - 1; i >= 0; i-- {
		if s, ok := r.received[i].(*jsonrpc.Response); ok && s.ID == id {
			resp = wire(s)
			break
		}
	}
	return req, resp
}

func wire(m jsonrpc.Message) json.RawMessage {
	b, err := jsonrpc.EncodeMessage(m)
	if err != nil {
		return nil
	}
	return indent(b)
}

// indent formats JSON with two-space indentation; invalid JSON comes back
// as it was.
func indent(b []byte) json.RawMessage {
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return b
	}
	return out.Bytes()
}

// clear forgets the messages recorded so far.
func (r *recorder) clear() {
	r.mu.Lock()
	r.sent, r.received = nil, nil
	r.mu.Unlock()
}
