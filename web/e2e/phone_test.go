package e2e

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/examsim/examsim/web/webtest"
)

// overflowing lists what sticks out of a 360-pixel page, for the message:
// elements whose right edge passes the viewport and that are not inside a
// box that scrolls sideways on purpose (a table-wrap).
const overflowing = `(() => {
	const w = document.documentElement.clientWidth, out = [];
	for (const el of document.body.querySelectorAll("*")) {
		const r = el.getBoundingClientRect();
		if (r.width === 0 || r.right <= w + 0.5) continue;
		let p = el.parentElement, clipped = false;
		while (p && p !== document.body) {
			const ox = getComputedStyle(p).overflowX;
			if (ox === "auto" || ox === "scroll" || ox === "hidden") { clipped = true; break; }
			p = p.parentElement;
		}
		if (clipped) continue;
		out.push(el.tagName.toLowerCase() + (el.className && typeof el.className === "string" ? "." + el.className.split(" ").join(".") : "") + " right=" + Math.round(r.right));
		if (out.length > 8) break;
	}
	return JSON.stringify({scroll: document.documentElement.scrollWidth, out});
})()`

// checkPhoneWidth fails when the page is wider than a 360-pixel phone.
func checkPhoneWidth(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](overflowing))
	if err != nil {
		t.Fatalf("%s: measuring: %v", where, err)
	}
	var got struct {
		Scroll int      `json:"scroll"`
		Out    []string `json:"out"`
	}
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	if got.Scroll > 360 || len(got.Out) > 0 {
		t.Errorf("%s: the page is %d px wide on a 360 px phone; sticking out: %s", where, got.Scroll, strings.Join(got.Out, ", "))
	}
}

// TestPhonePagesFit opens /me, an exam question, an exam's results and the
// lesson on a 360×640 phone in all four languages: nothing may need
// sideways scrolling (a wide table scrolls inside its own box), every page
// passes axe, chart labels are at least 11 px, and the lesson's contents
// follow its headings.
func TestPhonePagesFit(t *testing.T) {
	app := webtest.Start(t)
	b := browser(t)
	qs := app.Bank.Questions[:4]
	for _, lang := range []string{"en", "vi", "pl", "th"} {
		t.Run(lang, func(t *testing.T) {
			ctx := tab(t, b)
			do(t, ctx, "phone", chromedp.EmulateViewport(360, 640, chromedp.EmulateMobile),
				chromedp.Navigate(app.URL+"/?lang="+lang), chromedp.WaitVisible(chromedp.CSS(`html[lang=`+lang+`] [data-testid=home-title]`)))
			for i, q := range qs {
				choice := q.Answer
				if i%2 == 1 {
					choice = "A"
					if q.Answer == "A" {
						choice = "B"
					}
				}
				do(t, ctx, "answer "+q.ID, chromedp.Navigate(app.URL+"/practice/"+q.ID),
					chromedp.Click(chromedp.CSS(`[data-testid=option-`+choice+`] input`)),
					chromedp.SendKeys(chromedp.CSS(`[data-testid=explanation]`), explanations[lang]),
					chromedp.Click(chromedp.CSS(`[data-testid=submit]`)),
					chromedp.WaitVisible(chromedp.CSS(`[data-testid=result]`)))
			}
			do(t, ctx, "start a three-question exam", chromedp.Navigate(app.URL+"/exam"),
				chromedp.SetValue(chromedp.CSS(`input[name=count]`), "3"),
				chromedp.Click(chromedp.CSS(`[data-testid=blueprint]`)),
				chromedp.Click(chromedp.CSS(`[data-testid=start-exam]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=exam-question][data-position="1"]`)))
			checkPhoneWidth(t, ctx, lang+" exam question")
			checkAccessibility(t, ctx, lang+" exam question on a phone")
			for n := 1; n <= 3; n++ {
				do(t, ctx, "answer exam question "+strconv.Itoa(n),
					chromedp.WaitVisible(chromedp.CSS(`[data-testid=exam-question][data-position="`+strconv.Itoa(n)+`"]`)),
					chromedp.Click(chromedp.CSS(`[data-testid=option-A] input`)),
					chromedp.SendKeys(chromedp.CSS(`[data-testid=explanation]`), explanations[lang]),
					chromedp.Click(chromedp.CSS(`[data-testid=exam-next]`)))
			}
			do(t, ctx, "submit", chromedp.WaitVisible(chromedp.CSS(`[data-testid=submit-exam]`)),
				chromedp.Click(chromedp.CSS(`[data-testid=submit-exam]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=exam-results]`)))
			checkPhoneWidth(t, ctx, lang+" exam results")
			checkAccessibility(t, ctx, lang+" exam results on a phone")

			do(t, ctx, "open /me", chromedp.Navigate(app.URL+"/me"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=attempt-row]`)))
			checkPhoneWidth(t, ctx, lang+" /me")
			checkAccessibility(t, ctx, lang+" /me on a phone")
			small, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("svg text")].filter(e => e.getBoundingClientRect().height > 0 && parseFloat(getComputedStyle(e).fontSize) * e.getScreenCTM().a < 11).map(e => e.textContent).slice(0, 5)`))
			if err != nil || len(small) > 0 {
				t.Errorf("%s /me: chart labels under 11 px on a phone: %q (%v)", lang, small, err)
			}

			do(t, ctx, "open the lesson", chromedp.Navigate(app.URL+"/learn/structured-errors"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=toc]`)))
			checkPhoneWidth(t, ctx, lang+" lesson")
			checkAccessibility(t, ctx, lang+" lesson on a phone")
			order, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
				const ids = [...document.querySelectorAll("[data-testid=toc] a")].map(a => a.getAttribute("href").slice(1));
				const tops = ids.map(id => document.getElementById(id).getBoundingClientRect().top);
				return ids.length > 0 && tops.every((t, i) => i === 0 || t > tops[i - 1]);
			})()`))
			if err != nil || !order {
				t.Errorf("%s lesson: contents not in page order (%v)", lang, err)
			}
		})
	}
}

// TestVietnameseExamOptionsFit sits every question of the bank as one
// Vietnamese exam on a 360×640 phone: no question's options may widen the
// page (the options fieldset was 7 px too wide, review finding p5).
func TestVietnameseExamOptionsFit(t *testing.T) {
	app := webtest.Start(t)
	ctx := tab(t, browser(t))
	n := len(app.Bank.Questions)
	do(t, ctx, "start an exam of the whole bank", chromedp.EmulateViewport(360, 640, chromedp.EmulateMobile),
		chromedp.Navigate(app.URL+"/exam?lang=vi"),
		chromedp.SetValue(chromedp.CSS(`input[name=count]`), strconv.Itoa(n)),
		chromedp.Click(chromedp.CSS(`[data-testid=start-exam]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=exam-question][data-position="1"]`)))
	base, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	base = strings.TrimSuffix(base, "/q/1")
	for pos := 1; pos <= n; pos++ {
		do(t, ctx, "open question "+strconv.Itoa(pos), chromedp.Navigate(base+"/q/"+strconv.Itoa(pos)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=exam-question][data-position="`+strconv.Itoa(pos)+`"]`)))
		checkPhoneWidth(t, ctx, "vi exam question "+strconv.Itoa(pos))
	}
}
