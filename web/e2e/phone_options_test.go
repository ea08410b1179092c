package e2e

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web/webtest"
)

// clippedOptions lists the phone's answer tiles whose text does not show
// whole: cut by its own box or the tile's, or clamped to a number of lines.
const clippedOptions = `(() => {
  const out = [];
  document.querySelectorAll("button.choice").forEach(b => {
    const text = b.querySelector(".option-text");
    const cut = [];
    for (const el of [b, text]) {
      const s = getComputedStyle(el);
      if (el.scrollHeight > el.clientHeight + 1) cut.push(el.tagName.toLowerCase() + " " + el.scrollHeight + ">" + el.clientHeight);
      if (s.webkitLineClamp !== "none" && s.webkitLineClamp !== "") cut.push("line-clamp " + s.webkitLineClamp);
    }
    if (cut.length) out.push(b.getAttribute("data-choice") + ": " + cut.join(", "));
  });
  return out;
})()`

// longestOptionQuestions are the n bank questions with the longest single
// option in any language: the ones a phone's tiles cut first.
func longestOptionQuestions(bank []string, longest func(id string) int, n int) []string {
	ids := append([]string(nil), bank...)
	sort.SliceStable(ids, func(i, j int) bool { return longest(ids[i]) > longest(ids[j]) })
	return ids[:min(n, len(ids))]
}

// TestPhoneShowsEveryOptionWhole plays the three bank questions with the
// longest options to a 360×640 phone in each language: every option's
// text shows whole (nothing cut by its box, no line clamp), the page is no
// wider than the phone, and axe passes. The review found options cut after
// about three lines (finding m2).
func TestPhoneShowsEveryOptionWhole(t *testing.T) {
	app := webtest.Start(t)
	if _, err := store.NewLearnerService(app.DB).CreateAccount(context.Background(), "teacher", "teacher-pass", examsim.RoleInstructor); err != nil {
		t.Fatal(err)
	}
	var bank []string
	for _, q := range app.Bank.Questions {
		bank = append(bank, q.ID)
	}
	qids := longestOptionQuestions(bank, func(id string) int {
		q, _ := app.Bank.Question(id)
		most := 0
		for _, lang := range examsim.Langs {
			if tx := q.Text(lang); tx != nil {
				for _, o := range tx.Options {
					most = max(most, len([]rune(o.HTML())))
				}
			}
		}
		return most
	}, 3)
	b := browser(t)
	host := tab(t, b)
	code := startLiveQuiz(t, app.URL, host, qids)
	langs := []string{"en", "vi", "pl", "th"}
	phones := map[string]context.Context{}
	for _, lang := range langs {
		phones[lang] = tab(t, b)
		joinOnPhone(t, phones[lang], app.URL, code, lang, "Phone "+lang)
	}
	for i, id := range qids {
		if i == 0 {
			do(t, host, "start", chromedp.Click(chromedp.CSS(`[data-testid=host-start]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=host-stage-question]`)))
		} else {
			do(t, host, "reveal, then the next question", chromedp.Click(chromedp.CSS(`[data-testid=host-reveal]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=host-stage-reveal]`)),
				chromedp.Click(chromedp.CSS(`[data-testid=host-next]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=host-stage-question]`)))
		}
		for _, lang := range langs {
			where := lang + " " + id
			do(t, phones[lang], where+": the question", chromedp.WaitVisible(chromedp.CSS(`[data-testid=stage-question][data-question-index="`+strconv.Itoa(i)+`"]`)))
			cut, err := chromedp.Run(phones[lang], chromedp.Evaluate[[]string](clippedOptions))
			if err != nil {
				t.Fatalf("%s: measuring the tiles: %v", where, err)
			}
			if len(cut) > 0 {
				t.Errorf("%s: options not shown whole: %s", where, strings.Join(cut, "; "))
			}
			checkPhoneWidth(t, phones[lang], where)
			checkAccessibility(t, phones[lang], where+" on a phone")
		}
	}
}

// TestTeachersNoteOnTheLearnersAttempt: a teacher writes a note with a
// regrade on a 1280-pixel screen; the learner, in Vietnamese on a phone,
// reads it beside the regraded band. axe passes on both pages.
func TestTeachersNoteOnTheLearnersAttempt(t *testing.T) {
	app := webtest.Start(t)
	if _, err := store.NewLearnerService(app.DB).CreateAccount(context.Background(), "ada", "ada-password", examsim.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	b := browser(t)
	learner, teacher := tab(t, b), tab(t, b)
	do(t, learner, "answer a question in Vietnamese on a phone", chromedp.EmulateViewport(360, 640, chromedp.EmulateMobile),
		chromedp.Navigate(app.URL+"/practice/malformed-order-id?lang=vi"),
		chromedp.Click(chromedp.CSS(`[data-testid=option-B] input`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid=explanation]`), explanations["vi"]),
		chromedp.Click(chromedp.CSS(`[data-testid=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=result]`)))
	attempt, err := chromedp.Run(learner, chromedp.Location())
	if err != nil || !strings.Contains(attempt, "/attempts/") {
		t.Fatalf("the attempt's address: %q %v", attempt, err)
	}
	id := attempt[strings.LastIndex(attempt, "/")+1:]
	note := `Gần đúng: hãy nói rõ "isRetryable" là false. <b>Cố lên!</b>`
	do(t, teacher, "log in and open the regrade", chromedp.EmulateViewport(1280, 800),
		chromedp.Navigate(app.URL+"/login?lang=en"),
		chromedp.SendKeys(chromedp.CSS(`#username`), "ada"),
		chromedp.SendKeys(chromedp.CSS(`#password`), "ada-password"),
		chromedp.Submit(chromedp.CSS(`[data-testid=login-form]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=nav-class]`)),
		chromedp.Navigate(app.URL+"/class/grading/attempt/"+id),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=teacher-note-input]`)))
	checkAccessibility(t, teacher, "the regrade page with its note field")
	do(t, teacher, "band 3 with a note", chromedp.Click(chromedp.CSS(`[data-testid=band-3]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid=teacher-note-input]`), note),
		chromedp.Click(chromedp.CSS(`[data-testid=regrade-submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=grading-saved]`)))
	do(t, learner, "the learner reloads", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`[data-testid=teacher-note]`)))
	if got := text(t, learner, `[data-testid=teacher-note] q`); got != note {
		t.Errorf("the learner reads the note as %q, want %q", got, note)
	}
	if band, err := chromedp.Run(learner, chromedp.AttributeValue(chromedp.CSS(`[data-testid=band]`), "data-band")); err != nil || band.Value != "3" {
		t.Errorf("the band beside the note: %q %v", band.Value, err)
	}
	checkPhoneWidth(t, learner, "the attempt with a teacher's note")
	checkAccessibility(t, learner, "the attempt with a teacher's note on a phone")
}
