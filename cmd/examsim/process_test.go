package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
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

// startServer starts examsim serve on db and waits until it listens. The
// process is killed when the test ends, if it is still running.
func startServer(t *testing.T, bin, db string) *serverProc {
	t.Helper()
	p := &serverProc{t: t, done: make(chan struct{})}
	p.cmd = exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--db", db)
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

// wait waits for the process to exit, up to limit, and returns its exit code.
func (p *serverProc) wait(limit time.Duration) int {
	p.t.Helper()
	select {
	case <-p.done:
	case <-time.After(limit):
		p.t.Fatalf("examsim serve did not exit within %s:\n%s", limit, p.out.String())
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
	host     *vuser
	csrf     string // the host's CSRF token
	id, code string
	qids     []string
}

// openRoom logs the instructor in, builds a quiz of n questions and starts
// a live session of it, as the load test does.
func openRoom(ctx context.Context, base string, tr *http.Transport, user, password string, n int) (*classroomFixture, error) {
	host := newVUser(base, tr)
	tok, _, err := host.formToken(ctx, "/login")
	if err != nil {
		return nil, err
	}
	status, _, _, err := host.post(ctx, "/login", url.Values{"_csrf": {tok}, "username": {user}, "password": {password}}, false)
	if err != nil || status != http.StatusSeeOther {
		return nil, fmt.Errorf("login: status %d %v", status, err)
	}
	tok, builder, err := host.formToken(ctx, "/class/quizzes/new")
	if err != nil {
		return nil, err
	}
	var qids []string
	for _, m := range pickRow.FindAllStringSubmatch(builder, -1) {
		if m[2] == "" && len(qids) < n {
			qids = append(qids, m[1])
		}
	}
	if len(qids) < n {
		return nil, fmt.Errorf("only %d questions in every language", len(qids))
	}
	form := url.Values{"_csrf": {tok}, "title": {"Crash room"}, "seconds": {"120"}, "scoring": {"correctness"},
		"leaderboard": {"on"}, "explanations": {"optional"}, "action": {"save"}, "q": qids}
	for i, id := range qids {
		form.Set("order-"+id, strconv.Itoa(i+1))
	}
	status, body, hdr, err := host.post(ctx, "/class/quizzes", form, false)
	if err != nil || status != http.StatusSeeOther {
		return nil, fmt.Errorf("creating a quiz: status %d %v %s", status, err, excerptOf(body))
	}
	quizPath := strings.SplitN(hdr.Get("Location"), "?", 2)[0]
	status, body, _, err = host.post(ctx, quizPath+"/sessions", url.Values{"_csrf": {tok}, "mode": {"live"}}, true)
	var started struct {
		ID   int64  `json:"id"`
		Code string `json:"code"`
	}
	if err != nil || status != 200 || json.Unmarshal([]byte(body), &started) != nil {
		return nil, fmt.Errorf("starting a session: status %d %v %s", status, err, excerptOf(body))
	}
	return &classroomFixture{host: host, csrf: tok, id: strconv.FormatInt(started.ID, 10), code: started.Code, qids: qids}, nil
}

// control presses a host button and fails unless it worked.
func (f *classroomFixture) control(ctx context.Context, action string, from int) error {
	status, body, _, err := f.host.post(ctx, "/class/s/"+f.id+"/control",
		url.Values{"_csrf": {f.csrf}, "action": {action}, "from": {strconv.Itoa(from)}}, true)
	if err != nil || status != 200 {
		return fmt.Errorf("host %s: status %d %v %s", action, status, err, excerptOf(body))
	}
	return nil
}

// student is one joined student.
type student struct {
	u    *vuser
	nick string
	csrf string
}

// join joins a student and reads the CSRF token their page's script uses.
func (f *classroomFixture) join(ctx context.Context, base string, tr *http.Transport, nick string) (*student, error) {
	st := &student{u: newVUser(base, tr), nick: nick}
	tok, _, err := st.u.formToken(ctx, "/join?code="+f.code)
	if err != nil {
		return nil, err
	}
	status, body, hdr, err := st.u.post(ctx, "/join", url.Values{"_csrf": {tok}, "code": {f.code}, "nickname": {nick}, "lang": {"en"}}, false)
	if err != nil || status != http.StatusSeeOther {
		return nil, fmt.Errorf("join: status %d %v %s", status, err, excerptOf(body))
	}
	status, body, _, err = st.u.get(ctx, hdr.Get("Location"))
	m := dataCSRF.FindStringSubmatch(body)
	if err != nil || status != 200 || m == nil {
		return nil, fmt.Errorf("play page: status %d %v", status, err)
	}
	st.csrf = m[1]
	return st, nil
}

// answer sends a student's answer as the page's script does and reports
// the status (0 when no response came) and whether it was acknowledged.
func (f *classroomFixture) answer(ctx context.Context, st *student, index int, choice, explanation string) (int, bool) {
	status, body, _, err := st.u.post(ctx, "/class/s/"+f.id+"/answer", url.Values{"_csrf": {st.csrf},
		"index": {strconv.Itoa(index)}, "choice": {choice}, "explanation": {explanation}}, true)
	if err != nil {
		return 0, false
	}
	return status, status == 200 && strings.Contains(body, `"ok":true`)
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
func practiceAnswer(ctx context.Context, u *vuser, qid, explanation string) int64 {
	tok, _, err := u.formToken(ctx, "/practice/"+qid)
	if err != nil {
		return 0
	}
	status, _, hdr, err := u.post(ctx, "/practice/"+qid, url.Values{"_csrf": {tok}, "choice": {"A"}, "explanation": {explanation}}, false)
	if err != nil || status != http.StatusSeeOther {
		return 0
	}
	id, _ := strconv.ParseInt(strings.TrimPrefix(hdr.Get("Location"), "/attempts/"), 10, 64)
	return id
}

func newTransport() *http.Transport {
	return &http.Transport{MaxIdleConns: 512, MaxIdleConnsPerHost: 512, IdleConnTimeout: 30 * time.Second, DisableCompression: true}
}
