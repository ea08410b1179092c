package web_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/skip2/go-qrcode"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/web"
	"github.com/examsim/examsim/web/webtest"
)

// TestJoinURLReachesPhones: with a public URL the join URL and the QR code
// use it and nothing warns; served on loopback, the presenter screen says
// phones cannot open the join URL, how to serve on the LAN and the
// machine's LAN addresses; listening on all addresses but opened through
// loopback, it says to open the LAN address instead.
func TestJoinURLReachesPhones(t *testing.T) {
	for _, c := range []struct {
		name      string
		cfg       func(*web.Config)
		joinStart string
		warn      bool
		says      []string
		saysNot   []string
	}{
		{"public URL", func(cfg *web.Config) { cfg.PublicURL = "http://192.168.1.20:8080"; cfg.ListenAddr = "127.0.0.1:8080" },
			"http://192.168.1.20:8080/join?code=", false, nil, nil},
		{"loopback only", func(cfg *web.Config) {
			cfg.ListenAddr = "127.0.0.1:8080"
			cfg.LANAddrs = []string{"192.168.1.20", "10.0.0.7"}
		},
			"http://127.0.0.1:", true, []string{"make run ADDR=0.0.0.0:8080", "http://192.168.1.20:8080/class", "http://10.0.0.7:8080/class", "--public-url"}, nil},
		{"all addresses, opened on loopback", func(cfg *web.Config) { cfg.ListenAddr = "0.0.0.0:9000"; cfg.LANAddrs = []string{"192.168.1.20"} },
			"http://127.0.0.1:", true, []string{"http://192.168.1.20:9000/class"}, []string{"make run"}},
		{"no LAN", func(cfg *web.Config) { cfg.ListenAddr = "127.0.0.1:8080" },
			"http://127.0.0.1:", true, []string{"make run ADDR=0.0.0.0:8080", "Wi-Fi"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := &classApp{App: webtest.Start(t, webtest.WithConfig(c.cfg)), t: t}
			host := a.account("teacher", examsim.RoleInstructor)
			path, code := a.startRun(host, "optional")
			screen := host.get(path + "/host?lang=en")
			join := screen.text(".join-url")
			if !strings.Contains(join, c.joinStart+code) && !(strings.HasPrefix(c.joinStart, "http://127") && strings.Contains(join, c.joinStart)) {
				t.Errorf("join URL line %q, want it to hold %s…%s", join, c.joinStart, code)
			}
			warning := screen.text("[data-testid=reach-warning]")
			if (warning != "") != c.warn {
				t.Errorf("warning %q, want one: %t", warning, c.warn)
			}
			for _, s := range c.says {
				if !strings.Contains(warning, s) {
					t.Errorf("the warning %q does not say %q", warning, s)
				}
			}
			for _, s := range c.saysNot {
				if strings.Contains(warning, s) {
					t.Errorf("the warning %q says %q", warning, s)
				}
			}
			if c.name == "public URL" {
				qr := host.get(path + "/qr.png")
				want, err := qrcode.Encode(c.joinStart+code, qrcode.Medium, 440)
				if err != nil || !bytes.Equal([]byte(qr.body), want) {
					t.Errorf("the QR code is not the public join URL's (%d bytes, %v)", len(qr.body), err)
				}
			}
		})
	}
}

// TestJoinFormReportsEveryProblem: a wrong code and a bad nickname are
// reported together, in the student's language, with what they typed kept.
func TestJoinFormReportsEveryProblem(t *testing.T) {
	a := newClassApp(t)
	for _, c := range []struct {
		name, code, nick string
		want             int
	}{
		{"no such room, one-letter name", "123456", "x", 2},
		{"malformed code, one-letter name", "12", "x", 2},
		{"no such room, good name", "123456", "Somchai", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newClient(t, a.Server)
			p := s.post("/join?lang=th", "/join", url.Values{"code": {c.code}, "nickname": {c.nick}, "lang": {"th"}})
			if p.status == http.StatusSeeOther || p.status >= 500 {
				t.Fatalf("status %d", p.status)
			}
			box := p.doc.Find("[data-testid=form-error]")
			got := box.Find("[data-testid=form-problem]").Length()
			if got == 0 && box.Length() == 1 {
				got = 1
			}
			if got != c.want {
				t.Errorf("%d problems shown, want %d: %q", got, c.want, box.Text())
			}
			if c.want == 2 && !strings.Contains(box.Text(), "2") {
				t.Errorf("the nickname problem does not give the length: %q", box.Text())
			}
			if v, _ := p.doc.Find("[data-testid=join-nickname]").Attr("value"); v != c.nick {
				t.Errorf("nickname not kept: %q", v)
			}
		})
	}
}

// TestAlreadyAnsweredHint: answering twice says the first answer counts,
// not the generic conflict hint about choosing another name.
func TestAlreadyAnsweredHint(t *testing.T) {
	a := newClassApp(t)
	host := a.account("teacher", examsim.RoleInstructor)
	path, code := a.startRun(host, "optional")
	s := a.join(code, "Kasia", "pl")
	control(t, host, path, "start", -1)
	q, _ := a.Bank.Question(classQuestions[0])
	if p := answer(t, s, path, 0, q.Answer, ""); p.status != http.StatusOK {
		t.Fatalf("first answer: %d %s", p.status, p.body)
	}
	// A different second answer (the same one resent is taken as the first).
	p := answer(t, s, path, 0, wrongOption(a, classQuestions[0]), "")
	if p.status != http.StatusConflict {
		t.Fatalf("second answer: %d, want 409", p.status)
	}
	if strings.Contains(p.body, "pseudonim") || strings.Contains(p.body, "name") || !strings.Contains(p.body, "pierwsza odpowiedź") {
		t.Errorf("the second answer's error: %s", p.body)
	}
}

// TestResultsCountTheQuizAndShowTheRoomsAnswers: "Correct" is out of the
// quiz's questions, not the ones answered; the page has the session's
// date; each question opens to the room's answers and explanations.
func TestResultsCountTheQuizAndShowTheRoomsAnswers(t *testing.T) {
	a := newClassApp(t)
	host := a.account("teacher", examsim.RoleInstructor)
	path, code := a.startRun(host, "optional")
	s := a.join(code, "Kasia", "pl")
	control(t, host, path, "start", -1)
	q, _ := a.Bank.Question(classQuestions[0])
	const why = "Wynik jest pusty, ale poprawny; ponawianie nic nie da."
	if p := answer(t, s, path, 0, q.Answer, why); p.status != http.StatusOK {
		t.Fatalf("answer: %d %s", p.status, p.body)
	}
	control(t, host, path, "reveal", 0)
	control(t, host, path, "next", 0) // question 2, which Kasia skips
	control(t, host, path, "end", 1)
	res := host.get(path + "/results?lang=en")
	if got := res.text("[data-testid=student-correct]"); got != "1 / 2" {
		t.Errorf("Kasia's correct answers %q, want 1 / 2 (of the quiz's two questions)", got)
	}
	if res.text("[data-testid=run-date]") == "" {
		t.Error("the results do not say when the session was held")
	}
	if href, _ := res.doc.Find("[data-testid=question-answers-link]").First().Attr("href"); href != "#answers-1" {
		t.Errorf("question 1's row links to %q", href)
	}
	first := res.doc.Find("#answers-1")
	if !strings.Contains(first.Text(), why) || !strings.Contains(first.Text(), "Kasia") {
		t.Errorf("question 1's answers lack Kasia's explanation: %q", first.Text())
	}
}

// TestStartFromBuilderSavesFirst: "Start a live session" sends the
// builder's form, so edits not yet saved are saved and the run uses them;
// an edit with a problem is shown again and nothing starts.
func TestStartFromBuilderSavesFirst(t *testing.T) {
	a := newClassApp(t)
	host := a.account("teacher", examsim.RoleInstructor)
	form := url.Values{"title": {"Before"}, "seconds": {"60"}, "scoring": {"correctness"}, "explanations": {"optional"}, "action": {"save"}, "q": classQuestions[:1]}
	p := host.post("/class/quizzes/new", "/class/quizzes", form)
	m := quizLocation.FindStringSubmatch(p.header.Get("Location"))
	if m == nil {
		t.Fatalf("save: %d", p.status)
	}
	edit := "/class/quizzes/" + m[1]
	builder := host.get(edit)
	if owner, _ := builder.doc.Find("[data-testid=start-live]").Attr("form"); owner != "quiz-form" {
		t.Fatalf("the start button belongs to form %q, not the builder's", owner)
	}
	bad := url.Values{"title": {""}, "seconds": {"60"}, "scoring": {"correctness"}, "explanations": {"optional"}, "action": {"start_live"}, "q": classQuestions[:1]}
	if p := host.post(edit, edit, bad); p.status == http.StatusSeeOther {
		t.Errorf("a start with an empty title went to %s", p.header.Get("Location"))
	}
	form.Set("title", "EDITED TITLE")
	form.Set("action", "start_live")
	p = host.post(edit, edit, form)
	loc := p.header.Get("Location")
	if p.status != http.StatusSeeOther || !strings.HasSuffix(loc, "/host") {
		t.Fatalf("start: %d to %q", p.status, loc)
	}
	if title := host.get(loc).doc.Find("title").Text(); !strings.Contains(title, "EDITED TITLE") {
		t.Errorf("the run started with %q, not the edited title", title)
	}
	if v, _ := host.get(edit).doc.Find("[data-testid=quiz-title]").Attr("value"); v != "EDITED TITLE" {
		t.Errorf("the edit was not saved: %q", v)
	}
}

// TestTimePerQuestionFollowsReadingTime: a new quiz defaults to the
// reading time of its longest question, not 20 s, and stays editable.
func TestTimePerQuestionFollowsReadingTime(t *testing.T) {
	a := newClassApp(t)
	host := a.account("teacher", examsim.RoleInstructor)
	if v, _ := host.get("/class/quizzes/new").doc.Find("[data-testid=quiz-seconds] option[selected]").Attr("value"); v != "auto" {
		t.Errorf("a new quiz's time per question defaults to %q, want the reading time", v)
	}
	longest, most := "", 0
	for _, q := range a.Bank.Questions {
		tx := q.Text(examsim.English)
		n := len(strings.Fields(tx.StemMarkdown))
		for _, o := range tx.Options {
			n += len(strings.Fields(o.Markdown))
		}
		if n > most {
			longest, most = q.ID, n
		}
	}
	want := examsim.ReadingSeconds(most)
	if want < 60 {
		t.Fatalf("the longest question (%s, %d words) reads in %d s: the test needs a longer one", longest, most, want)
	}
	saved := func(seconds string) string {
		t.Helper()
		form := url.Values{"title": {"Reading"}, "seconds": {seconds}, "scoring": {"correctness"}, "explanations": {"optional"}, "action": {"save"}, "q": {classQuestions[0], longest}}
		p := host.post("/class/quizzes/new", "/class/quizzes", form)
		if p.status != http.StatusSeeOther {
			t.Fatalf("save: %d %s", p.status, p.text("[data-testid=form-error]"))
		}
		v, _ := host.get(p.header.Get("Location")).doc.Find("[data-testid=quiz-seconds] option[selected]").Attr("value")
		return v
	}
	if got := saved("auto"); got != fmt.Sprint(want) {
		t.Errorf("saved with the reading time: %s s, want %d (%s has %d words)", got, want, longest, most)
	}
	if got := saved("45"); got != "45" {
		t.Errorf("a time the teacher chose was saved as %s", got)
	}
}

// TestGradingQueueForTheTeacher: a student without an account who flags a
// practice score is named by their class nickname, times carry their
// zone, and the regrade page speaks about the learner, not to them.
func TestGradingQueueForTheTeacher(t *testing.T) {
	a := newClassApp(t)
	ines := a.account("ines", examsim.RoleInstructor)
	_, code := a.startRun(ines, "optional")
	kasia := a.join(code, "Kasia", "pl")
	q, _ := a.Bank.Question("empty-result-retry-loop")
	attempt, id := practise(t, kasia, q.ID, q.Answer, "Pusty wynik jest poprawny: narzędzie zadziałało i nie znalazło klienta, więc ponawianie nic nie da.")
	if p := kasia.post(attempt, attempt+"/flag", url.Values{"comment": {"Chyba za nisko"}}); p.status != http.StatusSeeOther {
		t.Fatalf("flag: %d", p.status)
	}
	queue := ines.get("/class/grading?lang=en")
	row := queue.doc.Find(`[data-testid=grading-row][data-kind=attempt][data-id="` + id + `"]`)
	if row.Length() != 1 {
		t.Fatal("the flagged attempt is not in the queue")
	}
	if !strings.Contains(row.Text(), "Kasia") {
		t.Errorf("the row does not name Kasia: %q", row.Text())
	}
	if when := row.Find("[data-testid=grading-when]").Text(); !strings.HasSuffix(strings.TrimSpace(when), "UTC") {
		t.Errorf("the time %q has no zone", when)
	}
	item := ines.get("/class/grading/attempt/" + id + "?lang=en")
	body := item.doc.Find("main").Text()
	for _, learnerWords := range []string{"You covered", "In your words"} {
		if strings.Contains(body, learnerWords) {
			t.Errorf("the regrade page addresses the teacher as the learner: %q", learnerWords)
		}
	}
	if !strings.Contains(body, "The learner covered") && !strings.Contains(body, "Missing") {
		t.Errorf("the regrade page lists no concepts for the teacher: %q", body)
	}
}
