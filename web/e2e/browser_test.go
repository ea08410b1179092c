// Package e2e drives the app in a real Chromium through chromedp, as a learner
// would, and checks every page it visits with axe-core.
package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/examsim/examsim/web/webtest"
)

// browser starts a headless Chromium for the test; it is skipped, or the
// package fails in CI, when Chromium or the npm packages are missing
// (TestMain).
func browser(t *testing.T) context.Context {
	t.Helper()
	requirePrerequisites(t)
	path := chromiumPath(exec.LookPath)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox, // root in a container has no user namespace for the sandbox
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil { // start the browser without a deadline
		t.Fatalf("starting chromium: %v", err)
	}
	return ctx
}

// tab opens a tab with its own cookies, as a separate learner would have.
func tab(t *testing.T, browserCtx context.Context) context.Context {
	ctx, cancel := chromedp.NewContext(browserCtx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancelTimeout)
	return ctx
}

var axeSource = func() string {
	b, err := os.ReadFile("node_modules/axe-core/axe.min.js")
	if err != nil {
		return ""
	}
	return string(b)
}()

type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target []any `json:"target"`
	} `json:"nodes"`
}

// checkAccessibility injects axe-core into the page and fails on any serious
// or critical violation.
func checkAccessibility(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	reportViolations(t, where, axeViolations(t, ctx, where), func(impact string) bool { return impact == "serious" || impact == "critical" })
}

// checkNoViolations fails on a violation of any impact, minor included:
// the bar for the pages that show bank content.
func checkNoViolations(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	reportViolations(t, where, axeViolations(t, ctx, where), func(string) bool { return true })
}

// axeViolations runs axe-core on the page.
func axeViolations(t *testing.T, ctx context.Context, where string) []axeViolation {
	t.Helper()
	if axeSource == "" {
		t.Fatal("axe-core is missing: run `make e2e-deps` (npm ci in web/e2e)")
	}
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](axeSource)); err != nil {
		t.Fatalf("%s: injecting axe-core: %v", where, err)
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](
		`axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations)`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: running axe-core: %v", where, err)
	}
	var violations []axeViolation
	if err := json.Unmarshal(raw, &violations); err != nil {
		t.Fatalf("%s: axe result: %v", where, err)
	}
	return violations
}

func reportViolations(t *testing.T, where string, violations []axeViolation, counts func(impact string) bool) {
	t.Helper()
	for _, v := range violations {
		if counts(v.Impact) {
			var targets []string
			for _, n := range v.Nodes {
				targets = append(targets, fmt.Sprint(n.Target...))
			}
			t.Errorf("%s: accessibility %s (%s): %s at %s", where, v.ID, v.Impact, v.Help, strings.Join(targets, ", "))
		}
	}
}

func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("text of %s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

func do(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Fatalf("%s (at %s): %v", what, loc, err)
	}
}

// explanations a learner might write for empty-result-retry-loop.
var explanations = map[string]string{
	"th": "tool ทำงานสำเร็จแต่ไม่พบลูกค้า เป็น valid empty result ไม่ใช่ access failure การ retry ไม่ช่วยอะไร",
	"pl": "Narzędzie zadziałało i nie znalazło klienta, to prawidłowy pusty wynik, a nie błąd dostępu; ponawianie nic nie da.",
	"vi": "Tool đã chạy thành công nhưng không tìm thấy khách hàng, đây là valid empty result chứ không phải access failure, retry không giúp gì.",
	"en": "The lookup succeeded and found no customer: a valid empty result, not an access failure, so retrying won't help.",
}

// TestLearnerPath walks the whole path in Thai and in Polish: switch
// language, answer, explain, see the score, find the attempt on /me.
func TestLearnerPath(t *testing.T) {
	app := webtest.Start(t)
	b := browser(t)
	const qid = "empty-result-retry-loop"
	q, ok := app.Bank.Question(qid)
	if !ok {
		t.Fatalf("no question %s", qid)
	}
	for _, lang := range []string{"th", "pl"} {
		t.Run(lang, func(t *testing.T) {
			ctx := tab(t, b)
			do(t, ctx, "open home in English", chromedp.Navigate(app.URL+"/?lang=en"),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=home-title]`)))
			english := text(t, ctx, `[data-testid=home-title]`)
			do(t, ctx, "switch language", chromedp.Click(chromedp.CSS(`[data-testid=lang-`+lang+`]`)),
				chromedp.WaitVisible(chromedp.CSS(`html[lang=`+lang+`] [data-testid=home-title]`)))
			if got := text(t, ctx, `[data-testid=home-title]`); got == english {
				t.Errorf("home title not translated: %q", got)
			}
			checkAccessibility(t, ctx, lang+" home")

			do(t, ctx, "start practice", chromedp.Click(chromedp.CSS(`[data-testid=start-practice]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=question]`)))
			checkAccessibility(t, ctx, lang+" question")

			do(t, ctx, "open the question from the list", chromedp.Click(chromedp.CSS(`[data-testid=nav-practice]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=question-list]`)),
				chromedp.Click(chromedp.CSS(`a[href="/practice/`+qid+`"]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-question-id=`+qid+`]`)))
			do(t, ctx, "answer and explain",
				chromedp.Click(chromedp.CSS(`[data-testid=option-`+q.Answer+`] input`)),
				chromedp.SendKeys(chromedp.CSS(`[data-testid=explanation]`), explanations[lang]),
				chromedp.Click(chromedp.CSS(`[data-testid=submit]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=result]`)))
			verdict, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(`[data-testid=verdict]`), "data-correct"))
			if err != nil || verdict.Value != "true" {
				t.Errorf("verdict = %+v, %v", verdict, err)
			}
			if s := text(t, ctx, `[data-testid=score-value]`); !strings.Contains(s, "/100") {
				t.Errorf("score = %q", s)
			}
			n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=concept-hit], [data-testid=concept-miss], [data-testid=looked-for]").length`))
			if err != nil || n == 0 {
				t.Errorf("no per-concept feedback: %d %v", n, err)
			}
			checkAccessibility(t, ctx, lang+" result")

			do(t, ctx, "open my progress", chromedp.Click(chromedp.CSS(`[data-testid=nav-me]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=attempt-row][data-question-id=`+qid+`]`)))
			if got := text(t, ctx, `[data-testid=attempt-row]`); !strings.Contains(got, []string{explanations[lang][:20]}[0][:10]) {
				t.Errorf("attempt row lacks the explanation: %q", got)
			}
			checkAccessibility(t, ctx, lang+" me")

			// A 360-pixel phone: nothing may need sideways scrolling.
			do(t, ctx, "phone viewport", chromedp.EmulateViewport(360, 740, chromedp.EmulateMobile),
				chromedp.Navigate(app.URL+"/practice/"+qid), chromedp.WaitVisible(chromedp.CSS(`[data-testid=question]`)))
			width, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`))
			if err != nil || width > 360 {
				t.Errorf("on a 360px screen the page is %dpx wide (%v)", width, err)
			}
		})
	}
}
