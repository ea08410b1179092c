package web_test

import (
	"net/url"
	"slices"
	"strconv"
	"testing"

	"github.com/examsim/examsim/web/webtest"
)

// examQuestionIDs reads an exam's question ids in the order shown, from
// its results page.
func examQuestionIDs(t *testing.T, c *client, exam string) []string {
	t.Helper()
	var ids []string
	for n := 1; ; n++ {
		p := c.get(exam + "/q/" + strconv.Itoa(n))
		if p.status != 200 {
			return ids
		}
		ids = append(ids, p.doc.Find(`[data-testid=exam-question]`).AttrOr("data-question-id", ""))
	}
}

// TestBlueprintExamAndRetries: a blueprint exam draws the default 11
// questions over the six objectives by weight, reports a scaled score and
// a result per objective; "retry only the ones I got wrong" sits exactly
// the wrong ones, and "sit this exam again" the same questions.
func TestBlueprintExamAndRetries(t *testing.T) {
	app := webtest.Start(t)
	c := newClient(t, app.Server)
	exam := startExam(t, c, url.Values{"count": {"11"}, "blueprint": {"1"}})
	ids := examQuestionIDs(t, c, exam)
	if len(ids) != 11 {
		t.Fatalf("%d questions, want 11", len(ids))
	}
	// Answer the first three right, the rest wrong (A, or B where A is the key).
	var wrong []string
	for i, id := range ids {
		q, _ := app.Bank.Question(id)
		own := q.Answer
		if i >= 3 {
			own = "A"
			if q.Answer == "A" {
				own = "B"
			}
			wrong = append(wrong, id)
		}
		page := c.get(exam + "/q/" + strconv.Itoa(i+1))
		shown := shownLetterOf(t, page, q.In("en"), own)
		c.post(exam+"/q/"+strconv.Itoa(i+1), exam+"/q/"+strconv.Itoa(i+1), url.Values{"choice": {shown}, "go": {"next"}})
	}
	c.post(exam+"/review", exam+"/submit", url.Values{})
	res := c.get(exam + "/results?lang=en")
	if got := res.doc.Find(`[data-testid=scaled-score]`).AttrOr("data-score", ""); got != "272" { // 1000 × 3/11
		t.Errorf("scaled score %q, want 272", got)
	}
	rows := res.doc.Find(`[data-testid=objective-result]`)
	total := 0
	var per []int
	for i := range rows.Length() {
		n, _ := strconv.Atoi(rows.Eq(i).AttrOr("data-total", ""))
		per = append(per, n)
		total += n
	}
	if rows.Length() != 6 || total != 11 || slices.Max(per)-slices.Min(per) > 1 {
		t.Errorf("objectives report %v: want the 11 questions over six objectives of equal weight", per)
	}

	retry := c.post(exam+"/results", exam+"/again", url.Values{"which": {"wrong"}})
	m := examPath.FindStringSubmatch(retry.header.Get("Location"))
	if m == nil {
		t.Fatalf("retry wrong went to %q", retry.header.Get("Location"))
	}
	got := examQuestionIDs(t, c, "/exam/"+m[1])
	if !sameSet(got, wrong) {
		t.Errorf("retry sits %v, want the wrong ones %v", got, wrong)
	}
	again := c.post(exam+"/results", exam+"/again", url.Values{"which": {"all"}})
	m = examPath.FindStringSubmatch(again.header.Get("Location"))
	if m == nil {
		t.Fatalf("sit again went to %q", again.header.Get("Location"))
	}
	if got := examQuestionIDs(t, c, "/exam/"+m[1]); !sameSet(got, ids) || slices.Equal(got, ids) {
		t.Errorf("sitting again: %v, want the same questions %v in a new order", got, ids)
	}
	if p := c.post(exam+"/results", exam+"/again", url.Values{"which": {"some"}}); p.status != 400 {
		t.Errorf("which=some: status %d", p.status)
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
