package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/loadgen"
	"github.com/examsim/examsim/store"
)

// sigterm is what a service manager sends to stop a server.
var sigterm = syscall.SIGTERM

// Helpers for tests that run examsim as a real process: built with go build,
// serving on a free loopback port, killed or stopped like in production.

// buildExamsim builds this command into a temporary folder.
func buildExamsim(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the examsim binary; skipped with -short")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build examsim: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "examsim")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, goTool, "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// cleanEnv is the environment without examsim's own settings, so the
// developer's EXAMSIM_DB or EXAMSIM_ADDR cannot leak into a test.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "EXAMSIM_") {
			env = append(env, kv)
		}
	}
	return env
}

// addUser runs examsim user add with the password on stdin.
func addUser(t *testing.T, bin, db, name, password, role string) {
	t.Helper()
	cmd := exec.Command(bin, "user", "add", name, "--role", role, "--db", db)
	cmd.Env = cleanEnv()
	cmd.Stdin = strings.NewReader(password + "\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("examsim user add: %v\n%s", err, out)
	}
}

// syncBuffer collects a process's output from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// serverProc is a running examsim serve.
type serverProc struct {
	t      *testing.T
	cmd    *exec.Cmd
	URL    string
	out    syncBuffer // stdout and stderr
	done   chan struct{}
	waited error
}

var servingLine = regexp.MustCompile(`on (http://[0-9.:]+) \(database`)

// startServer starts examsim serve on db, with any more flags, and waits
// until it listens. The process is killed when the test ends, if it is
// still running.
func startServer(t *testing.T, bin, db string, flags ...string) *serverProc {
	t.Helper()
	p := &serverProc{t: t, done: make(chan struct{})}
	p.cmd = exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db}, flags...)...)
	p.cmd.Env = cleanEnv()
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.cmd.Stderr = &p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := sc.Text()
			p.out.Write([]byte(line + "\n"))
			if m := servingLine.FindStringSubmatch(line); m != nil {
				select {
				case urls <- m[1]:
				default:
				}
			}
		}
		p.waited = p.cmd.Wait() // after the pipe is drained, as Wait requires
		close(p.done)
	}()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.done
		if t.Failed() {
			t.Logf("examsim serve output:\n%s", p.out.String())
		}
	})
	select {
	case p.URL = <-urls:
	case <-p.done:
		t.Fatalf("examsim serve exited at start: %v\n%s", p.waited, p.out.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("examsim serve did not start listening in 30s:\n%s", p.out.String())
	}
	return p
}

// wait waits for the process to exit, up to limit, and returns its exit
// code; t is the (sub)test that waits.
func (p *serverProc) wait(t *testing.T, limit time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(limit):
		t.Fatalf("examsim serve did not exit within %s:\n%s", limit, p.out.String())
	}
	var exit *exec.ExitError
	if errors.As(p.waited, &exit) {
		return exit.ExitCode()
	}
	if p.waited != nil {
		return -1
	}
	return 0
}

// classroomFixture is an instructor's live room on a running server.
type classroomFixture struct {
	host *loadgen.VUser
	csrf string // the host's CSRF token
	loadgen.LiveRoom
	qids []string
}

// builderRow is a question row of the quiz builder; data-missing lists the
// languages it lacks.
var builderRow = regexp.MustCompile(`data-question-id="([^"]+)" data-missing="([^"]*)"`)

// openRoom logs the instructor in, builds a quiz of n questions in every
// language, picked from the builder page, and starts a live run of it.
func openRoom(ctx context.Context, base string, tr *http.Transport, user, password string, n int) (*classroomFixture, error) {
	host := loadgen.NewVUser(base, tr)
	if err := host.Login(ctx, user, password); err != nil {
		return nil, err
	}
	status, builder, _, err := host.Get(ctx, "/class/quizzes/new")
	if err != nil || status != http.StatusOK {
		return nil, fmt.Errorf("the quiz builder: status %d %v", status, err)
	}
	var qids []string
	for _, m := range builderRow.FindAllStringSubmatch(builder, -1) {
		if m[2] == "" && len(qids) < n {
			qids = append(qids, m[1])
		}
	}
	if len(qids) < n {
		return nil, fmt.Errorf("only %d questions in every language", len(qids))
	}
	tok := host.CSRF()
	room, err := host.OpenLiveRoom(ctx, tok, loadgen.Quiz{Title: "Crash room", Scoring: "correctness", Seconds: 120, QuestionIDs: qids})
	if err != nil {
		return nil, err
	}
	return &classroomFixture{host: host, csrf: tok, LiveRoom: room, qids: qids}, nil
}

// control presses a host button and fails unless it worked.
func (f *classroomFixture) control(ctx context.Context, action string, from int) error {
	return f.host.Control(ctx, f.ID, f.csrf, action, from)
}

// student is one joined student.
type student struct {
	u    *loadgen.VUser
	nick string
	csrf string
}

// join joins a student and keeps the token their page's script echoes.
func (f *classroomFixture) join(ctx context.Context, base string, tr *http.Transport, nick string) (*student, error) {
	st := &student{u: loadgen.NewVUser(base, tr), nick: nick}
	var err error
	if st.csrf, err = st.u.Join(ctx, f.Code, nick, "en"); err != nil {
		return nil, err
	}
	return st, nil
}

// answer sends a student's answer as the page's script does and reports
// the status (0 when no response came) and whether it was acknowledged.
func (f *classroomFixture) answer(ctx context.Context, st *student, index int, choice, explanation string) (int, bool) {
	status, err := st.u.Answer(ctx, f.ID, st.csrf, index, choice, explanation)
	return status, err == nil
}

// joinAll joins n students named prefix1..prefixN, a few at a time.
func (f *classroomFixture) joinAll(ctx context.Context, base string, tr *http.Transport, prefix string, n int) ([]*student, error) {
	students := make([]*student, n)
	errs := make(chan error, n)
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i := range students {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			st, err := f.join(ctx, base, tr, fmt.Sprintf("%s%d", prefix, i+1))
			if err != nil {
				errs <- err
				return
			}
			students[i] = st
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return nil, err
	}
	return students, nil
}

// practiceAnswer submits a practice answer and returns the attempt id of
// the result page it was redirected to, or 0 when no redirect came.
func practiceAnswer(ctx context.Context, u *loadgen.VUser, qid, explanation string) int64 {
	tok, err := u.FormToken(ctx, "/practice/"+qid)
	if err != nil {
		return 0
	}
	status, _, hdr, err := u.Post(ctx, "/practice/"+qid, url.Values{"_csrf": {tok}, "choice": {"A"}, "explanation": {explanation}}, false)
	if err != nil || status != http.StatusSeeOther {
		return 0
	}
	id, _ := strconv.ParseInt(strings.TrimPrefix(hdr.Get("Location"), "/attempts/"), 10, 64)
	return id
}

// liveRoomProcess is a real examsim serve on a fresh database with an
// instructor's live room open and students joined: the set-up of the tests
// that stop the process in the middle of a burst of answers.
type liveRoomProcess struct {
	bin, db string
	srv     *serverProc
	tr      *http.Transport
	room    *classroomFixture
	class   []*student
}

// startLiveRoomProcess builds and starts examsim on name.db and opens a
// room of questions questions that students (named prefix1, prefix2, ...)
// have joined.
func startLiveRoomProcess(ctx context.Context, t *testing.T, name string, questions, students int, prefix string) *liveRoomProcess {
	t.Helper()
	p := &liveRoomProcess{bin: buildExamsim(t), db: filepath.Join(t.TempDir(), name+".db"), tr: newTransport()}
	t.Cleanup(p.tr.CloseIdleConnections)
	user, password := name+"_teacher", name+"-Test-pass-7421"
	addUser(t, p.bin, p.db, user, password, "instructor")
	p.srv = startServer(t, p.bin, p.db)
	var err error
	if p.room, err = openRoom(ctx, p.srv.URL, p.tr, user, password, questions); err != nil {
		t.Fatalf("opening a live room of %d questions: %v", questions, err)
	}
	if p.class, err = p.room.joinAll(ctx, p.srv.URL, p.tr, prefix, students); err != nil {
		t.Fatalf("joining %d students: %v", students, err)
	}
	return p
}

// answerKey is one student's answer to one question (0-based).
type answerKey struct {
	nick  string
	index int
}

// storedAnswers opens the stopped server's database, checks its integrity
// and returns the room's stored answers by student and question.
func storedAnswers(ctx context.Context, t *testing.T, dbPath, roomID string) (map[answerKey]*examsim.ClassAnswer, *store.DB) {
	t.Helper()
	db, err := store.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Errorf("after the stop: %v", err)
	}
	sessionID, err := strconv.ParseInt(roomID, 10, 64)
	if err != nil {
		t.Fatalf("room id %q: %v", roomID, err)
	}
	classes := store.NewClassroomService(db)
	players, err := classes.ListPlayers(ctx, sessionID)
	if err != nil {
		t.Fatal(err)
	}
	nickOf := map[int64]string{}
	for _, p := range players {
		nickOf[p.ID] = p.Nickname
	}
	answers, err := classes.ListAnswers(ctx, sessionID)
	if err != nil {
		t.Fatal(err)
	}
	stored := map[answerKey]*examsim.ClassAnswer{}
	for _, a := range answers {
		stored[answerKey{nickOf[a.PlayerID], a.QuestionIndex}] = a
	}
	return stored, db
}

func newTransport() *http.Transport {
	return &http.Transport{MaxIdleConns: 512, MaxIdleConnsPerHost: 512, IdleConnTimeout: 30 * time.Second, DisableCompression: true}
}
