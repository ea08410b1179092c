package loadgen_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/loadgen"
	"github.com/examsim/examsim/internal/scenario"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web/webtest"
)

// TestVUserPlaysALiveRoom walks one host and one student through a live
// room on a real server, a step a subtest, so a failure names the step the
// simulated browser no longer gets through.
func TestVUserPlaysALiveRoom(t *testing.T) {
	app := webtest.Start(t)
	ctx := context.Background()
	if _, err := store.NewLearnerService(app.DB).CreateAccount(ctx, "vuser_host", "vuser-pass-1", examsim.RoleInstructor); err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	host := loadgen.NewVUser(app.URL, tr)
	var qids []string
	for _, q := range app.Bank.Questions[:2] {
		qids = append(qids, q.ID)
	}
	var (
		room    loadgen.LiveRoom
		hostTok string
		student = loadgen.NewVUser(app.URL, tr)
		playTok string
	)
	scenario.Run(t,
		scenario.Step{Name: "a wrong password is a StatusError", Run: func(t *testing.T) {
			var se *loadgen.StatusError
			if err := host.Login(ctx, "vuser_host", "not the password"); !errors.As(err, &se) || se.Status == http.StatusSeeOther {
				t.Fatalf("Login with a wrong password = %v; want a StatusError", err)
			}
		}},
		scenario.Step{Name: "login", Run: func(t *testing.T) {
			if err := host.Login(ctx, "vuser_host", "vuser-pass-1"); err != nil {
				t.Fatal(err)
			}
		}},
		scenario.Step{Name: "the builder's form token", Run: func(t *testing.T) {
			var err error
			if hostTok, err = host.FormToken(ctx, "/class/quizzes/new"); err != nil || hostTok != host.CSRF() {
				t.Fatalf("FormToken = %q, %v; CSRF() = %q", hostTok, err, host.CSRF())
			}
		}},
		scenario.Step{Name: "open a live room", Run: func(t *testing.T) {
			var err error
			room, err = host.OpenLiveRoom(ctx, hostTok, loadgen.Quiz{Title: "vuser room", Scoring: "correctness", Seconds: 60, QuestionIDs: qids})
			if err != nil || room.ID == "" || room.Code == "" {
				t.Fatalf("OpenLiveRoom = %+v, %v", room, err)
			}
		}},
		scenario.Step{Name: "join", Run: func(t *testing.T) {
			var err error
			if playTok, err = student.Join(ctx, room.Code, "vuser_student", "pl"); err != nil || playTok == "" {
				t.Fatalf("Join = %q, %v", playTok, err)
			}
		}},
		scenario.Step{Name: "the student's event stream", Run: func(t *testing.T) {
			sctx, cancel := context.WithCancel(ctx)
			defer cancel()
			resp, err := student.OpenStream(sctx, "/class/s/"+room.ID+"/events")
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
				t.Fatalf("status %d, Content-Type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
		}},
		scenario.Step{Name: "next", Run: func(t *testing.T) {
			if err := host.Control(ctx, room.ID, hostTok, "next", -1); err != nil {
				t.Fatal(err)
			}
		}},
		scenario.Step{Name: "answer", Run: func(t *testing.T) {
			if status, err := student.Answer(ctx, room.ID, playTok, 0, "A", "a validation error: do not retry"); err != nil || status != http.StatusOK {
				t.Fatalf("Answer = %d, %v", status, err)
			}
		}},
		scenario.Step{Name: "a second answer is refused, not taken", Run: func(t *testing.T) {
			status, err := student.Answer(ctx, room.ID, playTok, 0, "B", "changed my mind")
			if status != http.StatusConflict || err == nil || loadgen.Busy(err) {
				t.Fatalf("a second answer = %d, %v; want 409 and an error that is not Busy", status, err)
			}
		}},
	)
}

func TestBusy(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{&loadgen.StatusError{Step: "join", Status: http.StatusServiceUnavailable}, true},
		{&loadgen.StatusError{Step: "join", Status: http.StatusConflict}, false},
		{fmt.Errorf("host next: %w", &loadgen.StatusError{Step: "host next", Status: http.StatusServiceUnavailable}), true},
		{errors.New("connection refused"), false},
		{nil, false},
	} {
		if got := loadgen.Busy(c.err); got != c.want {
			t.Errorf("Busy(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

func TestStatusErrorSaysTheStepAndStatus(t *testing.T) {
	for _, c := range []struct {
		err  *loadgen.StatusError
		want string
	}{
		{&loadgen.StatusError{Step: "logging in as x", Status: 200}, "logging in as x: status 200"},
		{&loadgen.StatusError{Step: "answer", Status: 409, Body: "{\"error\":\n  \"already answered\"}"}, `answer: status 409 {"error": "already answered"}`},
		{&loadgen.StatusError{Step: "join", Status: 503, Body: strings.Repeat("x", 300)}, "join: status 503 " + strings.Repeat("x", 200)},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("Error() = %q, want %q", got, c.want)
		}
	}
}

// A busy server refusing the page a form comes from is Busy too, so the
// load generator retries it as it retries the POST.
func TestFormTokenFromABusyServerIsBusy(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "press again", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	_, err := loadgen.NewVUser(srv.URL, &http.Transport{}).FormToken(t.Context(), "/join?code=ABC")
	if !loadgen.Busy(err) {
		t.Errorf("FormToken against a 503: %v, want an error Busy reports", err)
	}
}

func TestExcerptKeepsWholeCharacters(t *testing.T) {
	got := loadgen.Excerpt("x" + strings.Repeat("ก", 100)) // 1 + 3 bytes each: byte 200 is inside one
	if !utf8.ValidString(got) || len(got) > 200 {
		t.Errorf("Excerpt = %q (%d bytes): want valid UTF-8 of at most 200 bytes", got, len(got))
	}
}
