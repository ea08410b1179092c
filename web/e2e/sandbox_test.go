package e2e

import (
	"os"
	"strings"
	"testing"

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
