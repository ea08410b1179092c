package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/i18n"
	"github.com/examsim/examsim/store"
)

var attemptLocation = regexp.MustCompile(`^/attempts/([0-9]+)$`)

// practise answers a question with an explanation and returns the attempt's
// path and id.
func practise(t *testing.T, c *client, qid, choice, expl string) (path, id string) {
	t.Helper()
	p := c.post("/practice/"+qid, "/practice/"+qid, url.Values{"choice": {choice}, "explanation": {expl}})
	m := attemptLocation.FindStringSubmatch(p.header.Get("Location"))
	if p.status != http.StatusSeeOther || m == nil {
		t.Fatalf("answer %s: %d %q", qid, p.status, p.header.Get("Location"))
	}
	return m[0], m[1]
}

func TestFlagRegradeAndTheHumanBand(t *testing.T) {
	a := newClassApp(t)
	ines := a.account("ines", examsim.RoleInstructor)
	ivan := a.account("ivan", examsim.RoleInstructor)
	_, code := a.startRun(ines, "optional")
	lena := a.account("lena", examsim.RoleLearner)
	lena.get("/?lang=pl")
	if p := lena.post("/join?code="+code, "/join", url.Values{"code": {code}, "nickname": {"Lena"}, "lang": {"pl"}}); p.status != http.StatusSeeOther {
		t.Fatalf("lena joins: %d", p.status)
	}
	attempt, id := practise(t, lena, "malformed-order-id", "B", "Coś z identyfikatorem")
	before := lena.get(attempt)
	autoBand := before.doc.Find("[data-testid=band]").AttrOr("data-band", "")
	if before.doc.Find("[data-testid=flag-form]").Length() != 1 {
		t.Fatal("the attempt page has no flag form")
	}

	// A comment over the limit comes back, kept, with a Polish message.
	long := strings.Repeat("ż", examsim.MaxFlagComment+1)
	p := lena.post(attempt, attempt+"/flag", url.Values{"comment": {long}})
	if p.status != http.StatusUnprocessableEntity || p.doc.Find("textarea[name=comment]").Text() != long ||
		!strings.Contains(p.text("[data-testid=form-error]"), "Twój komentarz jest za długi") {
		t.Fatalf("an over-long comment: %d %q", p.status, p.text("[data-testid=form-error]"))
	}
	// Flagging twice is one flag; the first comment stays.
	for _, comment := range []string{"Przecież to błąd walidacji", ""} {
		p = lena.post(attempt, attempt+"/flag", url.Values{"comment": {comment}})
		if p.status != http.StatusSeeOther || p.header.Get("Location") != attempt+"#flag-"+id {
			t.Fatalf("flag: %d %q", p.status, p.header.Get("Location"))
		}
	}
	flagged := lena.get(attempt)
	if s := flagged.text("[data-testid=flag-status]"); !strings.Contains(s, "Zgłoszenie z") || flagged.text("[data-testid=flag-comment]") != "Przecież to błąd walidacji" {
		t.Errorf("the flag's state: %q / %q", s, flagged.text("[data-testid=flag-comment]"))
	}
	if flagged.doc.Find("[data-testid=flag-form]").Length() != 0 {
		t.Error("an open flag still offers the form")
	}

	// The teacher of lena's class sees it; another teacher does not.
	row := func(c *client) int {
		return c.get("/class/grading").doc.Find(`[data-testid=grading-row][data-kind=attempt][data-id="` + id + `"][data-flagged=true]`).Length()
	}
	if row(ines) != 1 {
		t.Fatal("the flagged attempt is not in its teacher's queue")
	}
	if row(ivan) != 0 {
		t.Error("another teacher sees the flagged attempt")
	}
	// The queue speaks all four languages.
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range examsim.Langs {
		q := ines.get("/class/grading?lang=" + string(l))
		if got, want := q.text("h1"), cat.T(l, "grading.title"); got != want || q.text("[data-testid=grading-row] td") == "" {
			t.Errorf("the %s queue: title %q, want %q", l, got, want)
		}
	}
	grading := "/class/grading/attempt/" + id
	item := ines.get(grading)
	if item.status != 200 || item.text("[data-testid=learner-note] p") != "Przecież to błąd walidacji" {
		t.Fatalf("the regrade page: %d %q", item.status, item.text("[data-testid=learner-note]"))
	}
	if p := ivan.get(grading); p.status != http.StatusNotFound {
		t.Errorf("another teacher's regrade page: %d", p.status)
	}

	// A band out of range comes back with the ticks kept.
	ines.get("/?lang=th")
	tick := item.doc.Find("input[name=concept]").First().AttrOr("value", "")
	p = ines.post(grading, grading, url.Values{"band": {"7"}, "concept": {tick}})
	if p.status != http.StatusUnprocessableEntity || !strings.Contains(p.text("[data-testid=form-error]"), "เลือกระดับ 0 ถึง 3") ||
		tick == "" || p.doc.Find(`input[name=concept][value="`+tick+`"]`).AttrOr("checked", "no") == "no" {
		t.Fatalf("band 7: %d %q, tick %q not kept", p.status, p.text("[data-testid=form-error]"), tick)
	}
	if p := ines.post(grading, grading, url.Values{"band": {"2"}, "concept": {"no-such-concept"}}); p.status != http.StatusUnprocessableEntity {
		t.Errorf("an unknown concept: %d", p.status)
	}
	p = ines.post(grading, grading, url.Values{"band": {"3"}})
	if p.status != http.StatusSeeOther || p.header.Get("Location") != "/class/grading?saved=3" {
		t.Fatalf("regrade: %d %q %s", p.status, p.header.Get("Location"), p.text("[data-testid=form-error]"))
	}
	if row(ines) != 0 {
		t.Error("the regraded attempt is still in the queue")
	}

	// lena now sees the teacher's band on the attempt, /me and her export.
	after := lena.get(attempt)
	if b := after.doc.Find("[data-testid=band]"); b.AttrOr("data-band", "") != "3" || b.AttrOr("data-human", "") != "true" {
		t.Errorf("the attempt's band after the regrade: %q", b.AttrOr("data-band", ""))
	}
	if !strings.Contains(after.text("[data-testid=human-grade]"), "poziom 3") {
		t.Errorf("the regrade note: %q", after.text("[data-testid=human-grade]"))
	}
	if after.doc.Find("[data-testid=flag-form]").Length() != 1 {
		t.Error("a regraded score cannot be flagged again")
	}
	me := lena.get("/me").doc.Find("[data-testid=attempt-row] [data-testid=history-band]")
	if me.AttrOr("data-band", "") != "3" || me.AttrOr("data-human", "") != "true" {
		t.Errorf("/me shows band %q", me.AttrOr("data-band", ""))
	}
	var doc struct {
		Attempts []struct {
			Band     int  `json:"band"`
			AutoBand int  `json:"auto_band"`
			Regraded bool `json:"regraded"`
		}
	}
	if err := json.Unmarshal([]byte(lena.get("/me/history.json").body), &doc); err != nil || len(doc.Attempts) != 1 {
		t.Fatalf("export: %v", err)
	}
	if got := doc.Attempts[0]; got.Band != 3 || !got.Regraded || autoBand == "" || string(rune('0'+got.AutoBand)) != autoBand {
		t.Errorf("the export: %+v (automatic band was %s)", got, autoBand)
	}
}

func TestFlagFromTheExamReview(t *testing.T) {
	a := newClassApp(t)
	c := newClient(t, a.Server)
	c.get("/?lang=th")
	base := startExam(t, c, url.Values{"count": {"1"}})
	q1 := base + "/q/1"
	if p := c.post(q1, q1, url.Values{"choice": {"A"}, "explanation": {"ต้องตรวจ id ก่อน ไม่ควร retry"}, "go": {"review"}}); p.status != http.StatusSeeOther {
		t.Fatalf("answer: %d", p.status)
	}
	if p := c.post(base+"/review", base+"/submit", url.Values{}); p.status != http.StatusSeeOther {
		t.Fatalf("submit: %d", p.status)
	}
	results := c.get(base + "/results")
	form := results.doc.Find("[data-testid=item-flag-form]")
	action := form.AttrOr("action", "")
	if form.Length() != 1 || !strings.HasPrefix(action, "/attempts/") || form.Find("input[name=back]").AttrOr("value", "") != "exam" {
		t.Fatalf("the exam review's flag form: %d %q", form.Length(), action)
	}
	attemptID := strings.TrimSuffix(strings.TrimPrefix(action, "/attempts/"), "/flag")
	p := c.post(base+"/results", action, url.Values{"comment": {"ฉันคิดว่าตอบถูก"}, "back": {"exam"}})
	if p.status != http.StatusSeeOther || p.header.Get("Location") != base+"/results#flag-"+attemptID {
		t.Fatalf("flag from the exam: %d %q", p.status, p.header.Get("Location"))
	}
	if s := c.get(base + "/results").text("[data-testid=item-flag-status]"); !strings.Contains(s, "คุณแจ้งว่าคะแนนนี้ผิด") {
		t.Errorf("the exam review's flag state: %q", s)
	}
	// Any other back goes to the attempt, never elsewhere.
	if p := c.post("/exam", action, url.Values{"back": {"https://example.org/"}}); p.header.Get("Location") != "/attempts/"+attemptID+"#flag-"+attemptID {
		t.Errorf("a foreign back: %q", p.header.Get("Location"))
	}
	// An admin sees a flag from outside any class; nobody else may flag it.
	admin := a.account("ada", examsim.RoleAdmin)
	if n := admin.get("/class/grading").doc.Find(`[data-testid=grading-row][data-id="` + attemptID + `"]`).Length(); n != 1 {
		t.Errorf("the admin's queue lacks the exam flag")
	}
	other := newClient(t, a.Server)
	if p := other.post("/exam", action, url.Values{}); p.status != http.StatusNotFound {
		t.Errorf("flagging another learner's attempt: %d", p.status)
	}
}

func TestRegradeAClassAnswer(t *testing.T) {
	a := newClassApp(t)
	ines := a.account("ines", examsim.RoleInstructor)
	ivan := a.account("ivan", examsim.RoleInstructor)
	room, code := a.startRun(ines, "optional")
	student := a.join(code, "Łucja", "pl")
	control(t, ines, room, "start", -1)
	q, _ := a.Bank.Question(classQuestions[0])
	if p := answer(t, student, room, 0, q.Answer, "Pusty wynik to nie błąd"); p.status != http.StatusOK {
		t.Fatalf("the student's answer: %d %s", p.status, p.body)
	}
	// Answered means stored: the room acknowledges an answer once committed.
	answers, err := store.NewClassroomService(a.DB).ListAnswers(context.Background(), a.runID(t, room))
	if err != nil {
		t.Fatal(err)
	}
	if len(answers) != 1 {
		t.Fatalf("%d answers stored", len(answers))
	}
	path := "/class/grading/answer/" + strconv.FormatInt(answers[0].ID, 10)
	page := ines.get(path)
	if page.status != http.StatusOK || !strings.Contains(page.text("[data-testid=regrade]"), "Łucja") {
		t.Fatalf("the class answer's regrade page: %d", page.status)
	}
	if p := ivan.get(path); p.status != http.StatusNotFound {
		t.Errorf("another teacher: %d", p.status)
	}
	if p := ines.post(path, path, url.Values{"band": {"2"}}); p.status != http.StatusSeeOther {
		t.Fatalf("regrade: %d %s", p.status, p.text("[data-testid=form-error]"))
	}
	if got := ines.get(path).text("[data-testid=already-regraded]"); !strings.Contains(got, "2") {
		t.Errorf("the regrade page after saving: %q", got)
	}
}

// TestTeachersNoteBesideTheRegradedBand: the teacher writes a note with a
// regrade; one over the limit comes back in the teacher's language with
// the band, ticks and note kept; the learner reads the note, escaped,
// beside the regraded band on the attempt page, in /me's history and in the
// exam's review, and the teacher finds it again on the regrade page.
func TestTeachersNoteBesideTheRegradedBand(t *testing.T) {
	a := newClassApp(t)
	learner := newClient(t, a.Server)
	learner.get("/?lang=vi")
	attempt, attemptID := practise(t, learner, "malformed-order-id", "B", "Lỗi validation, không retry")
	base := startExam(t, learner, url.Values{"count": {"1"}})
	q1 := base + "/q/1"
	if p := learner.post(q1, q1, url.Values{"choice": {"A"}, "explanation": {"Cần kiểm tra id, không retry"}, "go": {"review"}}); p.status != http.StatusSeeOther {
		t.Fatalf("answer the exam: %d", p.status)
	}
	if p := learner.post(base+"/review", base+"/submit", url.Values{}); p.status != http.StatusSeeOther {
		t.Fatalf("submit: %d", p.status)
	}
	examAttempt := strings.TrimSuffix(strings.TrimPrefix(learner.get(base+"/results").doc.Find("[data-testid=item-flag-form]").AttrOr("action", ""), "/attempts/"), "/flag")
	if examAttempt == "" {
		t.Fatal("the exam review has no flag form to name its attempt")
	}

	admin := a.account("ada", examsim.RoleAdmin)
	admin.get("/?lang=pl")
	grading := "/class/grading/attempt/" + attemptID
	form := admin.get(grading)
	if form.doc.Find("textarea[name=note][data-testid=teacher-note-input]").Length() != 1 || form.doc.Find(`label[for=teacher-note]`).Text() == "" {
		t.Fatal("the regrade page has no labelled note field")
	}
	tick := form.doc.Find("input[name=concept]").First().AttrOr("value", "")
	long := strings.Repeat("ż", examsim.MaxTeacherNote+1)
	p := admin.post(grading, grading, url.Values{"band": {"2"}, "concept": {tick}, "note": {long}})
	if p.status != http.StatusUnprocessableEntity || !strings.Contains(p.text("[data-testid=form-error]"), "Uwaga ma 1001 znaków; limit to 1000") ||
		p.doc.Find("textarea[name=note]").Text() != long || p.doc.Find(`[data-testid=band-2]`).AttrOr("checked", "no") == "no" ||
		p.doc.Find(`input[name=concept][value="`+tick+`"]`).AttrOr("checked", "no") == "no" {
		t.Fatalf("an over-long note: %d %q, band, tick or note not kept", p.status, p.text("[data-testid=form-error]"))
	}
	note := `Đúng hướng: <script>alert("x")</script> & nhớ nêu "isRetryable".`
	for _, id := range []string{attemptID, examAttempt} {
		path := "/class/grading/attempt/" + id
		if p := admin.post(path, path, url.Values{"band": {"3"}, "note": {"  " + note + "\n"}}); p.status != http.StatusSeeOther {
			t.Fatalf("regrade %s: %d %s", id, p.status, p.text("[data-testid=form-error]"))
		}
	}
	if got := admin.get(grading).doc.Find("textarea[name=note]").Text(); got != note {
		t.Errorf("the regrade page shows the note as %q", got)
	}

	seen := map[string]string{}
	pageAt := learner.get(attempt)
	seen["attempt"] = pageAt.text("[data-testid=teacher-note] q")
	meAt := learner.get("/me")
	seen["history"] = meAt.text(`[data-testid=history-band][data-human=true] [data-testid=history-teacher-note] q`)
	review := learner.get(base + "/results")
	seen["exam review"] = review.text("[data-testid=item-teacher-note] q")
	if diff := cmp.Diff(map[string]string{"attempt": note, "history": note, "exam review": note}, seen); diff != "" {
		t.Errorf("the note as the learner reads it (-want +got):\n%s", diff)
	}
	var export struct {
		Attempts []struct {
			ID          int64  `json:"id"`
			TeacherNote string `json:"teacher_note"`
		}
	}
	if err := json.Unmarshal([]byte(learner.get("/me/history.json").body), &export); err != nil {
		t.Fatal(err)
	}
	for _, at := range export.Attempts {
		if want := map[bool]string{true: note}[strconv.FormatInt(at.ID, 10) == attemptID || strconv.FormatInt(at.ID, 10) == examAttempt]; at.TeacherNote != want {
			t.Errorf("history.json: attempt %d's teacher_note is %q, want %q", at.ID, at.TeacherNote, want)
		}
	}
	for where, p := range map[string]*page{"attempt": pageAt, "history": meAt, "exam review": review} {
		if strings.Contains(p.body, `<script>alert("x")`) || !strings.Contains(p.body, "&lt;script&gt;") {
			t.Errorf("%s: the note is not escaped", where)
		}
		if !strings.Contains(p.body, "Ghi chú của giáo viên:") {
			t.Errorf("%s: the note is not introduced in Vietnamese", where)
		}
	}
}
