package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/i18n"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/scoring"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web/webtest"
)

// brokenBank is the embedded bank with one question's rubrics made to fail
// in every language: a nil pattern panics the scorer on any text.
func brokenBank(t *testing.T, id string) *questions.Bank {
	t.Helper()
	fsys, name := questions.Embedded()
	bank, problems := questions.Load(fsys, name)
	if len(problems) > 0 {
		t.Fatal(problems.Error())
	}
	q, _ := bank.Question(id)
	for _, l := range examsim.Langs {
		r := q.Text(l).Rubric()
		r.Concepts[0].Patterns = append([]*scoring.Pattern{nil}, r.Concepts[0].Patterns...)
	}
	return bank
}

// TestAnswerIsKeptWhenScoringFails: a scorer failure never loses a practice
// answer. It is stored with its score pending, and the learner reads that in
// their language, on the attempt page and on /me.
func TestAnswerIsKeptWhenScoringFails(t *testing.T) {
	const id = "empty-result-retry-loop"
	app := webtest.Start(t, webtest.WithBank(brokenBank(t, id)))
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	attempts := store.NewAttemptService(app.DB)
	for _, lang := range examsim.Langs {
		c := newClient(t, app.Server)
		c.get("/?lang=" + string(lang))
		explanation := "C is the best one because it is more correct."
		res := c.post("/practice/"+id, "/practice/"+id, url.Values{"choice": {"D"}, "explanation": {explanation}})
		if res.status != http.StatusSeeOther || !strings.HasPrefix(res.header.Get("Location"), "/attempts/") {
			t.Fatalf("%s: answer with a failing scorer: %d %s", lang, res.status, res.body)
		}
		p := c.get(res.header.Get("Location"))
		if got := p.text("[data-testid=score-pending]"); got != cat.T(lang, "feedback.score_pending") {
			t.Errorf("%s: the attempt page says %q, want the pending note", lang, got)
		}
		if p.doc.Find("[data-testid=score-value], [data-testid=band]").Length() != 0 {
			t.Errorf("%s: a pending score is shown with a score or band", lang)
		}
		if got := p.text("[data-testid=learner-explanation]"); got != explanation {
			t.Errorf("%s: the kept explanation reads %q", lang, got)
		}
		attemptID, _ := strconv.ParseInt(strings.TrimPrefix(res.header.Get("Location"), "/attempts/"), 10, 64)
		if a, err := attempts.FindAttempt(context.Background(), attemptID); err != nil || !a.Pending || a.Explanation != explanation {
			t.Errorf("%s: stored attempt %+v (%v), want it kept with its score pending", lang, a, err)
		}
		if got := c.get("/me").text("[data-testid=score-pending]"); got != cat.T(lang, "feedback.score_pending_short") {
			t.Errorf("%s: /me says %q for the pending score", lang, got)
		}
	}
}

// TestPendingScoreIsScoredOnNextView: an attempt stored with its score
// pending is scored when its page is next opened, and the verdict stored.
func TestPendingScoreIsScoredOnNextView(t *testing.T) {
	app := webtest.Start(t)
	c := newClient(t, app.Server)
	c.get("/?lang=en")
	res := c.post("/practice/empty-result-retry-loop", "/practice/empty-result-retry-loop", url.Values{"choice": {"D"}, "explanation": {"ok"}})
	first, _ := strconv.ParseInt(strings.TrimPrefix(res.header.Get("Location"), "/attempts/"), 10, 64)
	attempts := store.NewAttemptService(app.DB)
	ctx := context.Background()
	a, err := attempts.FindAttempt(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	pending := &examsim.Attempt{LearnerID: a.LearnerID, Answer: examsim.Answer{QuestionID: "empty-result-retry-loop", Lang: examsim.English, Choice: "D", Correct: true, Explanation: "It is a valid empty result: the query ran and matched nothing, so retrying won't help.", Verdict: scoring.Pending(0)}}
	if err := attempts.CreateAttempt(ctx, pending); err != nil {
		t.Fatal(err)
	}
	p := c.get("/attempts/" + strconv.FormatInt(pending.ID, 10))
	if p.doc.Find("[data-testid=score-pending]").Length() != 0 || p.text("[data-testid=band]") == "" {
		t.Errorf("the next view still shows the score pending: %s", p.text("main"))
	}
	got, err := attempts.FindAttempt(ctx, pending.ID)
	if err != nil || got.Pending || got.Band < 2 || got.Evidence == nil {
		t.Errorf("after the view the attempt is stored as %+v (%v), want scored with its evidence", got, err)
	}
}
