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
	cs := httpClient(t, srv.URL)

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

// TestOneSessionTouchesEveryMapConcurrently: one session, many calls at
// once to every tool with per-session state (slow, flaky and down customer
// databases, both news feeds, refunds over and under the limit), so the
// race detector sees every map of sessionState written in parallel. The
// counts that need no clock are checked exactly.
func TestOneSessionTouchesEveryMapConcurrently(t *testing.T) {
	srv := httptest.NewServer(New().HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	ctx := context.Background()
	cs := httpClient(t, srv.URL)

	calls := []mcp.CallToolParams{
		{Name: "lookup_customer", Arguments: map[string]any{"email": "sam.ng@flaky.example"}},
		{Name: "lookup_customer", Arguments: map[string]any{"email": "jo.lee@slow.example"}},
		{Name: "lookup_customer", Arguments: map[string]any{"email": "pat.kim@down.example"}},
		{Name: "search_sources", Arguments: map[string]any{"query": "EU battery regulation", "max_sources": 2}},
		{Name: "search_sources", Arguments: map[string]any{"query": "live EU battery regulation", "max_sources": 2}},
		{Name: "issue_refund", Arguments: map[string]any{"order_id": "#48213", "amount_gbp": 10}},  // £89.99: eight fit
		{Name: "issue_refund", Arguments: map[string]any{"order_id": "#12345", "amount_gbp": 600}}, // over the limit: remembered as refused
	}
	const rounds = 40
	var mu sync.Mutex
	ok := map[string]int{}
	var wg sync.WaitGroup
	errs := make(chan error, rounds*len(calls))
	for r := 0; r < rounds; r++ {
		for i := range calls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := calls[i]
				res, err := cs.CallTool(ctx, &p)
				if err != nil {
					errs <- fmt.Errorf("%s %v: %w", p.Name, p.Arguments, err)
					return
				}
				if !res.IsError {
					mu.Lock()
					ok[fmt.Sprint(i)]++
					mu.Unlock()
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if got := ok["0"]; got != rounds/2 {
		t.Errorf("%d of %d flaky.example calls reached the healthy replica, want every other one: %d", got, rounds, rounds/2)
	}
	if got := ok["5"]; got != 8 {
		t.Errorf("%d refunds of £10 on the £89.99 order went through, want exactly 8", got)
	}
	if got := ok["6"]; got != 0 {
		t.Errorf("%d refunds of £600 went through, want none", got)
	}
}
