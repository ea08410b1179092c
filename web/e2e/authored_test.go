package e2e

import (
	"context"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/scenario"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web/webtest"
)

// teacherQuestion is what a teacher types into the editor, in one language.
type teacherQuestion struct {
	title, stem string
	options     [3][2]string // text, explanation; A is the key
	samples     [3]string    // a good, a wrong and a vague explanation
}

var teacherQuestions = map[string]teacherQuestion{
	"en": {
		title: "A locked calendar",
		stem:  "The calendar tool answers `403 Forbidden` for a meeting the user cannot see. What should the agent do?",
		options: [3][2]string{
			{"Tell the user which permission they lack for that calendar", "Right. Only the user can obtain the permission, so the agent must say which one is missing."},
			{"Retry the call after a backoff, in case the calendar answers later", "A permission error does not pass with time."},
			{"Report an outage of the calendar to the operations team", "Nothing broke: access was refused on purpose."},
		},
		samples: [3]string{
			"Only the user can obtain the permission, so the agent must tell them which one is missing.",
			"Retry after a backoff, the calendar will answer later.",
			"Not sure.",
		},
	},
	"pl": {
		title: "Zablokowany kalendarz",
		stem:  "Narzędzie kalendarza zwraca `403 Forbidden` dla spotkania, którego użytkownik nie widzi. Co powinien zrobić agent?",
		options: [3][2]string{
			{"Powiedzieć użytkownikowi, jakiego uprawnienia mu brakuje", "Dobrze. Tylko użytkownik może uzyskać uprawnienie, więc agent musi powiedzieć, którego brakuje."},
			{"Ponowić wywołanie po odczekaniu, bo kalendarz może odpowiedzieć później", "Błąd uprawnień nie mija z czasem."},
			{"Zgłosić awarię kalendarza zespołowi utrzymania", "Nic się nie zepsuło: dostępu odmówiono celowo."},
		},
		samples: [3]string{
			"Tylko użytkownik może uzyskać uprawnienie, więc agent musi mu powiedzieć, którego brakuje.",
			"Ponów po odczekaniu, kalendarz odpowie później.",
			"Nie wiem.",
		},
	},
}

// TestTeacherWritesAndUsesAQuestion is issue 26's path, with the pages in
// English and in Polish: a teacher writes a question, drafts its rubric,
// tests three sample answers, previews it on a phone and on the
// projector, uses it in a live quiz, and sees the student's explanation
// scored with the rubric.
func TestTeacherWritesAndUsesAQuestion(t *testing.T) {
	for _, lang := range []string{"en", "pl"} {
		t.Run(lang, func(t *testing.T) { teacherWritesAndUses(t, lang) })
	}
}

func teacherWritesAndUses(t *testing.T, lang string) {
	app := webtest.Start(t)
	b := browser(t)
	if _, err := store.NewLearnerService(app.DB).CreateAccount(context.Background(), "teacher", "teacher-pass", examsim.RoleInstructor); err != nil {
		t.Fatal(err)
	}
	host, student := tab(t, b), tab(t, b)
	tq := teacherQuestions[lang]
	id := "locked-calendar-" + lang
	css := func(sel string) chromedp.CSS { return chromedp.CSS(sel) }
	var keyText string
	var room string

	scenario.Run(t, scenario.Step{Name: "the teacher writes a question", Run: func(t *testing.T) {
		do(t, host, "log in", chromedp.Navigate(app.URL+"/login?lang="+lang),
			chromedp.SendKeys(css(`#username`), "teacher"),
			chromedp.SendKeys(css(`#password`), "teacher-pass"),
			chromedp.Submit(css(`[data-testid=login-form]`)),
			chromedp.WaitVisible(css(`[data-testid=nav-class]`)))
		steps := []chromedp.Action[chromedp.Void]{chromedp.Navigate(app.URL + "/class/questions/new?lang=" + lang),
			chromedp.WaitVisible(css(`[data-testid=editor-form]`)),
			chromedp.SetValue(css(`[data-testid=field-id]`), id),
			chromedp.Click(css(`[data-testid=concept-permission-errors]`)),
			chromedp.SetValue(css(`[data-testid=field-lesson]`), "permission-errors"),
			chromedp.SetValue(css(`[data-testid=field-title]`), tq.title),
			chromedp.SetValue(css(`[data-testid=field-stem]`), tq.stem),
			chromedp.Click(css(`[data-testid=answer-A]`))}
		for i, o := range tq.options {
			letter := string(rune('A' + i))
			steps = append(steps, chromedp.SetValue(css(`[data-testid=field-option-`+letter+`]`), o[0]),
				chromedp.SetValue(css(`[data-testid=field-explanation-`+letter+`]`), o[1]))
		}
		do(t, host, "fill the editor", steps...)
		checkAccessibility(t, host, lang+" editor")
	}}, scenario.Step{Name: "drafts the rubric and tests three samples", Run: func(t *testing.T) {
		do(t, host, "draft", chromedp.Click(css(`[data-testid=draft-rubric]`)),
			chromedp.WaitVisible(css(`[data-testid=drafted]`)),
			chromedp.WaitVisible(css(`[data-testid=rule-row][data-rule-id=key-idea]`)),
			chromedp.WaitVisible(css(`[data-testid=pattern-syntax]`)))
		steps := []chromedp.Action[chromedp.Void]{}
		for i, sm := range tq.samples {
			n := strconv.Itoa(i)
			band := map[int]string{0: "2", 1: "0", 2: "0"}[i]
			steps = append(steps, chromedp.SetValue(css(`#sample-text-`+n), sm), chromedp.SetValue(css(`#sample-band-`+n), band))
		}
		steps = append(steps, chromedp.Click(css(`[data-testid=score-samples]`)),
			chromedp.WaitVisible(css(`[data-testid=sample-result]`)))
		do(t, host, "test the samples", steps...)
		n, err := chromedp.Run(host, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=sample-result]").length`))
		if err != nil || n != 3 {
			t.Fatalf("scored samples: %d (%v), want 3", n, err)
		}
		good, err := chromedp.Run(host, chromedp.Evaluate[int](`+document.querySelector("[data-testid=sample-result]").dataset.band`))
		if err != nil || good < 2 {
			t.Errorf("the good sample scores band %d (%v), want 2 or 3", good, err)
		}
		if ev, _ := chromedp.Run(host, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=sample-result] [data-testid=evidence]").length`)); ev == 0 {
			t.Errorf("no evidence highlighted in the scored samples")
		}
		if c, _ := chromedp.Run(host, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=sample-confidence-value]").length`)); c != 3 {
			t.Errorf("confidence shown for %d samples, want 3", c)
		}
		checkAccessibility(t, host, lang+" workbench")
	}}, scenario.Step{Name: "saves: the self-consistency check holds", Run: func(t *testing.T) {
		do(t, host, "save", chromedp.Click(css(`[data-testid=save-question]`)),
			chromedp.WaitVisible(css(`[data-testid=saved]`)),
			chromedp.WaitVisible(css(`[data-testid=selfcheck]`)))
		failing, err := chromedp.Run(host, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=selfcheck-row][data-pass=false]").length`))
		if err != nil || failing != 0 {
			t.Errorf("%d self-consistency checks fail (%v)", failing, err)
		}
		keyText = tq.options[0][0] + " " + tq.samples[0]
	}}, scenario.Step{Name: "previews it on a phone and on the projector", Run: func(t *testing.T) {
		do(t, host, "preview", chromedp.Click(css(`[data-testid=open-preview]`)),
			chromedp.WaitVisible(css(`[data-testid=preview-phone] [data-testid=preview-stem-phone] code`)),
			chromedp.WaitVisible(css(`[data-testid=preview-projector] [data-testid=preview-stem-projector]`)))
		w, err := chromedp.Run(host, chromedp.Evaluate[float64](`document.querySelector("[data-testid=preview-phone] .screen").getBoundingClientRect().width`))
		if err != nil || w != 360 {
			t.Errorf("the phone preview is %.0fpx wide (%v), want 360", w, err)
		}
		over, err := chromedp.Run(host, chromedp.Evaluate[bool](`(s => s.scrollWidth > s.clientWidth)(document.querySelector("[data-testid=preview-phone] .screen"))`))
		if err != nil || over {
			t.Errorf("the question overflows a 360px phone sideways (%v)", err)
		}
		checkAccessibility(t, host, lang+" preview")
	}}, scenario.Step{Name: "uses it in a live quiz", Run: func(t *testing.T) {
		do(t, host, "build the quiz", chromedp.Navigate(app.URL+"/class/quizzes/new"),
			chromedp.WaitVisible(css(`[data-testid=quiz-form]`)),
			chromedp.SendKeys(css(`[data-testid=quiz-title]`), "Permissions"),
			chromedp.SetValue(css(`[data-testid=quiz-seconds]`), "120"),
			chromedp.Click(css(`[data-testid=pick-`+id+`]`)),
			chromedp.SendKeys(css(`[data-testid=order-`+id+`]`), "1"),
			chromedp.Click(css(`[data-testid=save-quiz]`)),
			chromedp.WaitVisible(css(`[data-testid=saved]`)),
			chromedp.Click(css(`[data-testid=start-live]`)),
			chromedp.WaitVisible(css(`[data-testid=join-code]`)))
		code := text(t, host, `[data-testid=join-code]`)
		loc, _ := chromedp.Run(host, chromedp.Location())
		room = loc
		joinOnPhone(t, student, app.URL, code, lang, "Ola")
		do(t, host, "start", chromedp.WaitVisible(css(`[data-testid=player-count][data-count="1"]`)),
			chromedp.Click(css(`[data-testid=host-start]`)),
			chromedp.WaitVisible(css(`[data-testid=host-stage-question]`)))
		if got := text(t, student, `[data-testid=question-title]`); got != tq.title {
			t.Errorf("the student sees %q, want %q", got, tq.title)
		}
		do(t, student, "answer and explain", chromedp.Click(css(`[data-testid=choice-A]`)),
			chromedp.WaitVisible(css(`[data-testid=explanation]`)),
			chromedp.SendKeys(css(`[data-testid=explanation]`), keyText),
			chromedp.Click(css(`[data-testid=send-answer]`)),
			chromedp.WaitVisible(css(`[data-testid=stage-answered]`)))
		do(t, host, "reveal", chromedp.WaitVisible(css(`[data-testid=answer-count][data-answered="1"]`)),
			chromedp.Click(css(`[data-testid=host-reveal]`)),
			chromedp.WaitVisible(css(`[data-testid=host-stage-reveal]`)))
	}}, scenario.Step{Name: "sees the explanation scored", Run: func(t *testing.T) {
		do(t, host, "results", chromedp.Navigate(app.URL+room[len(app.URL):len(room)-len("/host")]+"/results"),
			chromedp.WaitVisible(css(`[data-testid=results-students]`)))
		score := text(t, host, `[data-testid=student-row][data-nickname=Ola] td:last-child`)
		if score == "" || score[0] == '0' || score == "—" {
			t.Errorf("the student's explanation score on the results page: %q, want a score above 0", score)
		}
		checkAccessibility(t, host, lang+" results")
	}})
}
