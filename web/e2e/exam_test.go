package e2e

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/examsim/examsim/web/webtest"
)

// TestExamInVietnamese takes a five-question exam in Vietnamese, explains
// one answer, flags question 3, checks the review screen, submits, and
// checks the results and the progress charts, with axe-core on each page.
func TestExamInVietnamese(t *testing.T) {
	app := webtest.Start(t)
	ctx := tab(t, browser(t))

	do(t, ctx, "open the exam setup in Vietnamese", chromedp.Navigate(app.URL+"/exam?lang=vi"),
		chromedp.WaitVisible(chromedp.CSS(`html[lang=vi] [data-testid=exam-setup]`)))
	if got := text(t, ctx, `[data-testid=pass-mark-help]`); !strings.Contains(got, "Có thể thay đổi") {
		t.Errorf("the pass mark help is not in Vietnamese or does not say it is configurable: %q", got)
	}
	checkAccessibility(t, ctx, "vi exam setup")

	do(t, ctx, "start a five-question exam",
		chromedp.SetValue(chromedp.CSS(`input[name=count]`), "5"),
		chromedp.SetValue(chromedp.CSS(`input[name=minutes]`), "10"),
		chromedp.Click(chromedp.CSS(`[data-testid=start-exam]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=exam-question][data-position="1"]`)))
	if got := text(t, ctx, `[data-remaining]`); !regexp.MustCompile(`^\d{1,2}:\d\d$`).MatchString(got) {
		t.Errorf("the clock shows %q", got)
	}
	checkAccessibility(t, ctx, "vi exam question")

	for n := 1; n <= 5; n++ {
		pos := strconv.Itoa(n)
		steps := []chromedp.Action[chromedp.Void]{
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=exam-question][data-position="` + pos + `"]`)),
			chromedp.Click(chromedp.CSS(`[data-testid=option-A] input`)),
		}
		if n == 1 {
			steps = append(steps, chromedp.SendKeys(chromedp.CSS(`[data-testid=explanation]`), explanations["vi"]))
		}
		if n == 3 {
			steps = append(steps, chromedp.Click(chromedp.CSS(`[data-testid=flag]`)))
		}
		steps = append(steps, chromedp.Click(chromedp.CSS(`[data-testid=exam-next]`)))
		do(t, ctx, "answer question "+pos, steps...)
	}

	do(t, ctx, "reach the review screen", chromedp.WaitVisible(chromedp.CSS(`[data-testid=exam-review-screen]`)))
	flagged, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`[...document.querySelectorAll("[data-testid=flagged-item]")].map(e => e.dataset.position)`))
	if err != nil || len(flagged) != 1 || flagged[0] != "3" {
		t.Errorf("flagged on the review screen: %v %v", flagged, err)
	}
	if got := text(t, ctx, `[data-testid=unanswered] p`); got != "Câu nào cũng đã có câu trả lời." {
		t.Errorf("unanswered section says %q", got)
	}
	class, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(`[data-testid=palette-3]`), "class"))
	if err != nil || !strings.Contains(class.Value, "flagged") {
		t.Errorf("palette entry 3 is not marked flagged: %+v %v", class, err)
	}
	if got := text(t, ctx, `[data-testid=answered-summary]`); !strings.Contains(got, "5/5") {
		t.Errorf("answered summary: %q", got)
	}
	checkAccessibility(t, ctx, "vi exam review")

	do(t, ctx, "submit", chromedp.Click(chromedp.CSS(`[data-testid=submit-exam]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=exam-results]`)))
	verdict := text(t, ctx, `[data-testid=exam-verdict]`)
	if !strings.HasPrefix(verdict, "Đạt") && !strings.HasPrefix(verdict, "Chưa đạt") {
		t.Errorf("verdict not in Vietnamese: %q", verdict)
	}
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=result-item]").length`))
	if err != nil || n != 5 {
		t.Errorf("%d questions reviewed, want 5 (%v)", n, err)
	}
	flag, err := chromedp.Run(ctx, chromedp.Evaluate[int](
		`document.querySelectorAll("[data-testid=result-item][data-position='3'] [data-testid=item-flagged]").length`))
	if err != nil || flag != 1 {
		t.Errorf("question 3 is not shown as flagged in the results: %d %v", flag, err)
	}
	band, err := chromedp.Run(ctx, chromedp.Evaluate[int](
		`document.querySelectorAll("[data-testid=result-item][data-position='1'] [data-testid=item-band]").length`))
	if err != nil || band != 1 {
		t.Errorf("the explained answer has no band: %d %v", band, err)
	}
	wrong, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=result-item][data-correct=false]").length`))
	if err != nil {
		t.Fatal(err)
	}
	checkAccessibility(t, ctx, "vi exam results")

	do(t, ctx, "show only the wrong ones", chromedp.Click(chromedp.CSS(`[data-testid=show-wrong]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=show-wrong][aria-current=page]`)))
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=result-item]").length`))
	if err != nil || shown != wrong {
		t.Errorf("only wrong: %d shown, %d wrong (%v)", shown, wrong, err)
	}

	do(t, ctx, "open my progress", chromedp.Click(chromedp.CSS(`[data-testid=nav-me]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=chart-accuracy]`)))
	exams, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=attempt-row][data-source=exam]").length`))
	if err != nil || exams != 5 {
		t.Errorf("/me lists %d exam answers, want 5 (%v)", exams, err)
	}
	checkAccessibility(t, ctx, "vi me with charts")
}
