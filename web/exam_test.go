package web_test

import (
	"fmt"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/scenario"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/web/webtest"
)

// token returns the CSRF token of a page's forms.
func (p *page) token(tb testing.TB) string {
	tb.Helper()
	tok, _ := p.doc.Find(`input[name=_csrf]`).First().Attr("value")
	if tok == "" {
		tb.Fatal("no CSRF token on the page")
	}
	return tok
}

// fragmentText returns the text of an HTML fragment, spaces collapsed.
func fragmentText(html string) string {
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(html))
	return strings.Join(strings.Fields(doc.Text()), " ")
}

func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

var examPath = regexp.MustCompile(`^/exam/(\d+)/q/1$`)

// startExam starts an exam and returns its base path, e.g. /exam/3.
func startExam(t *testing.T, c *client, values url.Values) string {
	t.Helper()
	for k, v := range map[string]string{"count": "5", "minutes": "10", "pass_mark": "72"} {
		if values.Get(k) == "" {
			values.Set(k, v)
		}
	}
	if _, ok := values["topic"]; !ok {
		values.Set("topic", "structured-errors")
	}
	p := c.post("/exam", "/exam", values)
	m := examPath.FindStringSubmatch(p.header.Get("Location"))
	if p.status != 303 || m == nil {
		t.Fatalf("start exam: %d %q %s", p.status, p.header.Get("Location"), p.text(`[data-testid=form-error]`))
	}
	return "/exam/" + m[1]
}

// shownLetterOf returns the letter under which a question page shows the
// question's own option own, by matching the option texts with the bank.
func shownLetterOf(t *testing.T, p *page, tx *questions.Text, own string) string {
	t.Helper()
	var want string
	for _, o := range tx.Options {
		if o.Letter == own {
			want = fragmentText(o.HTML())
		}
	}
	found := ""
	p.doc.Find(`label.option`).Each(func(_ int, s *goquery.Selection) {
		if squash(s.Find(".option-text").Text()) == want {
			found, _ = s.Find("input").Attr("value")
		}
	})
	if found == "" {
		t.Fatalf("option %s (%q) is not shown", own, want)
	}
	return found
}

func TestExamSetupDefaultsAndValidation(t *testing.T) {
	app := webtest.Start(t)
	c := newClient(t, app.Server)
	p := c.get("/exam?lang=en")
	if p.status != 200 {
		t.Fatalf("setup: %d", p.status)
	}
	for sel, want := range map[string]string{`input[name=count]`: "11", `input[name=minutes]`: "22", `input[name=pass_mark]`: "72"} {
		if got, _ := p.doc.Find(sel).Attr("value"); got != want {
			t.Errorf("%s default = %q, want %q", sel, got, want)
		}
	}
	if s := p.text(`[data-testid=exam-defaults]`); !strings.Contains(s, "60 questions in 120 minutes") {
		t.Errorf("the defaults do not say what they mirror: %q", s)
	}
	if s := p.text(`[data-testid=pass-mark-help]`); !strings.Contains(s, "Configurable") {
		t.Errorf("the pass mark help does not say it is configurable: %q", s)
	}
	if n := p.doc.Find(`select[name=concept] option`).Length(); n < 10 {
		t.Errorf("only %d concept options", n)
	}

	tests := []struct {
		name   string
		values url.Values
		keep   string // a field value the re-shown form must keep
	}{
		{"no topic", url.Values{"count": {"5"}, "minutes": {"10"}, "pass_mark": {"72"}}, "10"},
		{"zero questions", url.Values{"topic": {"structured-errors"}, "count": {"0"}, "minutes": {"10"}, "pass_mark": {"72"}}, "0"},
		{"not a number", url.Values{"topic": {"structured-errors"}, "count": {"five"}, "minutes": {"10"}, "pass_mark": {"72"}}, "five"},
		{"too long", url.Values{"topic": {"structured-errors"}, "count": {"5"}, "minutes": {"9999"}, "pass_mark": {"72"}}, "9999"},
		{"bad pass mark", url.Values{"topic": {"structured-errors"}, "count": {"5"}, "minutes": {"10"}, "pass_mark": {"101"}}, "101"},
		{"unknown concept", url.Values{"topic": {"structured-errors"}, "count": {"5"}, "minutes": {"10"}, "pass_mark": {"72"}, "concept": {"nope"}}, "10"},
		{"unknown topic", url.Values{"topic": {"nope"}, "count": {"5"}, "minutes": {"10"}, "pass_mark": {"72"}}, "10"},
		{"nothing missed yet", url.Values{"topic": {"structured-errors"}, "count": {"5"}, "minutes": {"10"}, "pass_mark": {"72"}, "missed": {"1"}}, "10"},
	}
	for _, tt := range tests {
		p := c.post("/exam?lang=vi", "/exam", tt.values)
		if p.status != 422 || p.text(`[data-testid=form-error]`) == "" {
			t.Errorf("%s: %d %q", tt.name, p.status, p.text(`[data-testid=form-error]`))
			continue
		}
		if lang, _ := p.doc.Find("html").Attr("lang"); lang != "vi" {
			t.Errorf("%s: error page in %q", tt.name, lang)
		}
		kept := false
		p.doc.Find(`input[type=number]`).Each(func(_ int, s *goquery.Selection) {
			kept = kept || s.AttrOr("value", "") == tt.keep
		})
		if !kept {
			t.Errorf("%s: the form lost %q", tt.name, tt.keep)
		}
	}
}

// TestExamTakeReviewSubmit takes a five-question exam: answers three right
// (one explained), one wrong, leaves one unanswered and flagged; checks the
// shuffled options against the bank, the review screen, the score against
// the pass mark, the breakdown, the per-option explanations and /me.
func TestExamTakeReviewSubmit(t *testing.T) {
	app := webtest.Start(t)
	c := newClient(t, app.Server)
	c.get("/?lang=en")
	base := startExam(t, c, url.Values{})

	// How each of the five questions is answered; the results below count
	// on it: three right, one wrong, the last flagged and left unanswered.
	plan := []struct {
		name   string
		answer func(right string) url.Values
		next   string // where the answer leads
	}{
		{"right, explained", func(right string) url.Values {
			return url.Values{"go": {"next"}, "choice": {right},
				"explanation": {"The input is malformed, a validation error; retrying the same input fails again."}}
		}, "/q/2"},
		{"right", func(right string) url.Values { return url.Values{"go": {"next"}, "choice": {right}} }, "/q/3"},
		{"right", func(right string) url.Values { return url.Values{"go": {"next"}, "choice": {right}} }, "/q/4"},
		{"wrong", func(right string) url.Values {
			wrong := "A"
			if right == "A" {
				wrong = "B"
			}
			return url.Values{"go": {"next"}, "choice": {wrong}}
		}, "/q/5"},
		{"flagged, unanswered, to the review", func(string) url.Values { return url.Values{"go": {"review"}, "flag": {"1"}} }, "/review"},
	}
	var (
		qids   []string
		review *page
		steps  []scenario.Step
	)
	for i, step := range plan {
		n := i + 1
		steps = append(steps, scenario.Step{Name: fmt.Sprintf("question %d %s", n, step.name), Run: func(t *testing.T) {
			c := c.as(t)
			path := base + "/q/" + strconv.Itoa(n)
			p := c.get(path)
			if p.status != 200 {
				t.Fatalf("%s: %d", path, p.status)
			}
			qid, _ := p.doc.Find(`[data-testid=exam-question]`).Attr("data-question-id")
			q, ok := app.Bank.Question(qid)
			if !ok {
				t.Fatalf("%s shows unknown question %q", path, qid)
			}
			qids = append(qids, qid)
			tx := q.Text(examsim.English)
			if got := p.doc.Find(`label.option`).Length(); got != len(tx.Options) {
				t.Fatalf("%s: %d options, want %d", path, got, len(tx.Options))
			}
			// Shown letters run A, B, C… whatever the shuffle.
			p.doc.Find(`label.option input`).Each(func(i int, s *goquery.Selection) {
				if v, _ := s.Attr("value"); v != examsim.ShownLetter(i) {
					t.Errorf("%s: option %d is shown as %q", path, i, v)
				}
			})
			if p.doc.Find(`[data-testid=clock][data-deadline]`).Length() != 1 || p.text(`[data-remaining]`) != "10:00" {
				t.Errorf("%s: clock %q", path, p.text(`[data-remaining]`))
			}
			if p.doc.Find(`[data-testid=palette] button`).Length() != 5 {
				t.Errorf("%s: the palette lacks buttons", path)
			}
			res := c.post(path, path, step.answer(shownLetterOf(t, p, tx, q.Answer)))
			if want := base + step.next; res.status != 303 || res.header.Get("Location") != want {
				t.Fatalf("answer %d: %d → %q, want %q", n, res.status, res.header.Get("Location"), want)
			}
		}})
	}
	scenario.Run(t, append(steps, scenario.Step{Name: "no question asked twice", Run: func(t *testing.T) {
		seen := map[string]bool{}
		for _, id := range qids {
			if seen[id] {
				t.Fatalf("question %s asked twice: %v", id, qids)
			}
			seen[id] = true
		}
	}}, scenario.Step{Name: "a saved answer shows again", Run: func(t *testing.T) {
		p := c.as(t).get(base + "/q/1")
		if p.doc.Find(`input[name=choice][checked]`).Length() != 1 || !strings.Contains(p.doc.Find(`textarea`).Text(), "validation error") {
			t.Error("the saved answer to question 1 is not shown again")
		}
	}}, scenario.Step{Name: "a bogus letter is refused, keeping the input", Run: func(t *testing.T) {
		bad := c.as(t).post(base+"/q/2", base+"/q/2", url.Values{"choice": {"Z"}, "explanation": {"keep me"}})
		if bad.status != 422 || bad.doc.Find(`textarea`).Text() != "keep me" || bad.text(`[data-testid=form-error]`) == "" {
			t.Errorf("a bogus choice: %d, textarea %q, form error %q", bad.status, bad.doc.Find(`textarea`).Text(), bad.text(`[data-testid=form-error]`))
		}
	}}, scenario.Step{Name: "moving through the palette saves too", Run: func(t *testing.T) {
		c := c.as(t)
		checked := c.get(base+"/q/2").doc.Find(`input[name=choice][checked]`).AttrOr("value", "")
		if res := c.post(base+"/q/2", base+"/q/2", url.Values{"choice": {checked}, "go": {"q5"}}); res.header.Get("Location") != base+"/q/5" {
			t.Errorf("palette button went to %q", res.header.Get("Location"))
		}
	}}, scenario.Step{Name: "the review screen", Run: func(t *testing.T) {
		review = c.as(t).get(base + "/review")
		if review.status != 200 {
			t.Fatalf("review: %d", review.status)
		}
		if got := review.doc.Find(`[data-testid=unanswered-item]`); got.Length() != 1 || got.AttrOr("data-position", "") != "5" {
			t.Errorf("unanswered on the review screen: %d", got.Length())
		}
		if got := review.doc.Find(`[data-testid=flagged-item]`); got.Length() != 1 || got.AttrOr("data-position", "") != "5" {
			t.Errorf("flagged on the review screen: %d", got.Length())
		}
		if review.text(`[data-testid=submit-warning]`) == "" {
			t.Error("no warning about the unanswered question")
		}
		if !strings.Contains(review.doc.Find(`[data-testid=palette-5]`).AttrOr("class", ""), "flagged") {
			t.Error("the palette does not mark question 5 flagged")
		}
	}}, scenario.Step{Name: "submit", Run: func(t *testing.T) {
		res := c.as(t).post(base+"/review", base+"/submit", url.Values{})
		if res.status != 303 || res.header.Get("Location") != base+"/results" {
			t.Fatalf("submit: %d %q", res.status, res.header.Get("Location"))
		}
	}}, scenario.Step{Name: "the results", Run: func(t *testing.T) {
		results := c.as(t).get(base + "/results")
		verdict := results.doc.Find(`[data-testid=exam-verdict]`)
		if verdict.AttrOr("data-passed", "") != "false" || !strings.Contains(verdict.Text(), "60%") || !strings.Contains(verdict.Text(), "72%") {
			t.Errorf("verdict: %q passed=%s", squash(verdict.Text()), verdict.AttrOr("data-passed", ""))
		}
		if results.doc.Find(`[data-testid=auto-submitted]`).Length() != 0 {
			t.Error("a submitted exam says it was auto-submitted")
		}
		if results.doc.Find(`[data-testid=concept-row]`).Length() == 0 {
			t.Error("no per-concept breakdown")
		}
		items := results.doc.Find(`[data-testid=result-item]`)
		if items.Length() != 5 {
			t.Fatalf("%d result items, want 5", items.Length())
		}
		items.Each(func(i int, s *goquery.Selection) {
			q, _ := app.Bank.Question(qids[i])
			tx := q.Text(examsim.English)
			wantCorrect := i < 3
			if s.AttrOr("data-correct", "") != strconv.FormatBool(wantCorrect) {
				t.Errorf("item %d: correct = %s", i+1, s.AttrOr("data-correct", ""))
			}
			// Each shown option carries its own explanation, and the right one
			// is the question's key.
			s.Find(`[data-testid^=explained-]`).Each(func(_ int, o *goquery.Selection) {
				own := o.AttrOr("data-own", "")
				for _, opt := range tx.Options {
					if opt.Letter == own && squash(o.Find(".why").Text()) != fragmentText(opt.ExplanationHTML()) {
						t.Errorf("item %d: option %s shows another option's explanation", i+1, own)
					}
				}
				if (o.Find(`[data-testid=right-option]`).Length() == 1) != (own == q.Answer) {
					t.Errorf("item %d: option %s marked right = %v, key %s", i+1, own, o.Find(`[data-testid=right-option]`).Length() == 1, q.Answer)
				}
			})
		})
		first := items.First()
		if band := first.Find(`[data-testid=item-band]`).AttrOr("data-band", ""); band == "" || first.Find(`[data-testid=item-score]`).Length() != 1 {
			t.Error("the explained answer has no explanation score")
		}
		if items.Eq(1).Find(`[data-testid=item-band]`).Length() != 0 {
			t.Error("an unexplained answer shows a band")
		}
	}}, scenario.Step{Name: "only the wrong answers", Run: func(t *testing.T) {
		if wrong := c.as(t).get(base + "/results?show=wrong").doc.Find(`[data-testid=result-item]`); wrong.Length() != 2 {
			t.Errorf("only wrong: %d items, want 2", wrong.Length())
		}
	}}, scenario.Step{Name: "the answers are exam attempts on /me", Run: func(t *testing.T) {
		// The unanswered question does not count.
		me := c.as(t).get("/me")
		if n := me.doc.Find(`[data-testid=attempt-row][data-source=exam]`).Length(); n != 4 {
			t.Errorf("/me lists %d exam attempts, want 4", n)
		}
		if me.doc.Find(`[data-testid=exam-row]`).Length() != 1 {
			t.Error("/me does not list the exam")
		}
	}}, scenario.Step{Name: "answering after submission is refused", Run: func(t *testing.T) {
		if review == nil {
			t.Fatal("no review page to take the form token from")
		}
		if late := c.as(t).postRaw(base+"/q/5", url.Values{"_csrf": {review.token(t)}, "choice": {"A"}}); late.status != 409 || late.doc.Find(`[data-testid=exam-closed]`).Length() != 1 {
			t.Errorf("answer after submission: %d", late.status)
		}
	}})...)
}

// TestExamDeadlineIsTheServers checks the countdown across reloads, refuses
// an answer sent after the deadline, and submits the exam automatically
// with what was saved before it, on the app's clock (no sleeping).
func TestExamDeadlineIsTheServers(t *testing.T) {
	app := webtest.Start(t)
	c := newClient(t, app.Server)
	c.get("/?lang=en")
	base := startExam(t, c, url.Values{"count": {"3"}, "minutes": {"2"}})

	p := c.get(base + "/q/1")
	deadline := p.doc.Find(`[data-deadline]`).AttrOr("data-deadline", "")
	if p.text(`[data-remaining]`) != "2:00" {
		t.Errorf("clock at start: %q", p.text(`[data-remaining]`))
	}
	app.Clock.Advance(45 * time.Second)
	p = c.get(base + "/q/1") // a reload keeps the deadline
	if p.text(`[data-remaining]`) != "1:15" || p.doc.Find(`[data-deadline]`).AttrOr("data-deadline", "") != deadline {
		t.Errorf("after a reload: clock %q, deadline %s (was %s)", p.text(`[data-remaining]`), p.doc.Find(`[data-deadline]`).AttrOr("data-deadline", ""), deadline)
	}
	token := p.token(t)
	q, _ := app.Bank.Question(p.doc.Find(`[data-testid=exam-question]`).AttrOr("data-question-id", ""))
	right := shownLetterOf(t, p, q.Text(examsim.English), q.Answer)
	if res := c.postRaw(base+"/q/1", url.Values{"_csrf": {token}, "choice": {right}, "go": {"next"}}); res.status != 303 {
		t.Fatalf("answer in time: %d", res.status)
	}

	app.Clock.Advance(75 * time.Second) // exactly at the deadline: too late
	late := c.postRaw(base+"/q/2", url.Values{"_csrf": {token}, "choice": {"A"}, "go": {"next"}})
	if late.status != 409 || late.doc.Find(`[data-testid=exam-closed]`).Length() != 1 {
		t.Fatalf("answer at the deadline: %d", late.status)
	}
	if msg := late.text(`[data-testid=exam-closed] [role=alert]`); !strings.Contains(msg, "not saved") {
		t.Errorf("the refusal does not say the answer was not saved: %q", msg)
	}
	if href, _ := late.doc.Find(`[data-testid=see-results]`).Attr("href"); href != base+"/results" {
		t.Errorf("no way to the results: %q", href)
	}

	results := c.get(base + "/results")
	if results.status != 200 || results.doc.Find(`[data-testid=auto-submitted]`).Length() != 1 {
		t.Fatalf("results after the deadline: %d", results.status)
	}
	items := results.doc.Find(`[data-testid=result-item]`)
	if items.Eq(0).AttrOr("data-correct", "") != "true" || items.Eq(1).Find(`[data-testid=item-verdict]`).Text() != "Not answered" {
		t.Errorf("the answer in time should count and the late one not: %q / %q",
			items.Eq(0).AttrOr("data-correct", ""), items.Eq(1).Find(`[data-testid=item-verdict]`).Text())
	}
	// Every way into the exam now leads to the results.
	for _, path := range []string{base, base + "/q/1", base + "/review"} {
		if p := c.get(path); p.status != 303 || p.header.Get("Location") != base+"/results" {
			t.Errorf("%s after submission: %d %q", path, p.status, p.header.Get("Location"))
		}
	}

	// An exam left alone submits itself when next visited.
	other := startExam(t, c, url.Values{"count": {"2"}, "minutes": {"1"}})
	app.Clock.Advance(2 * time.Minute)
	if p := c.get(other); p.status != 303 || p.header.Get("Location") != other+"/results" {
		t.Fatalf("an expired exam: %d %q", p.status, p.header.Get("Location"))
	}
	if v := c.get(other+"/results").doc.Find(`[data-testid=exam-verdict]`).AttrOr("data-passed", ""); v != "false" {
		t.Errorf("an exam with no answers passed=%q", v)
	}
}

// TestExamsArePrivate checks that one learner can neither see nor act on
// another's exam: every route answers 404, as for an exam that does not
// exist.
func TestExamsArePrivate(t *testing.T) {
	app := webtest.Start(t)
	owner := newClient(t, app.Server)
	base := startExam(t, owner, url.Values{})
	intruder := newClient(t, &httptest.Server{URL: owner.base})
	token := intruder.get("/exam").token(t)
	for _, path := range []string{base, base + "/q/1", base + "/review", base + "/results", "/exam/99999", "/exam/abc/q/1"} {
		if p := intruder.get(path); p.status != 404 || p.doc.Find(`[data-testid=error]`).Length() != 1 {
			t.Errorf("GET %s by another learner: %d", path, p.status)
		}
	}
	for _, path := range []string{base + "/q/1", base + "/submit"} {
		if p := intruder.postRaw(path, url.Values{"_csrf": {token}, "choice": {"A"}}); p.status != 404 {
			t.Errorf("POST %s by another learner: %d", path, p.status)
		}
	}
	// The owner's exam is untouched.
	if p := owner.get(base + "/review"); p.status != 200 || p.doc.Find(`[data-testid=unanswered-item]`).Length() != 5 {
		t.Errorf("the owner's exam changed: %d", p.status)
	}
	if p := owner.get(base + "/q/9"); p.status != 404 {
		t.Errorf("question 9 of 5: %d", p.status)
	}
}

func TestMissedRecentlyPicksWrongAnswers(t *testing.T) {
	app := webtest.Start(t)
	c := newClient(t, app.Server)
	c.post("/practice/malformed-order-id", "/practice/malformed-order-id", url.Values{"choice": {"B"}})
	c.post("/practice/empty-result-retry-loop", "/practice/empty-result-retry-loop", url.Values{"choice": {"D"}})
	base := startExam(t, c, url.Values{"missed": {"1"}, "count": {"10"}})
	review := c.get(base + "/review")
	if n := review.doc.Find(`[data-testid=unanswered-item]`).Length(); n != 1 {
		t.Fatalf("a missed-only exam has %d questions, want the 1 missed", n)
	}
	if qid := c.get(base+"/q/1").doc.Find(`[data-testid=exam-question]`).AttrOr("data-question-id", ""); qid != "malformed-order-id" {
		t.Errorf("missed-only exam asks %q", qid)
	}
}
