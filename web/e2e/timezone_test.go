package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web/webtest"
)

// inZone makes the tab's browser report zone, as a machine set to it would.
func inZone(zone string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: zone})
		return err
	})
}

// TestVietnameseBrowserSeesItsZone is a browser in Asia/Ho_Chi_Minh:
// static/tz.js writes the zone cookie as browsers do (URL-encoded), and the
// exam clock, an assignment's due date and the history on /me are shown at
// UTC+7, not in UTC.
func TestVietnameseBrowserSeesItsZone(t *testing.T) {
	app := webtest.Start(t)
	ctx := tab(t, browser(t))
	saigon, err := time.LoadLocation("Asia/Ho_Chi_Minh")
	if err != nil {
		t.Fatal(err)
	}
	bg := context.Background()
	teacher, err := store.NewLearnerService(app.DB).CreateAccount(bg, "teacher", "teacher-pass", examsim.RoleInstructor)
	if err != nil {
		t.Fatal(err)
	}
	quiz := &examsim.Quiz{OwnerID: teacher.ID, Title: "Múi giờ", QuestionIDs: []string{"empty-result-retry-loop"},
		SecondsPerQuestion: 60, Scoring: examsim.ScoreCorrectness, Explanations: examsim.ExplainOff}
	if err := store.NewClassroomService(app.DB).CreateQuiz(bg, quiz); err != nil {
		t.Fatal(err)
	}
	deadline := app.Clock.Now().Add(30 * time.Hour)
	room, err := app.Classroom.Create(bg, quiz, teacher.ID, examsim.ModeAssignment, deadline)
	if err != nil {
		t.Fatal(err)
	}

	do(t, ctx, "open home in Vietnamese from Ho Chi Minh City", inZone("Asia/Ho_Chi_Minh"),
		chromedp.Navigate(app.URL+"/?lang=vi"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=home-title]`)))
	cookie, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.cookie`))
	if err != nil || !strings.Contains(cookie, "examsim_tz=Asia%2F") {
		t.Fatalf("the zone cookie as the browser wrote it: %q (%v); want it URL-encoded, examsim_tz=Asia%%2F…", cookie, err)
	}

	do(t, ctx, "start a ten-minute exam",
		chromedp.Navigate(app.URL+"/exam?lang=vi"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=exam-setup]`)),
		chromedp.SetValue(chromedp.CSS(`input[name=count]`), "5"),
		chromedp.SetValue(chromedp.CSS(`input[name=minutes]`), "10"),
		chromedp.Click(chromedp.CSS(`[data-testid=start-exam]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=exam-question][data-position="1"]`)))
	ends := app.Clock.Now().Add(10*time.Minute).In(saigon).Format("15:04") + " +07"
	if page := text(t, ctx, `main`); !strings.Contains(page, ends) {
		t.Errorf("the exam clock does not say it ends at %s, the viewer's time: %q", ends, page)
	}

	do(t, ctx, "open the assignment",
		chromedp.Navigate(app.URL+"/join?lang=vi&code="+room.Run().Code),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=join-form]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid=join-nickname]`), "Ngọc Anh"),
		chromedp.Submit(chromedp.CSS(`[data-testid=join-form]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=stage-assign]`)))
	due := deadline.In(saigon).Format("2006-01-02 15:04") + " +07"
	if page := text(t, ctx, `main`); !strings.Contains(page, due) {
		t.Errorf("the assignment is not due %s, the viewer's time: %q", due, page)
	}
	checkAccessibility(t, ctx, "vi assignment in Asia/Ho_Chi_Minh")

	q, _ := app.Bank.Question("empty-result-retry-loop")
	do(t, ctx, "answer a practice question",
		chromedp.Navigate(app.URL+"/practice/"+q.ID),
		chromedp.WaitVisible(chromedp.CSS(`[data-question-id=`+q.ID+`]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=option-`+q.Answer+`] input`)),
		chromedp.Click(chromedp.CSS(`[data-testid=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=result]`)))
	do(t, ctx, "open my history", chromedp.Navigate(app.URL+"/me"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=attempt-row][data-question-id=`+q.ID+`]`)))
	shown := text(t, ctx, `[data-testid=attempt-row][data-question-id=`+q.ID+`] time`)
	if !strings.HasSuffix(shown, "+07") {
		t.Errorf("the history shows %q; want the viewer's time, ending +07", shown)
	}
	checkAccessibility(t, ctx, "vi history in Asia/Ho_Chi_Minh")
}
