package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/examsim/examsim"
)

func TestConsoleKeepsOneSessionAndANewOneStartsAfresh(t *testing.T) {
	sb := New()
	clock := newFakeClock()
	sb.sessions.now = clock.Now
	con := sb.Console()
	ctx := context.Background()
	id, fresh, err := con.Session(ctx, "")
	if err != nil || !fresh || id == "" {
		t.Fatalf("open: %q %v %v", id, fresh, err)
	}
	call := func(id string) *ConsoleCall {
		t.Helper()
		cc, err := con.Call(ctx, id, "lookup_customer", `{"email": "jo.lee@slow.example"}`, `{}`)
		if err != nil {
			t.Fatal(err)
		}
		return cc
	}
	if !call(id).IsError {
		t.Fatal("the first slow.example call should time out")
	}
	clock.Advance(SlowOutage)
	second := call(id)
	if second.IsError || second.N != 2 {
		t.Errorf("in the same console session the call after the wait should succeed: %+v", second)
	}
	var wire struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
	}
	if json.Unmarshal(second.Request, &wire); wire.JSONRPC != "2.0" || wire.Method != "tools/call" {
		t.Errorf("the raw request should be the JSON-RPC tools/call: %s", second.Request)
	}
	if !strings.Contains(string(second.Response), `"isError": false`) || !strings.Contains(string(second.ToolResult), `"tool_result"`) {
		t.Errorf("response %s / tool_result %s", second.Response, second.ToolResult)
	}
	if h := con.History(id); len(h) != 2 {
		t.Errorf("history has %d calls, want 2", len(h))
	}
	// Again with the same id: the same session.
	if again, fresh, _ := con.Session(ctx, id); again != id || fresh {
		t.Errorf("a known id should keep its session: %q fresh=%v", again, fresh)
	}
	// The new-session button: state starts over.
	con.Close(id)
	if _, err := con.Call(ctx, id, "lookup_order", `{"order_id": "#12345"}`, ""); examsim.ErrorCode(err) != examsim.ENOTFOUND {
		t.Errorf("a closed console session should be not found: %v", err)
	}
	id2, fresh, _ := con.Session(ctx, id)
	if !fresh || id2 == id || !call(id2).IsError || len(con.History(id2)) != 1 {
		t.Error("a new console session starts its own outage and history")
	}
}

func TestConsoleSendsArgumentsAsWrittenAndChecksMeta(t *testing.T) {
	con := New().Console()
	ctx := context.Background()
	id, _, _ := con.Session(ctx, "")
	cc, err := con.Call(ctx, id, "lookup_order", `"#12345"`, "")
	if err != nil || !cc.IsError || cc.Category != "validation" {
		t.Errorf("non-object arguments should reach the tool and come back as its validation error: %+v %v", cc, err)
	}
	if cc, err := con.Call(ctx, id, "get_financial_records", `{"customer_id": "C-2077"}`, `{"examsim/principal": "finance-analyst"}`); err != nil || cc.IsError {
		t.Errorf("_meta should set the principal: %+v %v", cc, err)
	}
	for _, bad := range []struct{ tool, args, meta, msg string }{
		{"lookup_order", `{"order_id": `, "", "sandbox.console.args_truncated"},
		{"lookup_order", `{"order_id" 1}`, "", "sandbox.console.bad_args"},
		{"lookup_order", `{}`, `[1]`, "sandbox.console.bad_meta"},
		{"drop_tables", `{}`, "", "sandbox.console.unknown_tool"},
		{"lookup_order", strings.Repeat(" ", MaxConsoleArgsBytes+1), "", "sandbox.console.too_large"},
	} {
		_, err := con.Call(ctx, id, bad.tool, bad.args, bad.meta)
		var e *examsim.Error
		if !errors.As(err, &e) || e.Code != examsim.EINVALID || e.MessageID != bad.msg {
			t.Errorf("%s %q %q: %v, want %s", bad.tool, bad.args, bad.meta, err, bad.msg)
		}
	}
}

func TestConsoleSessionConcurrentCalls(t *testing.T) {
	con := New().Console()
	ctx := context.Background()
	id, _, _ := con.Session(ctx, "")
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 5; j++ {
				if _, err := con.Call(ctx, id, "issue_refund", `{"order_id": "#12345", "amount_gbp": 10}`, ""); err != nil {
					t.Error(err)
					return
				}
				con.History(id)
			}
		}()
	}
	wg.Wait()
	refunded := 0
	for _, c := range con.History(id) {
		if !c.IsError {
			refunded++
		}
	}
	if h := con.History(id); len(h) != MaxConsoleHistory || h[len(h)-1].N != 80 {
		t.Errorf("history keeps the last %d of 80 calls, numbered: %d, last %d", MaxConsoleHistory, len(h), h[len(h)-1].N)
	}
	// 80 refunds of £10 on one order: calls 1 to 50 reach the £500 limit and
	// pass, 51 to 80 are refused, so the last 50 in the history hold 20 passes.
	if refunded != 20 {
		t.Errorf("refunds that passed among the last %d calls: %d, want 20", MaxConsoleHistory, refunded)
	}
}
