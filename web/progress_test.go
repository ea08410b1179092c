package web_test

import (
	"encoding/csv"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/examsim/examsim/web/webtest"
)

// answers a learner gives in practice, in their language.
var practiceAnswers = []struct {
	lang, qid, choice, explanation string
}{
	{"th", "malformed-order-id", "A", "เป็น validation error เพราะ input ผิดรูปแบบ ส่งซ้ำก็ไม่ผ่าน ต้องแก้ input ก่อน"},
	{"vi", "empty-result-retry-loop", "D", "Đây là valid empty result: truy vấn chạy xong và không tìm thấy gì, retry không giúp được gì."},
	{"en", "refund-over-limit-retries", "A", "=HYPERLINK(\"http://evil.example\",\"click\")"},
	{"en", "malformed-order-id", "B", "@SUM(A1:A2) +1 -1"},
}

func answerAll(t *testing.T, c *client) {
	t.Helper()
	for _, a := range practiceAnswers {
		path := "/practice/" + a.qid + "?lang=" + a.lang
		if p := c.post(path, "/practice/"+a.qid, url.Values{"choice": {a.choice}, "explanation": {a.explanation}}); p.status != 303 {
			t.Fatalf("answer %s in %s: %d", a.qid, a.lang, p.status)
		}
	}
}

func TestExportCSVAndJSON(t *testing.T) {
	app := webtest.Start(t)
	c := newClient(t, app.Server)
	answerAll(t, c)
	c.get("/?lang=th") // titles follow the page language

	p := c.get("/me/history.csv")
	if p.status != 200 || !strings.HasPrefix(p.header.Get("Content-Type"), "text/csv") ||
		!strings.Contains(p.header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("csv: %d %q %q", p.status, p.header.Get("Content-Type"), p.header.Get("Content-Disposition"))
	}
	if !strings.HasPrefix(p.body, "\ufeff") {
		t.Fatal("the CSV has no UTF-8 byte order mark")
	}
	rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(p.body, "\ufeff"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(practiceAnswers)+1 || rows[0][0] != "attempt_id" {
		t.Fatalf("%d CSV rows, header %v", len(rows), rows[0])
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	want := map[string]string{ // explanation as a spreadsheet must see it
		practiceAnswers[0].explanation: practiceAnswers[0].explanation, // Thai, unchanged
		practiceAnswers[1].explanation: practiceAnswers[1].explanation, // Vietnamese, unchanged
		practiceAnswers[2].explanation: "'" + practiceAnswers[2].explanation,
		practiceAnswers[3].explanation: "'" + practiceAnswers[3].explanation,
	}
	for i, row := range rows[1:] {
		a := practiceAnswers[i] // oldest first
		if got := row[col["explanation"]]; got != want[a.explanation] {
			t.Errorf("row %d explanation = %q, want %q", i+1, got, want[a.explanation])
		}
		if row[col["lang"]] != a.lang || row[col["question_id"]] != a.qid || row[col["source"]] != "practice" {
			t.Errorf("row %d = %v", i+1, row)
		}
		q, _ := app.Bank.Question(a.qid)
		if row[col["question_title"]] != q.Text("th").Title {
			t.Errorf("row %d title %q is not the Thai title", i+1, row[col["question_title"]])
		}
	}

	j := c.get("/me/history.json")
	if j.status != 200 || !strings.HasPrefix(j.header.Get("Content-Type"), "application/json") {
		t.Fatalf("json: %d %q", j.status, j.header.Get("Content-Type"))
	}
	var doc struct {
		Learner struct {
			ID int64 `json:"id"`
		} `json:"learner"`
		Attempts []struct {
			QuestionID  string `json:"question_id"`
			Lang        string `json:"lang"`
			Explanation string `json:"explanation"`
			Source      string `json:"source"`
		} `json:"attempts"`
		Exams       []json.RawMessage `json:"exams"`
		ReviewCards []struct {
			QuestionID string `json:"question_id"`
		} `json:"review_cards"`
	}
	if err := json.Unmarshal([]byte(j.body), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Learner.ID == 0 || len(doc.Attempts) != len(practiceAnswers) || doc.Exams == nil || len(doc.ReviewCards) == 0 {
		t.Fatalf("json export: %+v", doc)
	}
	for i, a := range doc.Attempts {
		if a.Explanation != practiceAnswers[i].explanation || a.Lang != practiceAnswers[i].lang || a.Source != "practice" {
			t.Errorf("json attempt %d = %+v", i, a)
		}
	}

	// Another visitor downloads an empty history, never someone else's.
	stranger := newClient(t, app.Server)
	if p := stranger.get("/me/history.json"); p.status != 200 || strings.Contains(p.body, "validation") {
		t.Errorf("a stranger's export: %d %s", p.status, p.body)
	}
}

func TestDeleteAccountNeedsTypedConfirmation(t *testing.T) {
	app := webtest.Start(t)
	c := newClient(t, app.Server)
	answerAll(t, c)
	startExam(t, c, url.Values{})
	if p := c.post("/register", "/register", url.Values{"username": {"lan"}, "password": {"long enough"}}); p.status != 303 {
		t.Fatalf("register: %d", p.status)
	}
	form := c.get("/me/delete?lang=vi")
	if form.doc.Find(`[data-testid=delete-form] input[name=_csrf]`).Length() != 1 {
		t.Fatal("the delete form has no CSRF token")
	}
	// Without the token, or with the wrong word, nothing happens.
	if p := c.postRaw("/me/delete", url.Values{"confirm": {"XÓA"}}); p.status != 403 {
		t.Errorf("delete without CSRF: %d", p.status)
	}
	if p := c.post("/me/delete", "/me/delete", url.Values{"confirm": {"có"}}); p.status != 422 ||
		p.text(`[data-testid=form-error]`) == "" || p.doc.Find(`input[name=confirm]`).AttrOr("value", "") != "có" {
		t.Errorf("wrong confirmation: %d", p.status)
	}
	if n := c.get("/me").doc.Find(`[data-testid=attempt-row]`).Length(); n != len(practiceAnswers) {
		t.Fatalf("history after a refused deletion: %d rows", n)
	}
	exams := c.get("/me").doc.Find(`[data-testid=exam-row] a`).AttrOr("href", "")

	// The Vietnamese word, in any case, confirms.
	p := c.post("/me/delete", "/me/delete", url.Values{"confirm": {" xóa "}})
	if p.status != 303 || p.header.Get("Location") != "/account/deleted" {
		t.Fatalf("delete: %d %q", p.status, p.header.Get("Location"))
	}
	if done := c.get("/account/deleted"); done.doc.Find(`[data-testid=account-deleted]`).Length() != 1 {
		t.Error("no confirmation page")
	}
	if n := c.get("/me").doc.Find(`[data-testid=attempt-row]`).Length(); n != 0 {
		t.Errorf("%d attempts left after deletion", n)
	}
	if p := c.get(exams); p.status != 404 {
		t.Errorf("the deleted learner's exam %s: %d", exams, p.status)
	}
	if p := c.post("/login", "/login", url.Values{"username": {"lan"}, "password": {"long enough"}}); p.status != 401 {
		t.Errorf("login to a deleted account: %d", p.status)
	}
}

func TestReviewDueComesBackOnSchedule(t *testing.T) {
	app := webtest.Start(t)
	c := newClient(t, app.Server)
	c.post("/practice/malformed-order-id", "/practice/malformed-order-id", url.Values{"choice": {"B"}}) // wrong
	c.post("/practice/empty-result-retry-loop", "/practice/empty-result-retry-loop", url.Values{"choice": {"D"},
		"explanation": {"It is a valid empty result: the query ran and matched nothing, so retrying won't help."}}) // right, well explained
	if p := c.get("/?lang=en"); p.doc.Find(`[data-testid=review-due-link]`).Length() != 0 {
		t.Error("a review is due the same day")
	}
	if p := c.get("/review/next"); p.header.Get("Location") != "/review" {
		t.Errorf("nothing due: /review/next went to %q", p.header.Get("Location"))
	}
	app.Clock.Advance(25 * time.Hour)
	home := c.get("/")
	if got := home.text(`[data-testid=review-due-link]`); got != "Review due (1)" {
		t.Errorf("home shows %q, want Review due (1)", got)
	}
	queue := c.get("/review")
	if items := queue.doc.Find(`[data-testid=review-item]`); items.Length() != 1 || items.AttrOr("data-question-id", "") != "malformed-order-id" {
		t.Errorf("review queue: %d items", items.Length())
	}
	// A session walks the one due card, with its options in an order of
	// the session's own, and the answer is stored under the bank's letter.
	if p := c.post("/review", "/review/start", url.Values{"mode": {"review"}}); p.header.Get("Location") != "/review/session" {
		t.Fatalf("starting a session went to %q", p.header.Get("Location"))
	}
	card := c.get("/review/session")
	if got := card.doc.Find(`[data-testid=review-card]`); got.AttrOr("data-position", "") != "1" || got.AttrOr("data-total", "") != "1" {
		t.Fatalf("session card: %q", card.body)
	}
	if p := c.get("/review/next"); p.header.Get("Location") != "/review/session" {
		t.Errorf("/review/next during a session went to %q", p.header.Get("Location"))
	}
	shown := card.doc.Find(`[data-own=A]`).AttrOr("data-testid", "")
	res := c.post("/review/session", "/review/session", url.Values{"position": {"0"}, "choice": {strings.TrimPrefix(shown, "option-")},
		"explanation": {"A validation error: the input is malformed, the agent can fix the id, and the same input fails again."}})
	loc := res.header.Get("Location")
	if !strings.HasSuffix(loc, "?session=1") {
		t.Fatalf("the answer went to %q", loc)
	}
	result := c.get(loc)
	if v := result.doc.Find(`[data-testid=verdict]`).AttrOr("data-correct", ""); v != "true" {
		t.Errorf("the right option under shown letter %s was stored as wrong (%q)", shown, v)
	}
	if got := result.doc.Find(`[data-testid=explained-`+strings.TrimPrefix(shown, "option-")+`]`).AttrOr("data-own", ""); got != "A" {
		t.Errorf("the result lists under shown letter %s the option %q, want A as the session showed it", shown, got)
	}
	if result.doc.Find(`[data-testid=review-next]`).AttrOr("href", "") != "/review/session" {
		t.Error("the result does not lead back to the session")
	}
	if c.get("/review/session").doc.Find(`[data-testid=review-done]`).Length() != 1 {
		t.Error("the session is not done after its one card")
	}
	// The same form again counts once.
	if p := c.post("/review", "/review/session", url.Values{"position": {"0"}, "choice": {"A"}}); p.header.Get("Location") != "/review/session" {
		t.Errorf("a form sent twice went to %q", p.header.Get("Location"))
	}
	if p := c.get("/"); p.doc.Find(`[data-testid=review-due-link]`).Length() != 0 {
		t.Error("the reviewed question is still due")
	}
	if c.get("/review").doc.Find(`[data-testid=review-upcoming]`).Length() != 1 {
		t.Error("the reviewed question is not listed as coming up")
	}
}

// TestProgressChartsInEveryLanguage checks the /me charts: accessible SVG
// with a title and a description, a table with the same numbers, and words
// in the page's language.
func TestProgressChartsInEveryLanguage(t *testing.T) {
	app := webtest.Start(t)
	c := newClient(t, app.Server)
	answerAll(t, c)
	titles := map[string]bool{}
	for _, lang := range []string{"vi", "pl", "th", "en"} {
		p := c.get("/me?lang=" + lang)
		svgs := p.doc.Find(`svg[role=img]`)
		if svgs.Length() != 3 {
			t.Fatalf("%s: %d charts, want 3", lang, svgs.Length())
		}
		svgs.Each(func(_ int, s *goquery.Selection) {
			for _, id := range strings.Fields(s.AttrOr("aria-labelledby", "")) {
				if strings.TrimSpace(p.doc.Find("#"+id).Text()) == "" {
					t.Errorf("%s: chart label #%s is empty", lang, id)
				}
			}
			if s.Find("title").Length() != 1 || s.Find("desc").Length() != 1 {
				t.Errorf("%s: a chart lacks <title> or <desc>", lang)
			}
			if s.Closest("figure").Find("details table tbody tr").Length() == 0 {
				t.Errorf("%s: a chart has no table alternative", lang)
			}
		})
		titles[p.text(`[data-testid=chart-accuracy] svg title`)] = true
		if p.doc.Find(`[data-testid=readiness]`).AttrOr("data-level", "") != "none" {
			t.Errorf("%s: readiness with 3 questions tried should say there is too little data", lang)
		}
		if p.doc.Find(`[data-testid=weak-concept]`).Length() == 0 {
			t.Errorf("%s: no weakest concepts after wrong answers", lang)
		}
		if p.doc.Find(`[data-testid=export-csv]`).Length() != 1 || p.doc.Find(`[data-testid=delete-account]`).Length() != 1 {
			t.Errorf("%s: no download or delete links", lang)
		}
	}
	if len(titles) != 4 {
		t.Errorf("chart titles are not translated: %v", titles)
	}
	// The timeline table counts today's answers.
	row := c.get("/me?lang=en").doc.Find(`[data-testid=timeline-table] tbody tr`)
	if row.Length() != 1 || strings.TrimSpace(row.Find("td").First().Text()) != "4" {
		t.Errorf("timeline table: %d rows, %q", row.Length(), row.Find("td").First().Text())
	}
}
