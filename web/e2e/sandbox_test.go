package e2e

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/examsim/examsim/web/webtest"
)

// TestSandboxEmptyResultBothAgents plays the lessons' story in a real
// browser: the empty customer lookup, streamed live to both agents side by
// side at 4x, with one prediction made before the structured agent's move.
func TestSandboxEmptyResultBothAgents(t *testing.T) {
	app := webtest.Start(t)
	ctx := tab(t, browser(t))
	do(t, ctx, "open the sandbox", chromedp.Navigate(app.URL+"/sandbox?lang=en"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=chooser]`)))
	checkAccessibility(t, ctx, "sandbox chooser")
	do(t, ctx, "choose the lessons' story", chromedp.Click(chromedp.CSS(`[data-testid=lesson-story]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=trace-naive] [data-player] [data-testid=play]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=trace-structured] [data-testid=ev-task]`)))

	// Predict the structured agent's move, play both at 4x.
	do(t, ctx, "set up the players",
		chromedp.Click(chromedp.CSS(`[data-testid=trace-structured] [data-testid=predict-toggle]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=trace-structured] [data-testid=speed-4]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=trace-naive] [data-testid=speed-4]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=trace-structured] [data-testid=play]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=trace-naive] [data-testid=play]`)))
	do(t, ctx, "see the prediction prompt",
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=trace-structured] [data-testid=predict-prompt] [data-testid=predict-accept]`)))
	// An agent's prompt offers the agent's moves, not the coordinator's.
	offered, err := chromedp.Run(ctx, chromedp.Evaluate[[]bool](`["predict-retry", "predict-abort"].map(id =>
		document.querySelector("[data-testid=trace-structured] [data-testid=predict-prompt] [data-testid=" + id + "]").offsetParent !== null)`))
	if err != nil || len(offered) != 2 || !offered[0] || offered[1] {
		t.Errorf("retry and abort offered: %v (%v), want [true false]", offered, err)
	}
	do(t, ctx, "predict the structured agent's move",
		chromedp.Click(chromedp.CSS(`[data-testid=trace-structured] [data-testid=predict-prompt] [data-testid=predict-accept]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=trace-structured] [data-testid=prediction-verdict][data-correct=true]`)))
	do(t, ctx, "play both to the end",
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=trace-structured] [data-testid=outcome]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=trace-naive] [data-testid=outcome]`)))

	structured := text(t, ctx, `[data-testid=trace-structured] [data-testid=outcome]`)
	naive := text(t, ctx, `[data-testid=trace-naive] [data-testid=outcome]`)
	if structured != "Answer" || naive != "Escalation" {
		t.Errorf("outcomes: structured %q, naive %q", structured, naive)
	}
	counts, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`[
		document.querySelectorAll("[data-testid=trace-structured] [data-testid=ev-request]").length,
		document.querySelectorAll("[data-testid=trace-naive] [data-testid=ev-request]").length,
		document.querySelectorAll("[data-testid=trace-naive] [data-testid=move][data-move=retry]").length,
		document.querySelectorAll("[data-testid=trace-naive] [data-testid=should]").length]`))
	if err != nil || len(counts) != 4 || counts[0] != 1 || counts[1] != 4 || counts[2] != 3 || counts[3] != 4 {
		t.Errorf("requests structured/naive, naive retries, policy notes = %v (%v); want [1 4 3 4]", counts, err)
	}
	if say := text(t, ctx, `[data-testid=trace-structured] [data-testid=ev-outcome] .ev-say`); !strings.Contains(say, "no such customer") {
		t.Errorf("structured outcome narration = %q", say)
	}
	if dir := os.Getenv("EXAMSIM_SCREENSHOTS"); dir != "" {
		shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err == nil {
			os.WriteFile(dir+"/sandbox-empty.png", shot, 0o644)
		}
	}
	checkAccessibility(t, ctx, "sandbox after playing")

	// The prediction is kept with the learner's other work.
	do(t, ctx, "open my progress", chromedp.Click(chromedp.CSS(`[data-testid=nav-me]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=prediction-row][data-scenario=empty][data-correct=true]`)))

	// A phone: the two traces stack and nothing scrolls sideways.
	do(t, ctx, "phone viewport", chromedp.EmulateViewport(360, 740, chromedp.EmulateMobile),
		chromedp.Navigate(app.URL+"/sandbox?scenario=multi&agent=both&lang=th"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=trace-naive] [data-testid=ev-task]`)))
	width, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`))
	if err != nil || width > 360 {
		t.Errorf("on a 360px screen the sandbox is %dpx wide (%v)", width, err)
	}
}

// TestSandboxConsoleInVietnameseAndThaiAndPartialResults uses the tool
// console in a real browser, in Vietnamese and in Thai: a call in one
// persistent session, the raw JSON-RPC with copy buttons, the history, a new
// session, a localized error; then it plays the partial-results scenario,
// where the structured agent keeps the six sources and fetches only the four
// missing ones while the naive agent loses them all.
func TestSandboxConsoleInVietnameseAndThaiAndPartialResults(t *testing.T) {
	app := webtest.Start(t)
	ctx := tab(t, browser(t))

	do(t, ctx, "open the console in Vietnamese", chromedp.Navigate(app.URL+"/sandbox?lang=vi"),
		chromedp.Click(chromedp.CSS(`[data-testid=console-link-top]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=console-form]`)))
	checkAccessibility(t, ctx, "console (vi)")
	do(t, ctx, "pick search_sources and ask for ten",
		chromedp.Click(chromedp.CSS(`[data-testid=console-tool-search_sources]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=console-tool][data-tool=search_sources]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=raw-json-toggle]`)),
		chromedp.SetValue(chromedp.CSS(`[data-testid=console-args]`), `{"query": "EU battery regulation", "max_sources": 10}`),
		chromedp.Click(chromedp.CSS(`[data-testid=console-call]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=console-result]`)))
	if cat, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("[data-testid=console-result]").dataset.category`)); err != nil || cat != "transient" {
		t.Errorf("ten sources: category %q (%v), want transient", cat, err)
	}
	if h := text(t, ctx, `#result-h`); !strings.Contains(h, "Lệnh gọi 1") {
		t.Errorf("result heading in Vietnamese: %q", h)
	}
	do(t, ctx, "call as the finance principal in the same session",
		chromedp.Click(chromedp.CSS(`[data-testid=console-tool-get_financial_records]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=console-tool][data-tool=get_financial_records]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=console-call-form]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=console-result][data-is-error=false]`)))
	counts, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`[
		document.querySelectorAll("[data-testid=history-item]").length,
		document.querySelectorAll("[data-testid=console-result] [data-testid=copy]").length,
		document.querySelectorAll("[data-testid=console-result] details[open]").length]`))
	if err != nil || len(counts) != 3 || counts[0] != 2 || counts[1] != 3 || counts[2] != 3 {
		t.Errorf("history items, copy buttons, open blocks = %v (%v); want [2 3 3]", counts, err)
	}
	if resp := text(t, ctx, `[data-testid=console-tool-result]`); !strings.Contains(resp, `"tool_result"`) {
		t.Errorf("the Messages API view: %q", resp)
	}
	checkAccessibility(t, ctx, "console with a result (vi)")
	do(t, ctx, "start a new session",
		chromedp.Click(chromedp.CSS(`[data-testid=console-new-session]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=console-new]`)))
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=history-item]").length`)); n != 0 {
		t.Errorf("a new session has no history, got %d items", n)
	}

	do(t, ctx, "the console in Thai, arguments that are not an object",
		chromedp.Navigate(app.URL+"/sandbox/console?tool=lookup_order&lang=th"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=console-form]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=raw-json-toggle]`)),
		chromedp.SetValue(chromedp.CSS(`[data-testid=console-args]`), `"#12345"`),
		chromedp.Click(chromedp.CSS(`[data-testid=console-call]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=console-result][data-category=validation]`)))
	do(t, ctx, "broken JSON in Thai",
		chromedp.Click(chromedp.CSS(`[data-testid=raw-json-toggle]`)),
		chromedp.SetValue(chromedp.CSS(`[data-testid=console-args]`), `{"order_id": `),
		chromedp.Click(chromedp.CSS(`[data-testid=console-call]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=console-error]`)))
	if msg := text(t, ctx, `[data-testid=console-error]`); !strings.Contains(msg, "ยังไม่ได้ส่งอะไรไป") {
		t.Errorf("the error should be in Thai and say nothing was sent: %q", msg)
	}
	checkAccessibility(t, ctx, "console error (th)")

	do(t, ctx, "play the partial-results scenario",
		chromedp.Navigate(app.URL+"/sandbox?scenario=partial&agent=both&lang=vi"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=trace-naive] [data-player] [data-testid=play]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=trace-structured] [data-testid=speed-4]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=trace-naive] [data-testid=speed-4]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=trace-structured] [data-testid=play]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=trace-naive] [data-testid=play]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=trace-structured] [data-testid=scoreboard]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=trace-naive] [data-testid=scoreboard]`)))
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[
		document.querySelector("[data-testid=trace-structured] [data-testid=outcome]").dataset.outcome,
		document.querySelector("[data-testid=trace-structured] [data-testid=scoreboard]").dataset.kept,
		String(document.querySelectorAll("[data-testid=trace-structured] [data-testid=move][data-move=retry_missing]").length),
		document.querySelector("[data-testid=trace-naive] [data-testid=outcome]").dataset.outcome,
		document.querySelector("[data-testid=trace-naive] [data-testid=scoreboard]").dataset.kept,
		document.querySelector("[data-testid=trace-naive] [data-testid=scoreboard]").dataset.wasted]`))
	if want := []string{"answer", "10", "1", "escalation", "0", "3"}; err != nil || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("structured outcome, kept, missing-only retries; naive outcome, kept, wasted = %v (%v), want %v", got, err, want)
	}
	checkAccessibility(t, ctx, "partial results played (vi)")
}

// TestSandboxConsoleRawRPCAndSchemaForm uses the console as an Inspector
// user would, in English and in Polish: tools/list as raw JSON-RPC from the
// browser, a call from the form built from lookup_customer's inputSchema,
// the lesson read as a resource, and (in English) the progress
// notifications of a slow.example call listed as they arrive.
func TestSandboxConsoleRawRPCAndSchemaForm(t *testing.T) {
	app := webtest.Start(t)
	ctx := tab(t, browser(t))
	waitText := func(sel, want string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](`(document.querySelector(`+"`"+sel+"`"+`)?.textContent || "").includes(`+"`"+want+"`"+`)`, chromedp.WithPollingTimeout(20*time.Second))
	}
	for _, lang := range []string{"en", "pl"} {
		do(t, ctx, lang+": open the console", chromedp.Navigate(app.URL+"/sandbox/console?tool=lookup_customer&lang="+lang),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=rpc-form]`)))
		do(t, ctx, lang+": tools/list as raw JSON-RPC",
			chromedp.SetValue(chromedp.CSS(`[data-testid=rpc-method]`), "tools/list"),
			chromedp.SetValue(chromedp.CSS(`[data-testid=rpc-params]`), "{}"),
			chromedp.Click(chromedp.CSS(`[data-testid=rpc-send]`)),
			waitText(`[data-testid=rpc-response]`, `"book_courier"`))
		if req := text(t, ctx, `[data-testid=rpc-request]`); !strings.Contains(req, `"method": "tools/list"`) {
			t.Errorf("%s: the raw request: %q", lang, req)
		}
		do(t, ctx, lang+": the lesson as a resource",
			chromedp.SetValue(chromedp.CSS(`[data-testid=rpc-method]`), "resources/read"),
			chromedp.SetValue(chromedp.CSS(`[data-testid=rpc-params]`), `{"uri": "examsim://lessons/structured-errors/`+lang+`"}`),
			chromedp.Click(chromedp.CSS(`[data-testid=rpc-send]`)),
			waitText(`[data-testid=rpc-response]`, `"mimeType": "text/markdown"`))
		checkAccessibility(t, ctx, "console raw JSON-RPC ("+lang+")")
		do(t, ctx, lang+": call lookup_customer from the schema form",
			chromedp.SetValue(chromedp.CSS(`[data-testid=schema-field-email]`), "a.nowak@example.com"),
			chromedp.Click(chromedp.CSS(`[data-testid=console-call-form]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=console-result][data-is-error=false]`)))
		if req := text(t, ctx, `[data-testid=console-request]`); !strings.Contains(req, `"email": "a.nowak@example.com"`) {
			t.Errorf("%s: the form's call: %q", lang, req)
		}
		do(t, ctx, lang+": the raw JSON is one click away",
			chromedp.Click(chromedp.CSS(`[data-testid=raw-json-toggle]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=console-args]`)))
		checkAccessibility(t, ctx, "console schema form with a result ("+lang+")")
	}
	do(t, ctx, "progress notifications while slow.example waits",
		chromedp.Navigate(app.URL+"/sandbox/console?lang=en"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=rpc-form]`)),
		chromedp.SetValue(chromedp.CSS(`[data-testid=rpc-method]`), "tools/call"),
		chromedp.SetValue(chromedp.CSS(`[data-testid=rpc-params]`), `{"name": "lookup_customer", "arguments": {"email": "jo.lee@slow.example"}, "_meta": {"progressToken": "p1"}}`),
		chromedp.Click(chromedp.CSS(`[data-testid=rpc-send]`)),
		// Notifications show while the call is still waiting: before its response.
		chromedp.Poll[chromedp.Void](`document.querySelectorAll("[data-testid=rpc-notification][data-method='notifications/progress']").length >= 2 && document.querySelector("[data-testid=rpc-response]").textContent === "…"`, chromedp.WithPollingTimeout(10*time.Second)),
		waitText(`[data-testid=rpc-response]`, `"isError": false`))
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=rpc-notification][data-method='notifications/progress']").length`))
	if err != nil || n < 5 {
		t.Errorf("want a progress notification every half second of the 4 s wait, got %d (%v)", n, err)
	}
	do(t, ctx, "book_courier without a postcode asks the user",
		chromedp.SetValue(chromedp.CSS(`[data-testid=rpc-params]`), `{"name": "book_courier", "arguments": {"order_id": "#12345", "street": "10 Downing Street", "city": "London"}}`),
		chromedp.Click(chromedp.CSS(`[data-testid=rpc-send]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=rpc-elicit-postcode]`)))
	checkAccessibility(t, ctx, "console elicitation form (en)")
	do(t, ctx, "answer with the postcode",
		chromedp.SetValue(chromedp.CSS(`[data-testid=rpc-elicit-postcode]`), "SW1A 2AA"),
		chromedp.Click(chromedp.CSS(`[data-testid=rpc-elicit-accept]`)),
		waitText(`[data-testid=rpc-response]`, `"status": "booked"`))
}
