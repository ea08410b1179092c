package sandbox

import (
	"context"
	"fmt"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestOneSessionHammeredConcurrently is the production crash of issue 11:
// many tools/call requests at once in ONE session, all touching that
// session's slow.example counters. Before the fix this died with "fatal
// error: concurrent map writes" (and the race detector flagged it).
func TestOneSessionHammeredConcurrently(t *testing.T) {
	sb := New()
	srv := httptest.NewServer(sb.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "hammer", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL, DisableStandaloneSSE: true}, &mcp.ClientSessionOptions{ProtocolVersion: ProtocolVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	const workers, perWorker, emails = 64, 12, 5
	var wg sync.WaitGroup
	errs := make(chan error, workers*perWorker)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < perWorker; i++ {
				email := fmt.Sprintf("user%d@slow.example", (w+i)%emails)
				if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "lookup_customer", Arguments: map[string]any{"email": email}}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	// The session survived and still counts per email: a new email times out first.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "lookup_customer", Arguments: map[string]any{"email": "fresh@slow.example"}})
	if err != nil || !res.IsError {
		t.Fatalf("after the hammering, a fresh slow.example email should time out first: %v %v", res, err)
	}
}
