package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/scenario"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web/webtest"
)

// TestFlagRegradeHumanBand runs a dispute end to end in real browsers: a
// Thai and a Polish learner, both in the teacher's class, answer and
// explain, then flag their score with a note; the teacher finds both in
// the review queue and regrades them; each learner then sees the teacher's
// band on the attempt and on /me. Every page is checked with axe-core.
func TestFlagRegradeHumanBand(t *testing.T) {
	app := webtest.Start(t)
	b := browser(t)
	ctx := context.Background()
	const qid = "empty-result-retry-loop"
	q, _ := app.Bank.Question(qid)

	// The class: a quiz of the teacher's with a session both learners joined.
	ls, cls := store.NewLearnerService(app.DB), store.NewClassroomService(app.DB)
	teacher, err := ls.CreateAccount(ctx, "teacher", "teacher-pass", examsim.RoleInstructor)
	if err != nil {
		t.Fatal(err)
	}
	quiz := &examsim.Quiz{OwnerID: teacher.ID, Title: "Errors", QuestionIDs: []string{qid}, SecondsPerQuestion: 60,
		Scoring: examsim.ScoreCorrectness, Explanations: examsim.ExplainOptional}
	if err := cls.CreateQuiz(ctx, quiz); err != nil {
		t.Fatal(err)
	}
	session := &examsim.ClassRun{HostID: teacher.ID, Mode: examsim.ModeLive, Quiz: *quiz, QuestionIndex: -1}
	if err := cls.CreateRun(ctx, session); err != nil {
		t.Fatal(err)
	}
	learners := map[string]string{"th": "somchai", "pl": "lucja"}
	notes := map[string]string{"th": "ฉันอธิบายครบแล้วว่าเป็น valid empty result", "pl": "Napisałam, że to pusty wynik, a nie błąd dostępu"}
	bands := map[string]string{"th": "3", "pl": "2"}
	// What each learner reads once regraded, from the catalog's feedback.regraded.
	regradedText := map[string]string{"th": "ครูตรวจคำอธิบายนี้ใหม่แล้ว: ระดับ 3", "pl": "ocenił to wyjaśnienie ponownie: poziom 2"}
	for lang, name := range learners {
		l, err := ls.CreateAccount(ctx, name, name+"-pass", examsim.RoleLearner)
		if err != nil {
			t.Fatal(err)
		}
		if err := cls.CreatePlayer(ctx, &examsim.Player{RunID: session.ID, Nickname: name, Lang: examsim.Lang(lang), LearnerID: l.ID, RejoinHash: []byte(name)}); err != nil {
			t.Fatal(err)
		}
	}

	login := func(t *testing.T, ctx context.Context, lang, name, password string) {
		t.Helper()
		do(t, ctx, name+" logs in", chromedp.Navigate(app.URL+"/login?lang="+lang),
			chromedp.SendKeys(chromedp.CSS(`#username`), name),
			chromedp.SendKeys(chromedp.CSS(`#password`), password),
			chromedp.Submit(chromedp.CSS(`[data-testid=login-form]`)),
			// Logged in only once the page has a log-out button; before that
			// an answer would belong to an anonymous learner.
			chromedp.WaitVisible(chromedp.CSS(`form[action="/logout"] button`)))
	}

	langs := []string{"th", "pl"}
	tabs := map[string]context.Context{}
	for _, lang := range langs {
		tabs[lang] = tab(t, b)
	}
	host := tab(t, b)
	attempts := map[string]string{}
	var steps []scenario.Step
	for _, lang := range langs {
		name := learners[lang]
		steps = append(steps, scenario.Step{Name: name + " (" + lang + ") answers, explains and flags the score", Run: func(t *testing.T) {
			c := tabs[lang]
			login(t, c, lang, name, name+"-pass")
			do(t, c, name+" answers and explains", chromedp.Navigate(app.URL+"/practice/"+qid),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=question]`)),
				chromedp.Click(chromedp.CSS(`[data-testid=option-`+q.Answer+`] input`)),
				// SetValue, not SendKeys: chromedp's key table drops some Polish letters (ą).
				chromedp.SetValue(chromedp.CSS(`[data-testid=explanation]`), explanations[lang]),
				chromedp.Click(chromedp.CSS(`[data-testid=submit]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=result]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=flag-form]`)))
			loc, err := chromedp.Run(c, chromedp.Location())
			if err != nil || !strings.Contains(loc, "/attempts/") {
				t.Fatalf("%s's attempt page: %q %v", name, loc, err)
			}
			attempts[lang] = loc
			// Whatever the scorer of the day finds, what is highlighted is what is quoted.
			marks, _ := chromedp.Run(c, chromedp.Evaluate[int](`document.querySelectorAll("mark[data-testid=evidence]").length`))
			quotes, _ := chromedp.Run(c, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=concept-evidence], [data-testid=misconception-evidence]").length`))
			if (marks == 0) != (quotes == 0) {
				t.Errorf("%s: %d highlights but %d quotes", name, marks, quotes)
			}
			if got := text(t, c, `[data-testid=learner-explanation]`); got != explanations[lang] {
				t.Errorf("%s's explanation reads %q", name, got)
			}
			checkAccessibility(t, c, lang+" attempt with the flag form")
			do(t, c, name+" flags the score",
				chromedp.SetValue(chromedp.CSS(`[data-testid=flag-comment-input]`), notes[lang]),
				chromedp.Click(chromedp.CSS(`[data-testid=flag-submit]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=flag-status]`)))
			if got := text(t, c, `[data-testid=flag-comment]`); got != notes[lang] {
				t.Errorf("%s's note reads %q", name, got)
			}
			checkAccessibility(t, c, lang+" attempt flagged")
		}})
	}

	scenario.Run(t, append(steps, scenario.Step{Name: "the teacher finds both in the review queue", Run: func(t *testing.T) {
		login(t, host, "pl", "teacher", "teacher-pass")
		do(t, host, "open the review queue", chromedp.Click(chromedp.CSS(`[data-testid=nav-class]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=grading-link]`)),
			chromedp.Click(chromedp.CSS(`[data-testid=grading-link]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=grading-queue]`)))
		if n, err := chromedp.Run(host, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=grading-row][data-flagged=true]").length`)); err != nil || n != 2 {
			t.Fatalf("the queue has %d flagged rows (%v), want 2", n, err)
		}
		checkAccessibility(t, host, "review queue")
	}}, scenario.Step{Name: "the teacher regrades both", Run: func(t *testing.T) {
		for _, lang := range langs {
			id := attempts[lang][strings.LastIndex(attempts[lang], "/")+1:]
			do(t, host, "regrade "+lang, chromedp.Navigate(app.URL+"/class/grading"),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=grading-row][data-id="`+id+`"]`)),
				chromedp.Click(chromedp.CSS(`[data-testid=grading-row][data-id="`+id+`"] [data-testid=grading-open]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=regrade-form]`)))
			if got := text(t, host, `[data-testid=learner-note] p`); got != notes[lang] {
				t.Errorf("the teacher reads the %s note as %q", lang, got)
			}
			checkAccessibility(t, host, "regrade "+lang)
			do(t, host, "save band "+bands[lang], chromedp.Click(chromedp.CSS(`[data-testid=band-`+bands[lang]+`]`)),
				chromedp.Click(chromedp.CSS(`[data-testid=regrade-submit]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=grading-saved]`)))
		}
		checkAccessibility(t, host, "review queue after regrading")
		if n, _ := chromedp.Run(host, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=grading-row]").length`)); n != 0 {
			t.Errorf("%d rows left in the queue after regrading both", n)
		}
	}}, scenario.Step{Name: "each learner sees the teacher's band on the attempt and on /me", Run: func(t *testing.T) {
		for _, lang := range langs {
			c := tabs[lang]
			do(t, c, lang+" sees the teacher's band", chromedp.Navigate(attempts[lang]),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=band][data-human=true][data-band="`+bands[lang]+`"]`)))
			if got := text(t, c, `[data-testid=human-grade]`); !strings.Contains(got, regradedText[lang]) {
				t.Errorf("%s: the regrade note reads %q, want %q", lang, got, regradedText[lang])
			}
			checkAccessibility(t, c, lang+" attempt regraded")
			do(t, c, lang+" sees it on /me", chromedp.Click(chromedp.CSS(`[data-testid=nav-me]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=attempt-row] [data-testid=history-band][data-human=true][data-band="`+bands[lang]+`"]`)))
			checkAccessibility(t, c, lang+" me regraded")
		}
	}}, scenario.Step{Name: "the Thai learner flags a score from a submitted exam's review", Run: func(t *testing.T) {
		th := tabs["th"]
		do(t, th, "a one-question exam", chromedp.Navigate(app.URL+"/exam"),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=exam-setup]`)),
			chromedp.SetValue(chromedp.CSS(`input[name=count]`), "1"),
			chromedp.Click(chromedp.CSS(`[data-testid=start-exam]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=exam-question][data-position="1"]`)),
			chromedp.Click(chromedp.CSS(`[data-testid=option-A] input`)),
			chromedp.SetValue(chromedp.CSS(`[data-testid=explanation]`), explanations["th"]),
			chromedp.Click(chromedp.CSS(`[data-testid=exam-next]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=exam-review-screen]`)),
			chromedp.Click(chromedp.CSS(`[data-testid=submit-exam]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=item-flag-form]`)))
		checkAccessibility(t, th, "th exam review with the flag form")
		do(t, th, "flag from the exam review",
			chromedp.SetValue(chromedp.CSS(`[data-testid=item-flag-form] textarea`), notes["th"]),
			chromedp.Click(chromedp.CSS(`[data-testid=item-flag-form] [data-testid=flag-submit]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=exam-results] [data-testid=item-flag-status]`)))
		checkAccessibility(t, th, "th exam review flagged")
	}})...)
}
