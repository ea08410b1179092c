package web_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/loadgen"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web/webtest"
)

// classQuestions are in every language.
var classQuestions = []string{"empty-result-retry-loop", "malformed-order-id"}

type classApp struct {
	*webtest.App
	t *testing.T
}

func newClassApp(t *testing.T) *classApp {
	return &classApp{App: webtest.Start(t), t: t}
}

// account makes an account with a role and returns a client logged in as it.
func (a *classApp) account(name string, role examsim.Role) *client {
	a.t.Helper()
	if _, err := store.NewLearnerService(a.DB).CreateAccount(context.Background(), name, "password-"+name, role); err != nil {
		a.t.Fatal(err)
	}
	c := newClient(a.t, a.Server)
	if p := c.post("/login", "/login", url.Values{"username": {name}, "password": {"password-" + name}}); p.status != http.StatusSeeOther {
		a.t.Fatalf("login %s: %d", name, p.status)
	}
	return c
}

var quizLocation = regexp.MustCompile(`^/class/quizzes/([0-9]+)`)

// startRun builds a quiz through the builder and starts a live run,
// returning the run's path and join code.
func (a *classApp) startRun(host *client, expl string) (path, code string) {
	a.t.Helper()
	form := url.Values{"title": {"Błędy & <narzędzia>"}, "seconds": {"20"}, "scoring": {"speed"}, "leaderboard": {"on"},
		"explanations": {expl}, "action": {"save"}, "q": classQuestions, "order-" + classQuestions[0]: {"1"}, "order-" + classQuestions[1]: {"2"}}
	p := host.post("/class/quizzes/new", "/class/quizzes", form)
	m := quizLocation.FindStringSubmatch(p.header.Get("Location"))
	if p.status != http.StatusSeeOther || m == nil {
		a.t.Fatalf("save quiz: %d %s", p.status, p.text("[data-testid=form-error]"))
	}
	p = host.post("/class/quizzes/"+m[1], "/class/quizzes/"+m[1]+"/sessions", url.Values{"mode": {"live"}})
	path = strings.TrimSuffix(p.header.Get("Location"), "/host")
	if p.status != http.StatusSeeOther || path == "" {
		a.t.Fatalf("start run: %d", p.status)
	}
	screen := host.get(path + "/host")
	code = screen.text("[data-testid=join-code]")
	if len(code) != 6 {
		a.t.Fatalf("join code %q", code)
	}
	return path, code
}

func (a *classApp) join(code, nick, lang string) *client {
	a.t.Helper()
	c := newClient(a.t, a.Server)
	p := c.post("/join?code="+code, "/join", url.Values{"code": {code}, "nickname": {nick}, "lang": {lang}})
	if p.status != http.StatusSeeOther {
		a.t.Fatalf("join %s: %d %s", nick, p.status, p.text("[data-testid=form-error]"))
	}
	return c
}

// control presses a host button.
func control(t *testing.T, host *client, path, action string, from int) {
	t.Helper()
	p := host.post(path+"/host", path+"/control", url.Values{"action": {action}, "from": {fmt.Sprint(from)}})
	if p.status != http.StatusSeeOther {
		t.Fatalf("%s: %d %s", action, p.status, p.body)
	}
}

// answer submits a student's answer as the script does, wanting JSON.
func answer(t *testing.T, c *client, path string, index int, choice, expl string) *page {
	t.Helper()
	play := c.get(path + "/play")
	token, _ := play.doc.Find("#class-root").Attr("data-csrf")
	req, _ := http.NewRequest("POST", c.base+path+"/answer", strings.NewReader(url.Values{"_csrf": {token},
		"index": {fmt.Sprint(index)}, "choice": {choice}, "explanation": {expl}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	return c.do(req)
}

func wrongOption(a *classApp, id string) string {
	q, _ := a.Bank.Question(id)
	for _, o := range q.Text(examsim.English).Options {
		if o.Letter != q.Answer {
			return o.Letter
		}
	}
	return ""
}

// TestClassroomRoom plays a room through the web: students in three
// languages each see the question in their own, the answer key and other
// students' explanations stay hidden until (and, for explanations, after)
// the reveal, a reload keeps a student's points, and the CSV export has
// every answer.
func TestClassroomRoom(t *testing.T) {
	a := newClassApp(t)
	host := a.account("teacher", examsim.RoleInstructor)
	path, code := a.startRun(host, "optional")
	students := map[string]*client{"th": a.join(code, "สมชาย", "th"), "pl": a.join(code, "Zażółć", "pl"), "vi": a.join(code, "Ngọc", "vi")}
	evil := a.join(code, `<b>x</b>"'`, "en")

	hostPage := host.get(path + "/host")
	if n, _ := hostPage.doc.Find("[data-testid=player-count]").Attr("data-count"); n != "4" {
		t.Errorf("the host sees %s players", n)
	}
	if strings.Contains(hostPage.body, "<b>x</b>") || !strings.Contains(hostPage.body, "&lt;b&gt;x&lt;/b&gt;") {
		t.Error("a nickname is not escaped on the host screen")
	}
	if strings.Contains(hostPage.body, "Błędy & <narzędzia>") {
		t.Error("the quiz title is not escaped")
	}
	if img := host.get(path + "/qr.png"); img.status != 200 || img.header.Get("Content-Type") != "image/png" || !strings.HasPrefix(img.body, "\x89PNG") {
		t.Errorf("qr.png: %d %s", img.status, img.header.Get("Content-Type"))
	}

	control(t, host, path, "start", -1)
	q, _ := a.Bank.Question(classQuestions[0])
	titles := map[string]bool{}
	for lang, c := range students {
		p := c.get(path + "/play")
		if got, _ := p.doc.Find("html").Attr("lang"); got != lang {
			t.Errorf("%s student's page is in %q", lang, got)
		}
		if got := p.text("[data-testid=question-title]"); got != q.Text(examsim.Lang(lang)).Title {
			t.Errorf("%s student sees %q", lang, got)
		}
		titles[p.text("[data-testid=question-title]")] = true
		// No answer key before the reveal: no marked answer, no option's explanation.
		if p.doc.Find("[data-testid=reveal-answer]").Length() > 0 || p.doc.Find(".why").Length() > 0 {
			t.Errorf("%s student sees the key before the reveal", lang)
		}
		for _, o := range q.Text(examsim.Lang(lang)).Options {
			if strings.Contains(p.body, strings.TrimSpace(o.ExplanationHTML())) {
				t.Errorf("%s student's page holds option %s's explanation", lang, o.Letter)
			}
		}
	}
	if len(titles) != 3 {
		t.Errorf("the three students see %d different titles", len(titles))
	}
	thaiExpl := "ผลลัพธ์ว่างที่ถูกต้อง ไม่ใช่ access failure การ retry ไม่ช่วย"
	ack := answer(t, students["th"], path, 0, q.Answer, thaiExpl)
	if ack.status != 200 || !strings.Contains(ack.body, `"ok":true`) || strings.Contains(ack.body, "correct") || strings.Contains(ack.body, "points") {
		t.Errorf("ack = %d %s (must not tell correctness before the reveal)", ack.status, ack.body)
	}
	answer(t, students["pl"], path, 0, wrongOption(a, q.ID), "Trzeba ponowić zapytanie.")
	if again := answer(t, students["th"], path, 0, q.Answer, ""); again.status != http.StatusConflict {
		t.Errorf("second answer: %d", again.status)
	}
	if p := students["pl"].get(path + "/play"); strings.Contains(p.body, thaiExpl) {
		t.Error("a student sees another student's explanation")
	}
	if p := host.get(path + "/host"); p.text("[data-testid=answer-count]") == "" {
		t.Error("no live answer count on the host screen")
	}

	control(t, host, path, "reveal", 0)
	p := students["th"].get(path + "/play") // a reload
	if got, _ := p.doc.Find("[data-testid=you-result]").Attr("data-correct"); got != "true" {
		t.Errorf("Thai student's result after the reveal: %q", got)
	}
	points, _ := p.doc.Find("[data-testid=you-points]").Attr("data-points")
	if points == "0" || points == "" {
		t.Errorf("points after the reveal: %q", points)
	}
	if p.doc.Find("[data-testid=reveal-answer]").Length() != 1 || p.doc.Find(".why").Length() < 2 {
		t.Error("the reveal lacks the answer or the options' explanations")
	}
	if p := students["pl"].get(path + "/play"); strings.Contains(p.body, thaiExpl) {
		t.Error("after the reveal a student sees another student's explanation")
	}
	control(t, host, path, "leaderboard", 0)
	control(t, host, path, "next", 0)
	if p := students["th"].get(path + "/play"); p.doc.Find("[data-testid=you-points]").AttrOr("data-points", "") != points {
		t.Error("points changed on the next question before anyone answered")
	}
	// Without script the answer is a plain form: a redirect, then the page says it was received.
	if p := students["vi"].post(path+"/play", path+"/answer", url.Values{"index": {"1"}, "choice": {"A"}}); p.status != http.StatusSeeOther {
		t.Errorf("plain-form answer: %d", p.status)
	}
	if p := students["vi"].get(path + "/play"); p.doc.Find("[data-testid=stage-answered]").Length() != 1 {
		t.Error("after a plain-form answer the page does not say it was received")
	}
	if p := students["th"].post(path+"/play", path+"/answer", url.Values{"index": {"1"}, "choice": {"Q"},
		"explanation": {"kept text"}}); p.status != http.StatusBadRequest || p.text("[data-testid=form-error]") == "" ||
		p.doc.Find("[data-testid=explanation]").Text() != "kept text" {
		t.Errorf("a bad plain-form answer: %d, error %q", p.status, p.text("[data-testid=form-error]"))
	}
	control(t, host, path, "reveal", 1)
	control(t, host, path, "next", 1)
	if p := evil.get(path + "/play"); p.doc.Find("[data-testid=ended]").Length() != 1 {
		t.Error("no end screen")
	}

	res := host.get(path + "/results")
	if res.status != 200 || res.doc.Find("[data-testid=student-row]").Length() != 4 {
		t.Errorf("results: %d, %d student rows", res.status, res.doc.Find("[data-testid=student-row]").Length())
	}
	exp := host.get(path + "/results.csv")
	if exp.status != 200 || !strings.HasPrefix(exp.body, "\uFEFF") || !strings.HasPrefix(exp.header.Get("Content-Type"), "text/csv") {
		t.Fatalf("csv: %d %q", exp.status, exp.header.Get("Content-Type"))
	}
	rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(exp.body, "\uFEFF"))).ReadAll()
	if err != nil || len(rows) != 1+4*2 { // a row per student and question
		t.Fatalf("csv rows = %d, %v", len(rows), err)
	}
	if rows[1][0] != "สมชาย" || rows[1][9] != thaiExpl || rows[1][4] != q.Text(examsim.Thai).Title {
		t.Errorf("Thai row = %q", rows[1])
	}
}

// TestClassroomAuthorization checks every classroom endpoint against the
// people who must not use it.
func TestClassroomAuthorization(t *testing.T) {
	a := newClassApp(t)
	host := a.account("teacher", examsim.RoleInstructor)
	other := a.account("other_teacher", examsim.RoleInstructor)
	learner := a.account("plain_learner", examsim.RoleLearner)
	admin := a.account("the_admin", examsim.RoleAdmin)
	anon := newClient(t, a.Server)
	path, code := a.startRun(host, "optional")
	student := a.join(code, "Student", "en")
	quiz := host.get("/class").doc.Find("[data-testid=quiz-card] a").AttrOr("href", "")
	if quiz == "" {
		t.Fatal("no quiz on the instructor's page")
	}

	type check struct {
		who    string
		c      *client
		method string
		path   string
		want   int
	}
	var checks []check
	for _, ep := range []string{"/class", "/class/quizzes/new", quiz, path + "/host", path + "/host/events", path + "/qr.png",
		path + "/results", path + "/results.csv", "/admin/users"} {
		checks = append(checks, check{"anonymous", anon, "GET", ep, 401}, check{"learner", learner, "GET", ep, 403},
			check{"student", student, "GET", ep, 401})
	}
	for _, ep := range []string{quiz, path + "/host", path + "/host/events", path + "/qr.png", path + "/results", path + "/results.csv"} {
		checks = append(checks, check{"another instructor", other, "GET", ep, 403})
	}
	for _, ep := range []string{"/class/quizzes", quiz, quiz + "/sessions", path + "/control", "/admin/users/1/role"} {
		checks = append(checks, check{"anonymous", anon, "POST", ep, 401}, check{"learner", learner, "POST", ep, 403})
	}
	for _, ep := range []string{quiz, quiz + "/sessions", path + "/control"} {
		checks = append(checks, check{"another instructor", other, "POST", ep, 403})
	}
	checks = append(checks,
		check{"instructor", host, "POST", "/admin/users/1/role", 403},
		check{"no player cookie", anon, "GET", path + "/events", 403},
		check{"no player cookie", anon, "POST", path + "/answer", 403},
		check{"the host, who is not a player", host, "POST", path + "/answer", 403},
		check{"no player cookie", anon, "GET", path + "/play", 303},
	)
	for _, ck := range checks {
		var p *page
		if ck.method == "GET" {
			if strings.HasSuffix(ck.path, "/events") {
				p = ck.c.getHead(ck.path)
			} else {
				p = ck.c.get(ck.path)
			}
		} else {
			p = ck.c.post("/join", ck.path, url.Values{"action": {"end"}, "from": {"-1"}, "role": {"admin"}, "mode": {"live"},
				"index": {"0"}, "choice": {"A"}})
		}
		if p.status != ck.want {
			t.Errorf("%s %s %s = %d, want %d", ck.who, ck.method, ck.path, p.status, ck.want)
		}
	}
	if s := host.get(path + "/host"); s.doc.Find("[data-testid=host-stage-lobby]").Length() != 1 {
		t.Error("somebody else's request changed the run")
	}
	// The play page without a cookie sends the student to join, never to
	// the code: that would let anyone skip the code.
	if p := anon.get(path + "/play"); p.header.Get("Location") != "/join" {
		t.Errorf("play without a cookie goes to %q", p.header.Get("Location"))
	}
	// A student of one room is nobody in another.
	path2, code2 := a.startRun(host, "off")
	a.join(code2, "Elsewhere", "pl")
	if p := student.getHead(path2 + "/events"); p.status != 403 {
		t.Errorf("a student of another room opens this room's stream: %d", p.status)
	}
	// The admin page works for admins.
	if p := admin.get("/admin/users"); p.status != 200 || p.doc.Find("[data-testid=user-row]").Length() != 4 {
		t.Errorf("admin page: %d", p.status)
	}
}

// getHead opens a request and reads only the status, for event streams.
func (c *client) getHead(path string) *page {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", c.base+path, nil)
	resp, err := c.http.Do(req)
	if err != nil {
		c.tb.Fatal(err)
	}
	resp.Body.Close()
	return &page{status: resp.StatusCode, header: resp.Header}
}

// TestJoinRateLimit refuses a client that keeps guessing codes, even with
// the right one, while others still join.
func TestJoinRateLimit(t *testing.T) {
	a := newClassApp(t)
	host := a.account("teacher", examsim.RoleInstructor)
	_, code := a.startRun(host, "optional")
	guesser := newClient(t, a.Server)
	wrong := "000000"
	if wrong == code {
		wrong = "000001"
	}
	for i := 0; i < 10; i++ {
		p := guesser.post("/join", "/join", url.Values{"code": {wrong}, "nickname": {fmt.Sprintf("g%d", i)}, "lang": {"en"}})
		if p.status != http.StatusNotFound && p.status != http.StatusBadRequest {
			t.Fatalf("guess %d: %d", i, p.status)
		}
		if got := p.doc.Find("#code").AttrOr("value", ""); got != wrong {
			t.Errorf("the form lost the code: %q", got)
		}
	}
	p := guesser.post("/join", "/join", url.Values{"code": {code}, "nickname": {"guesser"}, "lang": {"en"}})
	if p.status != http.StatusTooManyRequests {
		t.Errorf("after 10 wrong codes: %d, want 429", p.status)
	}
	// Every test client comes from 127.0.0.1, so one more wrong code from
	// "another" client would also be refused; a good join was refused above,
	// which is the point: the limit counts the client, not the code.
}

// TestNicknameRules shows the reason and keeps the form.
func TestNicknameRules(t *testing.T) {
	a := newClassApp(t)
	host := a.account("teacher", examsim.RoleInstructor)
	_, code := a.startRun(host, "optional")
	a.join(code, "Minh", "vi")
	c := newClient(t, a.Server)
	for nick, want := range map[string]int{"minh": 409, "x": 400, "kurwa mać": 400} {
		p := c.post("/join", "/join", url.Values{"code": {code}, "nickname": {nick}, "lang": {"pl"}})
		if p.status != want || p.text("[data-testid=form-error]") == "" {
			t.Errorf("nickname %q: %d, want %d with a reason", nick, p.status, want)
		}
		if got, _ := p.doc.Find("html").Attr("lang"); got != "en" && got != "pl" {
			t.Errorf("page language %q", got)
		}
	}
}

// TestStudentStream reads a student's event stream: the current stage
// first, then the question when the host starts, in the student's language.
func TestStudentStream(t *testing.T) {
	a := newClassApp(t)
	host := a.account("teacher", examsim.RoleInstructor)
	path, code := a.startRun(host, "optional")
	st := a.join(code, "Kasia", "pl")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", st.base+path+"/events", nil)
	resp, err := st.http.Do(req)
	if err != nil || resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("stream: %v %v", resp, err)
	}
	defer resp.Body.Close()
	events := loadgen.Events(resp.Body)
	next := func(want, contains string) string {
		t.Helper()
		for ev := range events {
			if ev.Name == want && strings.Contains(ev.Data, contains) {
				return ev.Data
			}
		}
		t.Fatalf("the stream ended before a %s event with %q", want, contains)
		return ""
	}
	next("stage", `data-phase="lobby"`)
	if screen := host.get(path + "/host"); screen.doc.Find(`[data-testid=roster-player][data-online=true]`).Length() != 1 {
		t.Error("the host does not see the student online")
	}
	control(t, host, path, "start", -1)
	q, _ := a.Bank.Question(classQuestions[0])
	stage := next("stage", `data-phase="question"`)
	if !strings.Contains(stage, q.Text(examsim.Polish).Title) || strings.Contains(stage, `data-testid="reveal-answer"`) {
		t.Error("the question fragment is not the Polish question, or carries the key")
	}
	control(t, host, path, "reveal", 0)
	next("stage", `data-phase="reveal"`)
	next("you", `data-correct="none"`)
}

// TestHostRosterFollowsTheStage: when the teacher moves the room on, the
// host's stream sends the new stage and counts at once and the roster (the
// largest redraw, thousands of rows in a big class) in a send a beat
// later, while the phones are being sent the question.
func TestHostRosterFollowsTheStage(t *testing.T) {
	a := newClassApp(t)
	host := a.account("teacher", examsim.RoleInstructor)
	path, code := a.startRun(host, "optional")
	a.join(code, "Kasia", "pl")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", host.base+path+"/host/events", nil)
	resp, err := host.http.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("host stream: %v %v", resp, err)
	}
	defer resp.Body.Close()
	events := loadgen.Events(resp.Body)
	for ev := range events {
		if ev.Name == "roster" { // the screen as it is: all at once
			break
		}
	}
	control(t, host, path, "start", -1)
	// Each send starts with the clock: the roster must come in a send of
	// its own, after the one with the question's stage.
	staged, sendsSince := false, 0
	for ev := range events {
		switch {
		case ev.Name == "stage" && strings.Contains(ev.Data, `data-phase="question"`):
			staged = true
		case ev.Name == "clock" && staged:
			sendsSince++
		case ev.Name == "roster" && !staged:
			t.Fatal("the roster came before the question's stage")
		case ev.Name == "roster" && strings.Contains(ev.Data, "<svg"):
			if sendsSince == 0 {
				t.Error("the question's roster came with its stage; want it a beat later")
			}
			return
		}
	}
	t.Fatal("the stream ended before the question's roster")
}

// TestMetrics serves Prometheus metrics to loopback only.
func TestMetrics(t *testing.T) {
	a := newClassApp(t)
	c := newClient(t, a.Server)
	p := c.get("/metrics")
	if p.status != 200 || !strings.Contains(p.body, "process_resident_memory_bytes") || !strings.Contains(p.body, "examsim_classroom_streams") {
		t.Errorf("metrics: %d", p.status)
	}
	if p := c.get("/metrics", "X-Forwarded-For", "203.0.113.9"); p.status != 403 {
		t.Errorf("a forwarded request read the metrics: %d", p.status)
	}
}

// TestAdminChangesRole makes a learner an instructor through the admin page.
func TestAdminChangesRole(t *testing.T) {
	a := newClassApp(t)
	admin := a.account("the_admin", examsim.RoleAdmin)
	learner := a.account("soon_teacher", examsim.RoleLearner)
	if p := learner.get("/class"); p.status != 403 {
		t.Fatalf("learner on /class: %d", p.status)
	}
	users := admin.get("/admin/users")
	action := users.doc.Find(`[data-username=soon_teacher] form`).AttrOr("action", "")
	if p := admin.post("/admin/users", action, url.Values{"role": {"instructor"}}); p.status != http.StatusSeeOther {
		t.Fatalf("change role: %d", p.status)
	}
	if p := learner.get("/class"); p.status != 200 {
		t.Errorf("new instructor on /class: %d", p.status)
	}
	self := users.doc.Find(`[data-username=the_admin] form`).AttrOr("action", "")
	if p := admin.post("/admin/users", self, url.Values{"role": {"learner"}}); p.status != http.StatusConflict {
		t.Errorf("the last admin demoted themselves: %d", p.status)
	}
}
