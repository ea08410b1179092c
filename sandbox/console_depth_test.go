package sandbox

import (
	"context"
	"strings"
	"testing"
	"time"
)

// nested is a JSON value nested depth deep: {"a":{"a":…1…}}.
func nested(depth int) string {
	return strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)
}

// TestConsoleDeepNestingIsAValidationErrorAndTheSessionLives sends
// arguments, and then _meta, nested a thousand deep (about 5 KB): each comes
// back as the tool's validation error, as any bad argument does, and the
// console session goes on working.
func TestConsoleDeepNestingIsAValidationErrorAndTheSessionLives(t *testing.T) {
	con := New().Console()
	ctx := context.Background()
	id, _, err := con.Session(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, args, meta string }{
		{"arguments", `{"order_id": "#12345", "x": ` + nested(1000) + `}`, ""},
		{"_meta", `{"order_id": "#12345"}`, `{"x": ` + nested(1000) + `}`},
		{"arguments as an array", strings.Repeat("[", 1000) + strings.Repeat("]", 1000), ""},
	} {
		cc, err := con.Call(ctx, id, "lookup_order", c.args, c.meta)
		if err != nil || !cc.IsError || cc.Category != "validation" || !cc.NotSent {
			t.Fatalf("%s nested 1000 deep: %+v, %v; want the tool's validation error, not sent", c.name, cc, err)
		}
		if !strings.Contains(string(cc.ToolResult), "nested too deep") || !strings.Contains(string(cc.Request), `"tools/call"`) {
			t.Errorf("%s nested 1000 deep: request %.200s, tool_result %.300s", c.name, cc.Request, cc.ToolResult)
		}
		after, err := con.Call(ctx, id, "lookup_order", `{"order_id": "#12345"}`, "")
		if err != nil || after.IsError {
			t.Errorf("after %s nested 1000 deep, a good call: %+v, %v; want it to succeed in the same session", c.name, after, err)
		}
	}
	if cc, err := con.Call(ctx, id, "lookup_order", `{"order_id": "#12345", "x": `+nested(20)+`}`, ""); err != nil || cc.Category != "validation" {
		t.Errorf("arguments nested within the bound: %+v, %v; want them to reach the tool (an unknown property: validation)", cc, err)
	}
}

// TestDeepArgumentsAreAValidationError: over /mcp too, the tool itself
// refuses arguments nested past MaxArgumentDepth with its validation error.
func TestDeepArgumentsAreAValidationError(t *testing.T) {
	_, terr := decodeArgs("lookup_order", []byte(`{"order_id": `+nested(MaxArgumentDepth)+`}`), lookupOrderTool().specs)
	if terr == nil || terr.Envelope.ErrorCategory != "validation" || !strings.Contains(terr.Envelope.Description, "at most 32") {
		t.Errorf("arguments nested %d deep: %+v; want a validation error naming the bound", MaxArgumentDepth+1, terr)
	}
	if _, terr := decodeArgs("lookup_order", []byte(`{"order_id": "#1[{"}`), lookupOrderTool().specs); terr != nil {
		t.Errorf("brackets inside a string are not nesting: %+v", terr)
	}
}

// TestConsoleEvictionIsToldToItsOwner fills the console to its bound and
// one more: the least recently used session is closed, and Evicted says so
// (once), so its owner can be told rather than silently starting afresh.
func TestConsoleEvictionIsToldToItsOwner(t *testing.T) {
	sb := New()
	clock := newFakeClock()
	con := sb.Console()
	con.now = clock.Now
	ctx := context.Background()
	first, _, err := con.Session(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	idle, _, _ := con.Session(ctx, "")
	con.Close(idle) // the "new session" button: not an eviction
	for i := 0; i < MaxConsoleSessions; i++ {
		clock.Advance(time.Millisecond)
		if _, _, err := con.Session(ctx, ""); err != nil {
			t.Fatal(err)
		}
	}
	if n := con.Len(); n != MaxConsoleSessions {
		t.Errorf("%d console sessions kept; want the bound, %d", n, MaxConsoleSessions)
	}
	if !con.Evicted(first) {
		t.Error("the least recently used session was closed to make room, but Evicted does not say so")
	}
	if con.Evicted(first) || con.Evicted(idle) {
		t.Error("Evicted should say it once, and only of a session closed to make room")
	}
}
