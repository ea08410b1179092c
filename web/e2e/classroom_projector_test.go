package e2e

import (
	"context"
	"encoding/csv"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/scenario"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/store"
)

// serveProcess is a real `examsim serve` the test can stop and start again
// on the same address and database, as an operator restarting it would.
type serveProcess struct {
	bin, db  string
	addr     string
	cmd      *exec.Cmd
	log      *os.File
	exitedCh chan struct{}
}

// start starts serve and waits until it answers; t is the (sub)test that
// starts it.
func (s *serveProcess) start(t *testing.T) {
	t.Helper()
	s.cmd = exec.Command(s.bin, "serve", "--addr", s.addr, "--db", s.db)
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.exitedCh = make(chan struct{})
	go func(c *exec.Cmd, done chan struct{}) { _ = c.Wait(); close(done) }(s.cmd, s.exitedCh)
	for i := 0; ; i++ {
		resp, err := http.Get("http://" + s.addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		if i > 300 {
			t.Fatalf("examsim serve did not become ready; see %s", s.log.Name())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (s *serveProcess) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exitedCh:
	case <-time.After(15 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exitedCh
	}
}

// startServe builds examsim, makes an instructor account and starts serve.
func startServe(t *testing.T) *serveProcess {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "examsim")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/examsim").CombinedOutput(); err != nil {
		t.Fatalf("building examsim: %v\n%s", err, out)
	}
	db := filepath.Join(dir, "examsim.db")
	add := exec.Command(bin, "user", "add", "teacher", "--role", "instructor", "--db", db)
	add.Stdin = strings.NewReader("teacher-pass-1\n")
	if out, err := add.CombinedOutput(); err != nil {
		t.Fatalf("user add: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	log, err := os.Create(filepath.Join(dir, "serve.log"))
	if err != nil {
		t.Fatal(err)
	}
	s := &serveProcess{bin: bin, db: db, addr: addr, log: log}
	s.start(t)
	t.Cleanup(func() { s.stop(); log.Close() })
	return s
}

// key presses one key (a character, or a kb name such as kb.PageDown) on
// the page, as a keyboard or a presentation clicker does.
func key(_ context.Context, k string) chromedp.Action[chromedp.Void] {
	return chromedp.KeyEvent(k)
}

// TestClassroomProjectorKeyboard runs a live quiz the way a lecture does:
// the host on a 1920x1080 projector drives it with the keyboard alone, and
// Thai, Polish and Vietnamese students play on 360x640 phones. The server
// is restarted while the Thai student taps an answer: the answer is stored
// once and no browser error page appears. Tied students share a place, the
// students find their classroom answers on /me, and the CSV has the new
// columns with Thai and Vietnamese intact.
func TestClassroomProjectorKeyboard(t *testing.T) {
	srv := startServe(t)
	base := "http://" + srv.addr
	b := browser(t)
	fsys, name := questions.Embedded()
	bank, _ := questions.Load(fsys, name)
	qids := []string{"empty-result-retry-loop", "malformed-order-id"}
	q0, _ := bank.Question(qids[0])
	q1, _ := bank.Question(qids[1])

	langs := []string{"th", "pl", "vi"}
	nicks := map[string]string{"th": "สมหญิง", "pl": "Paweł", "vi": "Thảo"}
	host := tab(t, b)
	students := map[string]context.Context{}
	for _, lang := range langs {
		students[lang] = tab(t, b)
	}
	var (
		code  string
		runID int64
	)

	scenario.Run(t, scenario.Step{Name: "the host opens a live room on the projector", Run: func(t *testing.T) {
		do(t, host, "log in", chromedp.EmulateViewport(1920, 1080),
			chromedp.Navigate(base+"/login?lang=en"),
			chromedp.SendKeys(chromedp.CSS(`#username`), "teacher"),
			chromedp.SendKeys(chromedp.CSS(`#password`), "teacher-pass-1\r"),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=nav-class]`)))
		do(t, host, "build a quiz without explanations", chromedp.Navigate(base+"/class/quizzes/new"),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=quiz-form]`)),
			chromedp.SendKeys(chromedp.CSS(`[data-testid=quiz-title]`), "Błędy narzędzi"),
			chromedp.SetValue(chromedp.CSS(`[data-testid=quiz-seconds]`), "120"),
			chromedp.Click(chromedp.CSS(`[data-testid=expl-off]`)),
			chromedp.Click(chromedp.CSS(`[data-testid=pick-`+qids[0]+`]`)),
			chromedp.SendKeys(chromedp.CSS(`[data-testid=order-`+qids[0]+`]`), "1"),
			chromedp.Click(chromedp.CSS(`[data-testid=pick-`+qids[1]+`]`)),
			chromedp.SendKeys(chromedp.CSS(`[data-testid=order-`+qids[1]+`]`), "2"),
			chromedp.Click(chromedp.CSS(`[data-testid=save-quiz]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=saved]`)),
			chromedp.Click(chromedp.CSS(`[data-testid=start-live]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=join-code]`)),
			chromedp.WaitVisible(chromedp.CSS(`#class-root[data-live=on]`)))
		code = text(t, host, `[data-testid=join-code]`)
		if n, _ := chromedp.Run(host, chromedp.Evaluate[int](`document.querySelectorAll("header.top, [data-testid=nav-me], .foot").length`)); n != 0 {
			t.Error("the projector shows the site navigation")
		}
	}}, scenario.Step{Name: "three students join on phones", Run: func(t *testing.T) {
		for _, lang := range langs {
			joinOnPhone(t, students[lang], base, code, lang, nicks[lang])
		}
		do(t, host, "see three players", chromedp.WaitVisible(chromedp.CSS(`[data-testid=player-count][data-count="3"]`)))
		checkAccessibility(t, host, "projector lobby")
		checkAccessibility(t, students["pl"], "phone lobby")
	}}, scenario.Step{Name: "? opens the keyboard help, Esc closes it", Run: func(t *testing.T) {
		do(t, host, "? opens the keyboard help", key(host, "?"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=shortcut-help]`)))
		checkAccessibility(t, host, "projector help overlay")
		do(t, host, "Esc closes it", key(host, kb.Escape), chromedp.WaitNotVisible(chromedp.CSS(`[data-testid=shortcut-help]`)))
	}}, scenario.Step{Name: "the space bar starts question 1", Run: func(t *testing.T) {
		do(t, host, "space starts", chromedp.Evaluate[chromedp.Void](`document.activeElement && document.activeElement.blur()`),
			key(host, " "), chromedp.WaitVisible(chromedp.CSS(`[data-testid=host-stage-question]`)))
		size, err := chromedp.Run(host, chromedp.Evaluate[float64](`Math.min(parseFloat(getComputedStyle(document.querySelector(".q-title")).fontSize), parseFloat(getComputedStyle(document.querySelector(".stem")).fontSize))`))
		if err != nil || size < 40 {
			t.Errorf("projector question text is %.0fpx (%v), want at least 40", size, err)
		}
		if n, _ := chromedp.Run(host, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=host-options] .tile .shape").length`)); n < 2 {
			t.Errorf("the projector's option tiles have %d shapes", n)
		}
		checkAccessibility(t, host, "projector question")
		for _, lang := range langs {
			do(t, students[lang], lang+" sees question 1", chromedp.WaitVisible(chromedp.CSS(`[data-testid=stage-question][data-question-index="0"]`)))
		}
		aboveFold(t, students["vi"], "vi phone")
		checkAccessibility(t, students["vi"], "phone question")
	}}, scenario.Step{Name: "the server restarts while the Thai student taps the right answer", Run: func(t *testing.T) {
		srv.stop()
		do(t, students["th"], "Thai student taps while the server is down",
			chromedp.Click(chromedp.CSS(`[data-testid=choice-`+q0.Answer+`]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=reconnecting]`)))
		srv.start(t)
		do(t, students["th"], "the kept answer is taken after the restart",
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=stage-answered]`)),
			chromedp.WaitNotVisible(chromedp.CSS(`[data-testid=reconnecting]`)))
		if loc, _ := chromedp.Run(students["th"], chromedp.Location()); !strings.HasSuffix(loc, "/play") {
			t.Errorf("after the restart the Thai student is at %s, not the play page", loc)
		}
	}}, scenario.Step{Name: "R reveals question 1; the tied students share first place", Run: func(t *testing.T) {
		do(t, students["pl"], "pl answers right", chromedp.WaitVisible(chromedp.CSS(`#class-root[data-conn-state=online]`)),
			chromedp.Click(chromedp.CSS(`[data-testid=choice-`+q0.Answer+`]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=stage-answered]`)))
		do(t, students["vi"], "vi answers wrong", chromedp.Click(chromedp.CSS(`[data-testid=choice-`+wrongLetter(q0)+`]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=stage-answered]`)))
		checkAccessibility(t, students["vi"], "phone answered")
		do(t, host, "R reveals once all three answered", chromedp.WaitVisible(chromedp.CSS(`[data-testid=answer-count][data-answered="3"]`)),
			key(host, "r"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=host-stage-reveal]`)))
		if y, _ := chromedp.Run(host, chromedp.Evaluate[float64](`window.scrollY`)); y != 0 {
			t.Errorf("the projector is scrolled to %.0f after the reveal, want the top", y)
		}
		checkAccessibility(t, host, "projector reveal")
		for _, lang := range []string{"th", "pl"} {
			do(t, students[lang], lang+" is first, tied", chromedp.WaitVisible(chromedp.CSS(`[data-testid=you-result][data-correct=true]`)))
			if got := text(t, students[lang], `[data-testid=you-rank]`); !strings.Contains(got, "1") {
				t.Errorf("%s student's place after a tie: %q", lang, got)
			}
		}
		checkAccessibility(t, students["th"], "phone reveal")
	}}, scenario.Step{Name: "L shows the leaderboard", Run: func(t *testing.T) {
		do(t, host, "L shows the leaderboard", key(host, "l"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=host-stage-leaderboard]`)))
		checkAccessibility(t, host, "projector leaderboard")
	}}, scenario.Step{Name: "→ goes to question 2, Page Down to the podium", Run: func(t *testing.T) {
		// The arrow and Page Down keys are what a presentation clicker sends.
		do(t, host, "→ goes on", key(host, kb.ArrowRight), chromedp.WaitVisible(chromedp.CSS(`[data-testid=host-stage-question]`)))
		for _, lang := range langs {
			do(t, students[lang], lang+" answers question 2 right",
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=stage-question][data-question-index="1"]`)),
				chromedp.Click(chromedp.CSS(`[data-testid=choice-`+q1.Answer+`]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=stage-answered]`)))
		}
		do(t, host, "R, then Page Down to the podium", chromedp.WaitVisible(chromedp.CSS(`[data-testid=answer-count][data-answered="3"]`)),
			key(host, "r"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=host-stage-reveal]`)),
			key(host, kb.PageDown), chromedp.WaitVisible(chromedp.CSS(`[data-testid=podium]`)))
		if n, _ := chromedp.Run(host, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=podium] .place-1").length`)); n != 2 {
			t.Errorf("the podium has %d players in first place, want the two tied", n)
		}
		checkAccessibility(t, host, "projector podium")
		for _, lang := range langs {
			do(t, students[lang], lang+" sees the end", chromedp.WaitVisible(chromedp.CSS(`[data-testid=stage-ended]`)))
		}
		checkAccessibility(t, students["pl"], "phone podium")
	}}, scenario.Step{Name: "every answer is stored once", Run: func(t *testing.T) {
		// The Thai student's restart answer is not doubled.
		db, err := store.Open(context.Background(), srv.db)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		cs := store.NewClassroomService(db)
		sessions, err := cs.ListRuns(context.Background(), 1, 5)
		if err != nil || len(sessions) == 0 {
			t.Fatalf("sessions: %v", err)
		}
		runID = sessions[0].ID
		answers, err := cs.ListAnswers(context.Background(), runID)
		if err != nil || len(answers) != 6 {
			t.Errorf("stored %d answers (%v), want 6: each student's two, once", len(answers), err)
		}
	}}, scenario.Step{Name: "the students find their classroom answers on /me", Run: func(t *testing.T) {
		for _, lang := range langs {
			do(t, students[lang], lang+" opens My progress", chromedp.Navigate(base+"/me"),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=attempt-row][data-source=classroom]`)))
			n, _ := chromedp.Run(students[lang], chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=attempt-row][data-source=classroom]").length`))
			if n != 2 {
				t.Errorf("%s student's /me lists %d classroom answers, want 2", lang, n)
			}
		}
		checkAccessibility(t, students["th"], "/me with classroom answers")
	}}, scenario.Step{Name: "the CSV has the new columns, Thai and Vietnamese intact", Run: func(t *testing.T) {
		body, err := chromedp.Run(host, chromedp.Evaluate[string](fmt.Sprintf(`fetch("/class/s/%d/results.csv").then(r => r.text())`, runID), chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(body, "\uFEFF"))).ReadAll()
		if err != nil || len(rows) != 1+3*2 {
			t.Fatalf("CSV: %d rows, %v", len(rows), err)
		}
		for _, col := range []string{"question_title", "status", "explained", "explanation_score", "explanation_band"} {
			if !strings.Contains(strings.Join(rows[0], ","), col) {
				t.Errorf("the CSV has no %s column: %v", col, rows[0])
			}
		}
		for _, want := range []string{q0.Text(examsim.Thai).Title, q0.Text(examsim.Vietnamese).Title, nicks["th"], nicks["vi"]} {
			if !strings.Contains(body, want) {
				t.Errorf("the CSV lacks %q intact", want)
			}
		}
	}})
}

func wrongLetter(q *questions.Question) string {
	for _, o := range q.Text(examsim.English).Options {
		if o.Letter != q.Answer {
			return o.Letter
		}
	}
	return ""
}
