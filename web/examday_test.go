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
