package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/web"
	"github.com/examsim/examsim/web/webtest"
)

// TestAnonymousAnswersAreLimitedAndCarryNoWeight: new anonymous visitors
// from one address answer until their limit, then get 429 with their
// answer kept; a signed-in learner is not held up; and /class/items counts
// only the answers with weight, saying how many respondents it rests on.
func TestAnonymousAnswersAreLimitedAndCarryNoWeight(t *testing.T) {
	app := &classApp{App: webtest.Start(t, webtest.WithConfig(func(c *web.Config) {
		c.AnonymousAnswersPerClient = web.Limit{Burst: 3, Every: time.Hour}
	})), t: t}
	const qid = "malformed-order-id"
	q, _ := app.Bank.Question(qid)
	wrong := "A"
	if q.Answer == "A" {
		wrong = "B"
	}
	for i := 0; i < 3; i++ {
		practise(t, newClient(t, app.Server), qid, wrong, "")
	}
	p := newClient(t, app.Server).post("/practice/"+qid, "/practice/"+qid, url.Values{"choice": {wrong}, "explanation": {"kept text"}})
	if p.status != http.StatusTooManyRequests || p.header.Get("Retry-After") == "" ||
		p.doc.Find(`[data-testid=explanation]`).Text() != "kept text" || !strings.Contains(p.body, "Wait a few seconds") {
		t.Errorf("a fourth anonymous answer from one address: %d; want 429, a wait and the answer kept", p.status)
	}
	learner := app.account("weighty_learner", examsim.RoleLearner)
	practise(t, learner, qid, q.Answer, "")

	ines := app.account("ines_weight", examsim.RoleInstructor)
	row := ines.get("/class/items?lang=en").doc.Find(`[data-testid=item-row][data-question-id=` + qid + `]`)
	if n := row.Find(`[data-testid=respondents]`).Text(); n != "1" {
		t.Errorf("/class/items counts %q respondents for %s; want 1, the signed-in learner (the anonymous bursts carry no weight)", n, qid)
	}
	if f := row.Find(`[data-testid=facility]`).Text(); !strings.Contains(f, "100%") || !strings.Contains(f, "n = 1") {
		t.Errorf("facility %q; want 100%%, with the count it rests on", f)
	}
}
