package main

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/examsim/examsim/internal/loadgen"
	"github.com/examsim/examsim/internal/pgtest"
)

// retryUntil retries f, as a page's script retries on 503 and lost
// connections, until it succeeds or limit passes.
func retryUntil(limit time.Duration, f func() error) error {
	deadline := time.Now().Add(limit)
	for {
		err := f()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestTwoInstancesOnOneDatabase runs two examsim serve processes on one
// PostgreSQL database behind a balancer that alternates on every request.
// A login on one instance is a session on the other; a classroom of 300
// students joins and answers through it, their requests forwarded to the
// room's owner; the owner is SIGKILLed in the middle of the question; the
// other instance takes the room over from the database, every acknowledged
// answer is there, the rest of the class answers, the host's screen and
// controls and the students' event streams carry on.
func TestTwoInstancesOnOneDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two servers and 300 students")
	}
	dbURL := pgtest.URL(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	bin := buildExamsim(t)
	const user, password = "two_teacher", "two-Test-pass-7421"
	addUser(t, bin, dbURL, user, password, "instructor")
	servers := []*serverProc{startServer(t, bin, dbURL), startServer(t, bin, dbURL)}
	tr := newTransport()
	defer tr.CloseIdleConnections()

	// A login on one instance is a session on the other.
	u := loadgen.NewVUser(servers[0].URL, tr)
	if err := u.Login(ctx, user, password); err != nil {
		t.Fatalf("login on the first instance: %v", err)
	}
	u.Base = servers[1].URL
	if status, body, _, err := u.Get(ctx, "/class"); err != nil || status != http.StatusOK || !strings.Contains(body, user) {
		t.Fatalf("the session on the second instance: %d %v", status, err)
	}

	lb, err := loadgen.NewAlternating(tr, servers[0].URL, servers[1].URL)
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(lb)
	defer front.Close()

	// One MCP session across both: the balancer alternates its requests,
	// and the instance not holding the session forwards them to the one
	// that does.
	mcs, err := mcp.NewClient(&mcp.Implementation{Name: "two-instances", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: front.URL + "/mcp", DisableStandaloneSSE: true, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("an MCP session through the balancer: %v", err)
	}
	for i := range 4 {
		res, err := mcs.CallTool(ctx, &mcp.CallToolParams{Name: "lookup_order", Arguments: map[string]any{"order_id": "#12345"}})
		if err != nil || res.IsError {
			t.Fatalf("MCP call %d in the one session through the balancer: %v %+v", i, err, res)
		}
	}
	if _, err := mcs.ListTools(ctx, nil); err != nil {
		t.Fatalf("tools/list in the session: %v", err)
	}
	_ = mcs.Close()

	room, err := openRoom(ctx, front.URL, tr, user, password, 2)
	if err != nil {
		t.Fatalf("opening a live room through the balancer: %v", err)
	}
	const students = 300
	class, err := room.joinAll(ctx, front.URL, tr, "two", students)
	if err != nil {
		t.Fatalf("joining %d students through the balancer: %v", students, err)
	}
	if err := room.control(ctx, "next", -1); err != nil {
		t.Fatal(err)
	}

	// Half the class answers; then the owner dies.
	var acked sync.Map // nick: true once acknowledged
	answer := func(st *student) error {
		status, ok := room.answer(ctx, st, 0, "A", "The exit code said success while stderr said it failed.")
		if !ok {
			return fmt.Errorf("%s: status %d", st.nick, status)
		}
		acked.Store(st.nick, true)
		return nil
	}
	answerAll := func(group []*student, limit time.Duration) {
		var wg sync.WaitGroup
		sem := make(chan struct{}, 16)
		for _, st := range group {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				if err := retryUntil(limit, func() error { return answer(st) }); err != nil {
					t.Errorf("an answer was never acknowledged: %v", err)
				}
			}()
		}
		wg.Wait()
	}
	answerAll(class[:students/2], 30*time.Second)

	owner := leaseOwner(ctx, t, dbURL, room.ID)
	var dead, alive *serverProc
	for _, s := range servers {
		if s.URL == owner {
			dead = s
		} else {
			alive = s
		}
	}
	if dead == nil {
		t.Fatalf("the room's lease names %q, neither instance (%s, %s)", owner, servers[0].URL, servers[1].URL)
	}
	// Event streams pass through the forwarding: the balancer alternates, so
	// of two streams opened in a row one reaches the instance that does not
	// own the room and is forwarded, event by event.
	watcher := class[students-1]
	for i := range 2 {
		if err := firstEvent(ctx, watcher.u, "/class/s/"+room.ID+"/events"); err != nil {
			t.Errorf("a student's event stream %d through the balancer: %v", i, err)
		}
	}
	if got := forwardedCount(ctx, t, alive.URL, tr); got == 0 {
		t.Errorf("the instance not owning the room forwarded no request")
	}
	// The rest of the class answers, and the owner is SIGKILLed in the
	// middle of that burst: no handover, the lease must run out.
	rest := make(chan struct{})
	go func() {
		defer close(rest)
		answerAll(class[students/2:], 60*time.Second)
	}()
	for n := 0; n < students/2+20; {
		n = 0
		acked.Range(func(any, any) bool { n++; return true })
		time.Sleep(5 * time.Millisecond)
	}
	if err := dead.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-dead.done
	<-rest

	if got := leaseOwner(ctx, t, dbURL, room.ID); got != alive.URL {
		t.Errorf("after the kill the lease names %q, want the surviving instance %s", got, alive.URL)
	}
	if err := retryUntil(30*time.Second, func() error {
		status, body, _, err := room.host.Get(ctx, "/class/s/"+room.ID+"/host")
		if err != nil || status != http.StatusOK {
			return fmt.Errorf("the host screen: %d %v %s", status, err, loadgen.Excerpt(body))
		}
		return nil
	}); err != nil {
		t.Error(err)
	}
	if err := retryUntil(30*time.Second, func() error { return room.control(ctx, "reveal", 0) }); err != nil {
		t.Errorf("the host's reveal after the takeover: %v", err)
	}
	if err := retryUntil(30*time.Second, func() error { return firstEvent(ctx, watcher.u, "/class/s/"+room.ID+"/events") }); err != nil {
		t.Errorf("a student's event stream after the takeover: %v", err)
	}

	stored, _ := storedAnswers(ctx, t, dbURL, room.ID)
	lost := 0
	acked.Range(func(k, _ any) bool {
		if stored[answerKey{k.(string), 0}] == nil {
			lost++
		}
		return true
	})
	n := 0
	acked.Range(func(any, any) bool { n++; return true })
	if n != students || lost != 0 {
		t.Errorf("%d of %d students acknowledged, %d acknowledged answers lost", n, students, lost)
	}
}

// leaseOwner is the address in a room's lease.
func leaseOwner(ctx context.Context, t *testing.T, dbURL, roomID string) string {
	t.Helper()
	db, err := sql.Open("pgx", dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var addr string
	if err := db.QueryRowContext(ctx, `SELECT address FROM room_leases WHERE run_id = $1`, roomID).Scan(&addr); err != nil {
		t.Fatalf("the room's lease: %v", err)
	}
	return addr
}

// firstEvent opens an event stream and waits for its first event.
func firstEvent(ctx context.Context, u *loadgen.VUser, path string) error {
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	resp, err := u.OpenStream(sctx, path)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "event:") || strings.HasPrefix(sc.Text(), "data:") {
			return nil
		}
	}
	return fmt.Errorf("the stream ended without an event: %v", sc.Err())
}

// forwardedCount reads an instance's count of forwarded requests.
func forwardedCount(ctx context.Context, t *testing.T, base string, tr *http.Transport) int {
	t.Helper()
	status, body, _, err := loadgen.NewVUser(base, tr).Get(ctx, "/metrics")
	if err != nil || status != http.StatusOK {
		t.Fatalf("/metrics: %d %v", status, err)
	}
	for _, line := range strings.Split(body, "\n") {
		if v, ok := strings.CutPrefix(line, "examsim_classroom_forwarded_total "); ok {
			var n float64
			fmt.Sscan(v, &n)
			return int(n)
		}
	}
	t.Fatal("/metrics has no examsim_classroom_forwarded_total")
	return 0
}
