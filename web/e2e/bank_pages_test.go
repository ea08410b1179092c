package e2e

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web/webtest"
)

// TestBankPagesPassAxeEverywhere holds the pages that show bank content to
// no axe-core violation of any impact, in every language, on a desktop
// (1280×800) and a phone (360×640): the Learn page, a practice question
// with a JSON code block, exam results and the item statistics page.
func TestBankPagesPassAxeEverywhere(t *testing.T) {
	app := webtest.Start(t)
	ctx := context.Background()
	if _, err := store.NewLearnerService(app.DB).CreateAccount(ctx, "ines_axe", "password-ines", examsim.RoleInstructor); err != nil {
		t.Fatal(err)
	}
	// Answers for the statistics page: six learners on the first questions.
	ls, as := store.NewLearnerService(app.DB), store.NewAttemptService(app.DB)
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for i := range 6 {
		l, err := ls.CreateAnonymous(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range app.Bank.Questions[:3] {
			at = at.Add(time.Minute)
			choice := q.Text(examsim.English).Options[i%len(q.Text(examsim.English).Options)].Letter
			if err := as.CreateAttempt(ctx, &examsim.Attempt{LearnerID: l.ID, Answer: examsim.Answer{QuestionID: q.ID, Lang: examsim.English, Choice: choice, Correct: choice == q.Answer, Verdict: examsim.Verdict{Misconceptions: []string{}, RubricVersion: 1}}, CreatedAt: at}); err != nil {
				t.Fatal(err)
			}
		}
	}
	jsonQuestion := ""
	for _, q := range app.Bank.Questions {
		if strings.Contains(q.Text(examsim.English).StemMarkdown, "```json") {
			jsonQuestion = q.ID
			break
		}
	}
	if jsonQuestion == "" {
		t.Fatal("no question with a JSON code block in its scenario")
	}

	b := browser(t)
	// A tab per viewport and language, each within tab's time limit.
	login := func() context.Context {
		tctx := tab(t, b)
		do(t, tctx, "log in as an instructor", chromedp.Navigate(app.URL+"/login?lang=en"),
			chromedp.SendKeys(chromedp.CSS(`#username`), "ines_axe"),
			chromedp.SendKeys(chromedp.CSS(`#password`), "password-ines"),
			chromedp.Submit(chromedp.CSS(`[data-testid=login-form]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=nav-class]`)))
		return tctx
	}
	tctx := login()
	do(t, tctx, "start a five-question exam", chromedp.Navigate(app.URL+"/exam"),
		chromedp.SetValue(chromedp.CSS(`input[name=count]`), "5"),
		chromedp.Click(chromedp.CSS(`[data-testid=start-exam]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=exam-question][data-position="1"]`)))
	for n := 1; n <= 5; n++ {
		do(t, tctx, "answer question "+strconv.Itoa(n),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=exam-question][data-position="`+strconv.Itoa(n)+`"]`)),
			chromedp.Click(chromedp.CSS(`[data-testid=option-A] input`)),
			chromedp.Click(chromedp.CSS(`[data-testid=exam-next]`)))
	}
	do(t, tctx, "submit", chromedp.WaitVisible(chromedp.CSS(`[data-testid=exam-review-screen]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=submit-exam]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=exam-results]`)))
	loc, err := chromedp.Run(tctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	results := strings.TrimPrefix(loc, app.URL)

	pages := []struct{ name, path, ready string }{
		{"learn", "/learn/structured-errors", "main h1"},
		{"practice " + jsonQuestion, "/practice/" + jsonQuestion, "[data-testid=question]"},
		{"exam results", results, "[data-testid=exam-results]"},
		{"item statistics", "/class/items", "[data-testid=item-table]"},
	}
	for _, vp := range []struct {
		name          string
		width, height int64
		mobile        bool
	}{{"desktop", 1280, 800, false}, {"phone", 360, 640, true}} {
		opts := []chromedp.EmulateViewportOption{}
		if vp.mobile {
			opts = append(opts, chromedp.EmulateMobile)
		}
		for _, lang := range []string{"en", "vi", "pl", "th"} {
			tctx := login()
			do(t, tctx, vp.name+" viewport", chromedp.EmulateViewport(vp.width, vp.height, opts...))
			for _, p := range pages {
				where := vp.name + " " + lang + " " + p.name
				sep := "?"
				if strings.Contains(p.path, "?") {
					sep = "&"
				}
				do(t, tctx, "open "+where, chromedp.Navigate(app.URL+p.path+sep+"lang="+lang),
					chromedp.WaitVisible(chromedp.CSS(`html[lang=`+lang+`] `+p.ready)))
				checkNoViolations(t, tctx, where)
			}
		}
	}
}
