package web_test

import (
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/examsim/examsim/web/webtest"
)

// TestExamDateForecast: a learner sets an exam date; /me then shows each
// concept's predicted recall on the day, weakest first, and this week's
// plan for the weakest; bad dates are refused in the learner's language
// with the form kept.
func TestExamDateForecast(t *testing.T) {
	app := webtest.Start(t)
	c := newClient(t, app.Server)
	c.post("/practice/malformed-order-id", "/practice/malformed-order-id", url.Values{"choice": {"B"}})
	if c.get("/me").doc.Find(`[data-testid=exam-day-unset]`).Length() != 1 {
		t.Error("/me does not offer to set an exam date")
	}
	for _, tt := range []struct{ date, want string }{
		{"next tuesday", "is not a date"},
		{app.Clock.Now().Format(time.DateOnly), "must be after today"},
	} {
		p := c.post("/review?lang=en", "/review/settings", url.Values{"retention": {"0.9"}, "exam_date": {tt.date}})
		if p.status != 422 || !strings.Contains(p.text(`[data-testid=settings-error]`), tt.want) || p.doc.Find(`[data-testid=exam-date]`).AttrOr("value", "") != tt.date {
			t.Errorf("exam date %q: status %d, error %q", tt.date, p.status, p.text(`[data-testid=settings-error]`))
		}
	}
	if p := c.post("/review", "/review/settings", url.Values{"retention": {"0.5"}}); p.status != 422 {
		t.Errorf("retention 0.5: status %d", p.status)
	}
	exam := app.Clock.Now().AddDate(0, 0, 20).Format(time.DateOnly)
	if p := c.post("/review", "/review/settings", url.Values{"retention": {"0.95"}, "exam_date": {exam}}); p.status != 303 {
		t.Fatalf("saving settings: status %d", p.status)
	}
	if got := c.get("/review").doc.Find(`[data-testid=retention] option[selected]`).AttrOr("value", ""); got != "0.95" {
		t.Errorf("retention shown as %q after saving 0.95", got)
	}
	me := c.get("/me?lang=en")
	rows := me.doc.Find(`[data-testid=examday-row]`)
	if rows.Length() < 2 {
		t.Fatalf("%d concept rows on exam day", rows.Length())
	}
	last := -1
	for i := range rows.Length() {
		r, _ := strconv.Atoi(rows.Eq(i).AttrOr("data-recall", ""))
		if r < last {
			t.Errorf("row %d: recall %d after %d, want weakest first", i, r, last)
		}
		last = r
	}
	plan := me.doc.Find(`[data-testid=examday-plan]`)
	if plan.AttrOr("data-concept", "") != rows.First().AttrOr("data-concept", "") {
		t.Errorf("the plan is for %q, not the weakest concept %q", plan.AttrOr("data-concept", ""), rows.First().AttrOr("data-concept", ""))
	}
	after, _ := strconv.Atoi(plan.AttrOr("data-after", ""))
	now, _ := strconv.Atoi(rows.First().AttrOr("data-recall", ""))
	if after <= now || me.doc.Find(`[data-testid=examday-step]`).Length() == 0 {
		t.Errorf("the plan raises the weakest from %d%% to %d%% with %d steps", now, after, me.doc.Find(`[data-testid=examday-step]`).Length())
	}
}

// TestCramLeavesTheSchedule: a cram session walks the weakest concepts'
// questions and its answers leave every card's due date alone.
func TestCramLeavesTheSchedule(t *testing.T) {
	app := webtest.Start(t)
	c := newClient(t, app.Server)
	c.post("/practice/malformed-order-id", "/practice/malformed-order-id", url.Values{"choice": {"B"}})
	before := c.get("/me/history.json").body
	if p := c.post("/review", "/review/start", url.Values{"mode": {"cram"}}); p.header.Get("Location") != "/review/session" {
		t.Fatalf("starting cram went to %q", p.header.Get("Location"))
	}
	card := c.get("/review/session")
	got := card.doc.Find(`[data-testid=review-card]`)
	if got.AttrOr("data-mode", "") != "cram" || got.AttrOr("data-total", "") != "10" || card.doc.Find(`[data-testid=cram-note]`).Length() != 1 {
		t.Fatalf("cram card: mode %q, total %q", got.AttrOr("data-mode", ""), got.AttrOr("data-total", ""))
	}
	qid := got.AttrOr("data-question-id", "")
	q, _ := app.Bank.Question(qid)
	shown := strings.TrimPrefix(card.doc.Find(`[data-own=`+q.Answer+`]`).AttrOr("data-testid", ""), "option-")
	res := c.post("/review/session", "/review/session", url.Values{"position": {"0"}, "choice": {shown}})
	if !strings.HasSuffix(res.header.Get("Location"), "?session=1") {
		t.Fatalf("cram answer went to %q", res.header.Get("Location"))
	}
	cardsOf := func(doc string) string { i := strings.Index(doc, `"review_cards"`); return doc[i:] }
	if after := c.get("/me/history.json").body; cardsOf(after) != cardsOf(before) {
		t.Errorf("cram moved the schedule:\nbefore %s\nafter  %s", cardsOf(before), cardsOf(after))
	}
	if got := c.get("/me?lang=en").doc.Find(`[data-testid=attempt-row][data-source=cram] [data-testid=attempt-source]`).Text(); strings.TrimSpace(got) != "Cram" {
		t.Errorf("the cram answer's source reads %q in the history, want Cram", got)
	}
}
