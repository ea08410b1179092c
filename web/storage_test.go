package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/i18n"
	"github.com/examsim/examsim/store"
)

// TestPracticeWhenDiskFull fills the database until SQLite answers
// SQLITE_FULL, then submits a practice answer in Vietnamese: the learner is
// told in Vietnamese that the disk is full, that it is temporary and what
// to do, with their answer kept in the form; nothing is acknowledged, and
// the same answer goes through once there is room again.
func TestPracticeWhenDiskFull(t *testing.T) {
	ctx := context.Background()
	app := newClassApp(t)
	catalog, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(t, app.Server)
	c.get("/?lang=vi")
	const qpath = "/practice/malformed-order-id"
	explanation := "Đây là lỗi validation: mã đơn hàng sai định dạng, thử lại cũng không giúp gì. " + strings.Repeat("x", 300)
	form := url.Values{"choice": {"A"}, "explanation": {explanation}}
	first := c.post(qpath, qpath, form)
	if first.status != http.StatusSeeOther {
		t.Fatalf("the first answer: %d", first.status)
	}
	firstID, _ := strconv.ParseInt(strings.TrimPrefix(first.header.Get("Location"), "/attempts/"), 10, 64)
	attempts := store.NewAttemptService(app.DB)
	acked, err := attempts.FindAttempt(ctx, firstID)
	if err != nil {
		t.Fatal(err)
	}

	// Fill the disk with answers shaped like the next one, so it cannot fit.
	skipUnlessSQLite(t, app)
	if err := app.DB.LimitPages(ctx, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { app.DB.LimitPages(ctx, -1) })
	for i := 0; ; i++ {
		filler := *acked
		filler.ID = 0
		if err = attempts.CreateAttempt(ctx, &filler); err != nil {
			break
		}
		if i > 10000 {
			t.Fatal("the database never filled up")
		}
	}
	if examsim.ErrorCode(err) != examsim.EUNAVAILABLE {
		t.Fatalf("filling the database ended with %v", err)
	}

	p := c.post(qpath, qpath, form)
	if p.status != http.StatusServiceUnavailable {
		t.Fatalf("an answer on a full disk: status %d, want 503", p.status)
	}
	msg := p.text(`[data-testid=form-error]`)
	for _, id := range []string{"error.storage_full", "hint.storage_full"} {
		if want := catalog.T(examsim.Vietnamese, id); !strings.Contains(msg, want) {
			t.Errorf("the message %q lacks %s in Vietnamese: %q", msg, id, want)
		}
	}
	if got := p.doc.Find(`textarea[name=explanation]`).Text(); got != explanation {
		t.Errorf("the explanation was not kept: %q", got)
	}
	if lang, _ := p.doc.Find("html").Attr("lang"); lang != "vi" {
		t.Errorf("page language %q", lang)
	}
	if p.header.Get("Location") != "" {
		t.Error("an answer that was not saved was redirected to a result")
	}

	// Space returns: the same form goes through, and nothing is lost.
	if err := app.DB.LimitPages(ctx, -1); err != nil {
		t.Fatal(err)
	}
	again := c.post(qpath, qpath, form)
	if again.status != http.StatusSeeOther {
		t.Fatalf("after space returned: %d %s", again.status, again.text(`[data-testid=form-error]`))
	}
	for _, loc := range []string{first.header.Get("Location"), again.header.Get("Location")} {
		if r := c.get(loc); r.status != 200 {
			t.Errorf("%s: %d", loc, r.status)
		}
	}
	if err := app.DB.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}

// TestClassroomAnswerWhenReadOnly makes the database refuse writes (as a
// read-only file does) while a room is running: a student's answer is not
// acknowledged; the script gets a JSON error saying it is transient and
// retryable, a plain form the question again with the text kept, both in
// the student's language; and the answer goes through once writes work.
func TestClassroomAnswerWhenReadOnly(t *testing.T) {
	ctx := context.Background()
	app := newClassApp(t)
	catalog, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	host := app.account("teacher_ro", examsim.RoleInstructor)
	path, code := app.startRun(host, "optional")
	student := app.join(code, "Kasia", "pl")
	control(t, host, path, "start", -1)

	skipUnlessSQLite(t, app)
	if err := app.DB.SetQueryOnly(ctx, true); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { app.DB.SetQueryOnly(ctx, false) })
	p := answer(t, student, path, 0, "A", "Błąd walidacji: ponawianie nic nie da.")
	if p.status != http.StatusServiceUnavailable {
		t.Fatalf("an answer to a read-only database: %d %s", p.status, p.body)
	}
	var body struct {
		Error struct {
			Code        string `json:"code"`
			Category    string `json:"errorCategory"`
			Retryable   bool   `json:"isRetryable"`
			Description string `json:"description"`
			Hint        string `json:"hint"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(p.body), &body); err != nil {
		t.Fatalf("%v: %s", err, p.body)
	}
	want := fmt.Sprintf("%s/%s/%t/%s/%s", examsim.EUNAVAILABLE, examsim.Transient, true,
		catalog.T(examsim.Polish, "error.storage_readonly"), catalog.T(examsim.Polish, "hint.storage_readonly"))
	e := body.Error
	if got := fmt.Sprintf("%s/%s/%t/%s/%s", e.Code, e.Category, e.Retryable, e.Description, e.Hint); got != want {
		t.Errorf("error = %s\nwant    %s", got, want)
	}

	// The page without script: the question again, the text kept.
	play := student.get(path + "/play")
	token, _ := play.doc.Find("#class-root").Attr("data-csrf")
	plain := student.postRaw(path+"/answer", url.Values{"_csrf": {token}, "index": {"0"}, "choice": {"A"}, "explanation": {"zachowany tekst"}})
	if plain.status != http.StatusServiceUnavailable {
		t.Fatalf("a plain form to a read-only database: %d", plain.status)
	}
	if msg := plain.text(`[data-testid=form-error]`); !strings.Contains(msg, catalog.T(examsim.Polish, "error.storage_readonly")) {
		t.Errorf("form error = %q", msg)
	}
	if got := plain.doc.Find(`[data-testid=explanation]`).Text(); got != "zachowany tekst" {
		t.Errorf("the explanation was not kept: %q", got)
	}
	if stored, _ := app.Classes().ListAnswers(ctx, app.runID(t, path)); len(stored) != 0 {
		t.Fatalf("%d answers stored while the database was read-only", len(stored))
	}

	if err := app.DB.SetQueryOnly(ctx, false); err != nil {
		t.Fatal(err)
	}
	if p := answer(t, student, path, 0, "A", "Błąd walidacji: ponawianie nic nie da."); p.status != 200 || !strings.Contains(p.body, `"ok":true`) {
		t.Fatalf("after writes work again: %d %s", p.status, p.body)
	}
	if stored, _ := app.Classes().ListAnswers(ctx, app.runID(t, path)); len(stored) != 1 {
		t.Errorf("%d answers stored, want 1", len(stored))
	}
}

func (a *classApp) Classes() *store.ClassroomService { return store.NewClassroomService(a.DB) }

// runID reads a run's id from its path, /class/s/ID.
func (a *classApp) runID(t *testing.T, path string) int64 {
	t.Helper()
	id, err := strconv.ParseInt(strings.TrimPrefix(path, "/class/s/"), 10, 64)
	if err != nil {
		t.Fatalf("run path %q", path)
	}
	return id
}

// skipUnlessSQLite skips a test of SQLite's own storage faults when the
// suite runs on PostgreSQL (EXAMSIM_TEST_POSTGRES).
func skipUnlessSQLite(t *testing.T, app *classApp) {
	t.Helper()
	if app.DB.Dialect() != "sqlite" {
		t.Skip("a SQLite storage fault; PostgreSQL's own are the server's")
	}
}
