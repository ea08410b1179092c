package e2e

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/examsim/examsim/web/webtest"
)

// TestReviewSessionWalksDueCards answers five questions wrongly, lets a day
// pass, and walks the review session of the five due cards to "done for
// today", in Vietnamese and in Polish: "n of 5" on each card, options in a
// shuffled order whose letters still store the right option, leaving half
// way and resuming, and every page through axe.
func TestReviewSessionWalksDueCards(t *testing.T) {
	app := webtest.Start(t)
	b := browser(t)
	qs := app.Bank.Questions[:5]
	for _, lang := range []string{"vi", "pl"} {
		t.Run(lang, func(t *testing.T) {
			ctx := tab(t, b)
			do(t, ctx, "open home", chromedp.Navigate(app.URL+"/?lang="+lang), chromedp.WaitVisible(chromedp.CSS(`html[lang=`+lang+`] [data-testid=home-title]`)))
			for _, q := range qs {
				wrong := "A"
				if q.Answer == "A" {
					wrong = "B"
				}
				do(t, ctx, "answer "+q.ID+" wrongly", chromedp.Navigate(app.URL+"/practice/"+q.ID),
					chromedp.Click(chromedp.CSS(`[data-testid=option-`+wrong+`] input`)),
					chromedp.Click(chromedp.CSS(`[data-testid=submit]`)),
					chromedp.WaitVisible(chromedp.CSS(`[data-testid=result]`)))
			}
			app.Clock.Advance(25 * time.Hour)

			do(t, ctx, "open the review queue", chromedp.Navigate(app.URL+"/review"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=review-start]`)))
			checkAccessibility(t, ctx, lang+" review queue")
			do(t, ctx, "start the session", chromedp.Click(chromedp.CSS(`[data-testid=review-start]`)))
			shuffled := 0
			for n := 1; n <= 5; n++ {
				do(t, ctx, "wait for card "+strconv.Itoa(n), chromedp.WaitVisible(chromedp.CSS(`[data-testid=review-card][data-position="`+strconv.Itoa(n)+`"][data-total="5"]`)))
				progress := text(t, ctx, `[data-testid=review-progress]`)
				if !strings.Contains(progress, strconv.Itoa(n)) || !strings.Contains(progress, "5") {
					t.Errorf("card %d says %q", n, progress)
				}
				qid, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(`[data-testid=review-card]`), "data-question-id"))
				if err != nil {
					t.Fatal(err)
				}
				q, _ := app.Bank.Question(qid.Value)
				order, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll("[data-own]")].map(e => e.dataset.own).join("")`))
				if err != nil {
					t.Fatal(err)
				}
				if order != strings.Join(letters(len(order)), "") {
					shuffled++
				}
				if n == 1 {
					checkAccessibility(t, ctx, lang+" review card")
				}
				do(t, ctx, "answer card "+strconv.Itoa(n)+" rightly",
					chromedp.Click(chromedp.CSS(`[data-own="`+q.Answer+`"] input`)),
					chromedp.Click(chromedp.CSS(`[data-testid=submit]`)),
					chromedp.WaitVisible(chromedp.CSS(`[data-testid=result]`)))
				verdict, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(`[data-testid=verdict]`), "data-correct"))
				if err != nil || verdict.Value != "true" {
					t.Errorf("card %d (%s): the right option, shown in order %s, was stored as %+v", n, qid.Value, order, verdict)
				}
				if n == 1 {
					checkAccessibility(t, ctx, lang+" review result")
				}
				if n == 2 { // leave, and come back to where it was
					do(t, ctx, "leave for /me", chromedp.Navigate(app.URL+"/me"), chromedp.WaitVisible(chromedp.CSS(`main`)))
					do(t, ctx, "come back", chromedp.Navigate(app.URL+"/review"),
						chromedp.Click(chromedp.CSS(`[data-testid=review-resume-link]`)))
					continue
				}
				do(t, ctx, "next card", chromedp.Click(chromedp.CSS(`[data-testid=review-next]`)))
			}
			do(t, ctx, "done for today", chromedp.WaitVisible(chromedp.CSS(`[data-testid=review-done]`)))
			if next := text(t, ctx, `[data-testid=review-next-due]`); !strings.ContainsAny(next, "0123456789") {
				t.Errorf("done page does not say when the next cards are due: %q", next)
			}
			checkAccessibility(t, ctx, lang+" review done")
			if shuffled == 0 {
				t.Error("no card showed its options out of bank order")
			}
		})
	}
}

// letters returns A, B, … for n options.
func letters(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = string(rune('A' + i))
	}
	return out
}
