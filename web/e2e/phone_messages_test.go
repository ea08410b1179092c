package e2e

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/scenario"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web/webtest"
)

// messagePlace is where a phone shows a message, against Send and the clock.
type messagePlace struct {
	Shown, InView, AfterSend bool
	Text                     string
	CoversClock              bool
}

const measureMessage = `((sel) => {
  const el = document.querySelector(sel), send = document.querySelector("[data-testid=send-answer]");
  const clock = document.querySelector("[data-testid=countdown]"), banner = document.querySelector("[data-testid=reconnecting]");
  const r = el ? el.getBoundingClientRect() : null;
  const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  return {Shown: !!el && !el.hidden && r.height > 0,
    InView: !!r && r.top >= -1 && r.bottom <= innerHeight + 1,
    AfterSend: !!el && !!send && !!(send.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING),
    Text: el ? el.textContent + " @" + Math.round(r.top) + "-" + Math.round(r.bottom) + "/" + innerHeight : "",
    CoversClock: !!banner && !banner.hidden && !!clock && overlap(banner.getBoundingClientRect(), clock.getBoundingClientRect())};
})`

// TestPhoneAnswerMessages: on a 360×640 phone, a refused answer's message
// appears under Send, in view; an answer sent while the network is down
// says it is kept and will be sent, and the connection banner leaves the
// clock uncovered.
func TestPhoneAnswerMessages(t *testing.T) {
	app := webtest.Start(t)
	if _, err := store.NewLearnerService(app.DB).CreateAccount(context.Background(), "teacher", "teacher-pass", examsim.RoleInstructor); err != nil {
		t.Fatal(err)
	}
	b := browser(t)
	const qid = "empty-result-retry-loop"
	q, _ := app.Bank.Question(qid)
	host, phone := tab(t, b), tab(t, b)
	place := func(t *testing.T, sel string) messagePlace {
		t.Helper()
		raw, err := chromedp.Run(phone, chromedp.Evaluate[[]byte](measureMessage+`(`+jsString(sel)+`)`))
		var m messagePlace
		if err == nil {
			err = json.Unmarshal(raw, &m)
		}
		if err != nil {
			t.Fatalf("measuring %s: %v", sel, err)
		}
		return m
	}
	scenario.Run(t, scenario.Step{Name: "a quiz that requires explanations starts", Run: func(t *testing.T) {
		do(t, host, "log in", chromedp.Navigate(app.URL+"/login?lang=en"),
			chromedp.SendKeys(chromedp.CSS(`#username`), "teacher"),
			chromedp.SendKeys(chromedp.CSS(`#password`), "teacher-pass"),
			chromedp.Submit(chromedp.CSS(`[data-testid=login-form]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=nav-class]`)))
		do(t, host, "build and start", chromedp.Navigate(app.URL+"/class/quizzes/new"),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=quiz-form]`)),
			chromedp.SendKeys(chromedp.CSS(`[data-testid=quiz-title]`), "Phones"),
			chromedp.SetValue(chromedp.CSS(`[data-testid=quiz-seconds]`), "120"),
			chromedp.Click(chromedp.CSS(`[data-testid=expl-required]`)),
			chromedp.Click(chromedp.CSS(`[data-testid=pick-`+qid+`]`)),
			chromedp.Click(chromedp.CSS(`[data-testid=save-quiz]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=saved]`)),
			chromedp.Click(chromedp.CSS(`[data-testid=start-live]`)),
			chromedp.WaitVisible(chromedp.CSS(`#class-root[data-live=on] [data-testid=join-code]`)))
		joinOnPhone(t, phone, app.URL, text(t, host, `[data-testid=join-code]`), "pl", "Kasia")
		do(t, host, "start", chromedp.Click(chromedp.CSS(`[data-testid=host-start]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=host-stage-question]`)))
		do(t, phone, "the question", chromedp.WaitVisible(chromedp.CSS(`[data-testid=stage-question]`)))
	}}, scenario.Step{Name: "a refused answer says why under Send", Run: func(t *testing.T) {
		do(t, phone, "tap and send with no explanation", chromedp.Click(chromedp.CSS(`[data-testid=choice-`+q.Answer+`]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=send-answer]`)),
			chromedp.Click(chromedp.CSS(`[data-testid=send-answer]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=form-error]`)))
		if m := place(t, "[data-testid=form-error]"); !m.Shown || !m.InView || !m.AfterSend {
			t.Errorf("the refusal %q: shown %t, in view %t, under Send %t", m.Text, m.Shown, m.InView, m.AfterSend)
		}
		checkAccessibility(t, phone, "phone refused answer")
	}}, scenario.Step{Name: "an answer sent while offline is kept, and the banner leaves the clock alone", Run: func(t *testing.T) {
		do(t, phone, "the network drops; explain and send",
			chromedp.Evaluate[chromedp.Void](`window.fetch = () => Promise.reject(new TypeError("Failed to fetch"))`),
			chromedp.SendKeys(chromedp.CSS(`[data-testid=explanation]`), explanations["pl"]),
			chromedp.Click(chromedp.CSS(`[data-testid=send-answer]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=answer-pending]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=reconnecting]`)))
		m := place(t, "[data-testid=answer-pending]")
		if !m.InView || !m.AfterSend {
			t.Errorf("the kept-answer note %q: in view %t, under Send %t", m.Text, m.InView, m.AfterSend)
		}
		if m.CoversClock {
			t.Error("the connection banner covers the clock")
		}
		if place(t, "[data-testid=form-error]").Shown {
			t.Error("the earlier refusal is still shown beside the kept answer")
		}
		checkAccessibility(t, phone, "phone answer kept offline")
	}})
}
