package web_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/classroom"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web"
	"github.com/examsim/examsim/web/webtest"
)

// injectionPayloads are what a hostile user types. Each markup payload
// carries data-pwn, so an element it managed to create is easy to find.
var injectionPayloads = []string{
	// XSS
	`<script>window.pwn=1</script>`,
	`<img src=x onerror=alert(1) data-pwn>`,
	`"><svg onload=alert(1) data-pwn>`,
	`'><b data-pwn>x</b>`,
	`<b data-pwn>hi</b>`,
	`"><i data-pwn>`,
	`</textarea><i data-pwn>x</i>`,
	`</title><i data-pwn>t</i>`,
	`<a href="javascript:alert(1)" data-pwn>x</a>`,
	`<!--<i data-pwn>-->`,
	`<style>body{display:none}</style>`,
	`<iframe srcdoc="<script>alert(1)</script>" data-pwn></iframe>`,
	`{{.Learner}} ${7*7} <%= 7*7 %>`,
	// SQL injection
	`'; DROP TABLE attempts; --`,
	`" OR ""="`,
	`1' OR '1'='1`,
	`Robert'); DROP TABLE learners;--`,
	`%' UNION SELECT password_hash FROM learners --`,
	`admin--`,
	// CSV injection
	`=HYPERLINK("http://evil.example","x")`,
	`+cmd|' /C calc'!A0`,
	`-2+3`,
	`@SUM(1+1)*cmd|' /C calc'!A0`,
	"\t=1+1",
	// Header injection
	"x\r\nSet-Cookie: pwn=1",
	"x\r\nLocation: http://evil.example",
	"%0d%0aSet-Cookie:%20pwn=1",
	// Unicode tricks
	"\u202eevil\u202c",
	"ไม่ควร retry <b data-pwn>",
}

// injectionField is one place a user can type into.
type injectionField struct {
	name string
	// stored is what the field keeps of the payload by its own rules
	// (trimmed, normalised), or false when its rules refuse it.
	stored func(payload string) (string, bool)
	// submit types the payload in and returns the responses to check and,
	// if the app kept it, what the store holds. refused is the response
	// that turned it away.
	submit func(t *testing.T, payload string) (shown []*page, kept string, refused *page)
}

type injectionApp struct {
	*classApp
	admin, host *client
	room        string
	code        string
	sessionID   int64
}

func newInjectionApp(t *testing.T) *injectionApp {
	app := webtest.Start(t, webtest.WithConfig(func(c *web.Config) {
		c.RateLimits = web.RateLimits{LoginPerClient: lots, LoginPerAccount: lots, RegisterPerClient: lots, JoinPerClient: lots, JoinFailuresPerClient: lots}
	}))
	a := &injectionApp{classApp: &classApp{App: app, t: t}}
	a.admin = a.account("the_admin", examsim.RoleAdmin)
	a.host = a.account("teacher", examsim.RoleInstructor)
	// An assignment, so students answer at their own pace.
	p := a.host.post("/class/quizzes/new", "/class/quizzes", url.Values{"title": {"Quiz"}, "seconds": {"20"}, "scoring": {"speed"},
		"explanations": {"optional"}, "action": {"save"}, "q": classQuestions})
	m := quizLocation.FindStringSubmatch(p.header.Get("Location"))
	if m == nil {
		t.Fatalf("quiz: %d", p.status)
	}
	p = a.host.post("/class/quizzes/"+m[1], "/class/quizzes/"+m[1]+"/sessions", url.Values{"mode": {"assignment"}, "hours": {"24"}})
	a.room = strings.TrimSuffix(p.header.Get("Location"), "/host")
	a.sessionID, _ = strconv.ParseInt(strings.TrimPrefix(a.room, "/class/s/"), 10, 64)
	a.code = a.host.get(a.room + "/host").text("[data-testid=join-code]")
	if a.sessionID == 0 || len(a.code) != 6 {
		t.Fatalf("session %q, code %q", a.room, a.code)
	}
	return a
}

var attemptID = regexp.MustCompile(`^/attempts/([0-9]+)$`)

func (a *injectionApp) fields() []injectionField {
	ctx := context.Background()
	trim := func(s string) (string, bool) { return strings.TrimSpace(s), true }
	attempts, classes := store.NewAttemptService(a.DB), store.NewClassroomService(a.DB)
	students := 0
	return []injectionField{
		{
			name:   "practice explanation",
			stored: trim,
			submit: func(t *testing.T, payload string) ([]*page, string, *page) {
				c := newClient(t, a.Server)
				res := c.post("/practice/malformed-order-id", "/practice/malformed-order-id", url.Values{"choice": {"D"}, "explanation": {payload}})
				m := attemptID.FindStringSubmatch(res.header.Get("Location"))
				if m == nil {
					return []*page{res}, "", res
				}
				id, _ := strconv.ParseInt(m[1], 10, 64)
				at, err := attempts.FindAttempt(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				checkExports(t, c, at.Explanation)
				return []*page{res, c.get(m[0]), c.get("/me")}, at.Explanation, nil
			},
		},
		{
			name:   "exam explanation",
			stored: trim,
			submit: func(t *testing.T, payload string) ([]*page, string, *page) {
				c := newClient(t, a.Server)
				exam := startExam(t, c, url.Values{"count": {"1"}})
				res := c.post(exam+"/q/1", exam+"/q/1", url.Values{"choice": {"A"}, "explanation": {payload}, "go": {"review"}})
				if res.status != http.StatusSeeOther {
					return []*page{res}, "", res
				}
				again := c.get(exam + "/q/1")
				if got := again.doc.Find("[data-testid=explanation]").Text(); got != norm(strings.TrimSpace(payload)) {
					t.Errorf("exam explanation %q shown back as %q", payload, got)
				}
				done := c.post(exam+"/review", exam+"/submit", url.Values{})
				list, err := attempts.ListAttempts(ctx, learnerOf(t, c), 10)
				if err != nil || len(list) != 1 {
					t.Fatalf("attempts after the exam: %v %d", err, len(list))
				}
				checkExports(t, c, list[0].Explanation)
				return []*page{res, again, done, c.get(exam + "/results"), c.get("/me")}, list[0].Explanation, nil
			},
		},
		{
			name: "nickname",
			stored: func(s string) (string, bool) {
				nick, err := classroom.CleanNickname(s)
				return nick, err == nil
			},
			submit: func(t *testing.T, payload string) ([]*page, string, *page) {
				c := newClient(t, a.Server)
				res := c.post("/join?code="+a.code, "/join", url.Values{"code": {a.code}, "nickname": {payload}, "lang": {"en"}})
				if res.status != http.StatusSeeOther {
					return []*page{res}, "", res
				}
				players, err := classes.ListPlayers(ctx, a.sessionID)
				if err != nil || len(players) == 0 {
					t.Fatalf("players: %v", err)
				}
				nick := players[len(players)-1].Nickname
				if p := answer(t, c, a.room, 0, "A", ""); p.status != http.StatusOK { // the CSV lists answers
					t.Fatalf("answer: %d", p.status)
				}
				results := a.host.get(a.room + "/results.csv")
				checkCSVCell(t, results, 0, nick)
				return []*page{res, c.get(a.room + "/play"), a.host.get(a.room + "/host"), a.host.get(a.room + "/results"), results}, nick, nil
			},
		},
		{
			name:   "classroom explanation",
			stored: trim,
			submit: func(t *testing.T, payload string) ([]*page, string, *page) {
				c := newClient(t, a.Server)
				students++
				nick := "Student " + strconv.Itoa(students)
				if p := c.post("/join?code="+a.code, "/join", url.Values{"code": {a.code}, "nickname": {nick}, "lang": {"en"}}); p.status != http.StatusSeeOther {
					t.Fatalf("join as %s: %d", nick, p.status)
				}
				res := answer(t, c, a.room, 0, "A", payload)
				if res.status != http.StatusOK {
					return []*page{res}, "", res
				}
				answers, err := classes.ListAnswers(ctx, a.sessionID)
				if err != nil || len(answers) == 0 {
					t.Fatalf("answers: %v", err)
				}
				kept := answers[len(answers)-1].Explanation
				results := a.host.get(a.room + "/results.csv")
				checkCSVCell(t, results, 9, kept) // the explanation column
				return []*page{res, c.get(a.room + "/play"), a.host.get(a.room + "/results"), results}, kept, nil
			},
		},
		{
			name: "quiz title",
			stored: func(s string) (string, bool) {
				s = strings.TrimSpace(s)
				n := utf8.RuneCountInString(s)
				return s, n > 0 && n <= examsim.MaxQuizTitle
			},
			submit: func(t *testing.T, payload string) ([]*page, string, *page) {
				res := a.host.post("/class/quizzes/new", "/class/quizzes", url.Values{"title": {payload}, "seconds": {"20"}, "scoring": {"speed"},
					"explanations": {"optional"}, "action": {"save"}, "q": classQuestions})
				m := quizLocation.FindStringSubmatch(res.header.Get("Location"))
				if m == nil {
					return []*page{res}, "", res
				}
				id, _ := strconv.ParseInt(m[1], 10, 64)
				q, err := classes.FindQuiz(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				return []*page{res, a.host.get("/class"), a.host.get("/class/quizzes/" + m[1])}, q.Title, nil
			},
		},
		{
			name: "username",
			stored: func(s string) (string, bool) {
				s = strings.TrimSpace(s)
				return s, store.ValidateCredentials(s, "a less common passphrase") == nil
			},
			submit: func(t *testing.T, payload string) ([]*page, string, *page) {
				c := newClient(t, a.Server)
				res := c.post("/register", "/register", url.Values{"username": {payload}, "password": {"a less common passphrase"}})
				if res.status != http.StatusSeeOther {
					return []*page{res}, "", res
				}
				kept := signedIn(c)
				// The name logs in as typed: it is data, never SQL.
				again := newClient(t, a.Server)
				if p := again.post("/login", "/login", url.Values{"username": {payload}, "password": {"a less common passphrase"}}); p.status != http.StatusSeeOther {
					t.Errorf("username %q cannot log in: %d", payload, p.status)
				}
				return []*page{res, c.get("/me"), a.admin.get("/admin/users")}, kept, nil
			},
		},
		{
			name:   "login username",
			stored: func(string) (string, bool) { return "", false }, // never stored
			submit: func(t *testing.T, payload string) ([]*page, string, *page) {
				c := newClient(t, a.Server)
				res := c.post("/login", "/login", url.Values{"username": {payload}, "password": {"anything at all"}})
				return []*page{res}, "", res
			},
		},
		{
			name: "sandbox edited result",
			// Not stored: shown back in the editor, where HTML reads line
			// ends as \n.
			stored: func(s string) (string, bool) { return norm(s), true },
			submit: func(t *testing.T, payload string) ([]*page, string, *page) {
				c := newClient(t, a.Server)
				replay := func(result string) *page {
					return c.post("/sandbox?scenario=empty&agent=structured&edit=1", "/sandbox/replay", url.Values{
						"scenario": {"empty"}, "agent": {"structured"}, "seed": {"1"}, "call": {"1"}, "result": {result}})
				}
				// As the whole text: not a result, so the editor comes back
				// with the text exactly as typed.
				bad := replay(payload)
				kept := bad.doc.Find("[data-testid=edit-text]").Text()
				if bad.status != http.StatusUnprocessableEntity {
					t.Errorf("edited result %q: %d, want 422", payload, bad.status)
				}
				// Inside a valid result: the agent is replayed on it.
				text, _ := json.Marshal(payload)
				good := replay(`{"isError": true, "content": [{"type": "text", "text": ` + string(text) + `}],
					"structuredContent": {"errorCategory": "transient", "isRetryable": true, "description": ` + string(text) + `,
					"attempted_query": "lookup_customer email=sam@example.com"}}`)
				if good.status != http.StatusOK {
					t.Errorf("a valid result holding %q: %d %s", payload, good.status, good.text("[data-testid=edit-error]"))
				}
				return []*page{bad, good}, kept, nil
			},
		},
	}
}

// learnerOf returns the id of the client's learner, from the data export.
func learnerOf(t *testing.T, c *client) int64 {
	t.Helper()
	var doc struct{ Learner struct{ ID int64 } }
	if err := json.Unmarshal([]byte(c.get("/me/history.json").body), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Learner.ID
}

// checkExports checks the learner's exports: the JSON keeps the
// explanation exactly, the CSV keeps it in a cell a spreadsheet shows as
// text.
func checkExports(t *testing.T, c *client, explanation string) {
	t.Helper()
	var doc struct {
		Attempts []struct{ Explanation string }
	}
	if err := json.Unmarshal([]byte(c.get("/me/history.json").body), &doc); err != nil || len(doc.Attempts) == 0 {
		t.Fatalf("JSON export: %v", err)
	}
	if doc.Attempts[0].Explanation != explanation {
		t.Errorf("JSON export has %q, want %q", doc.Attempts[0].Explanation, explanation)
	}
	exp := c.get("/me/history.csv")
	rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(exp.body, "\uFEFF"))).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("CSV export: %v", err)
	}
	col := -1
	for i, h := range rows[0] {
		if h == "explanation" {
			col = i
		}
	}
	if col < 0 {
		t.Fatalf("no explanation column in %q", rows[0])
	}
	checkCell(t, "the learner's CSV", rows[1][col], explanation)
	checkNoFormulas(t, "the learner's CSV", rows)
}

// checkCSVCell checks the last row of a classroom CSV export.
func checkCSVCell(t *testing.T, p *page, col int, want string) {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(p.body, "\uFEFF"))).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("classroom CSV: %v, %d rows", err, len(rows))
	}
	last := rows[len(rows)-1]
	for _, r := range rows[1:] { // the last answered row: a row per student and question, answered or not
		if r[5] == "answered" {
			last = r
		}
	}
	checkCell(t, "the classroom CSV", last[col], want)
	checkNoFormulas(t, "the classroom CSV", rows)
}

// checkCell: a cell holds the value, with an apostrophe before it when a
// spreadsheet would otherwise run it as a formula.
func checkCell(t *testing.T, where, cell, want string) {
	t.Helper()
	if want != "" && strings.ContainsRune("=+-@\t\r", rune(want[0])) {
		want = "'" + want
	}
	if norm(cell) != norm(want) { // a CSV reader reads \r\n in a cell as \n
		t.Errorf("%s: cell %q, want %q", where, cell, want)
	}
}

func checkNoFormulas(t *testing.T, where string, rows [][]string) {
	t.Helper()
	for _, row := range rows {
		for _, cell := range row {
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				t.Errorf("%s: cell %q would run as a formula", where, cell)
			}
		}
	}
}

// checkInert checks that a response shows the payload as text, never as
// markup, script or a header.
func checkInert(t *testing.T, where string, p *page) {
	t.Helper()
	if p.status >= 500 {
		t.Errorf("%s: status %d", where, p.status)
	}
	for name, values := range p.header {
		for _, v := range values {
			if strings.ContainsAny(v, "\r\n") || strings.Contains(strings.ToLower(name), "pwn") {
				t.Errorf("%s: header %s: %q", where, name, v)
			}
			// "pwn=" is the injected cookie itself: a random token may hold
			// the letters "pwn" by chance and inject nothing.
			if (name == "Set-Cookie" && strings.HasPrefix(strings.TrimSpace(v), "pwn=")) || (name == "Location" && strings.Contains(v, "evil")) {
				t.Errorf("%s: injected header %s: %q", where, name, v)
			}
		}
	}
	if p.doc == nil || !strings.HasPrefix(p.header.Get("Content-Type"), "text/html") {
		return
	}
	if n := p.doc.Find("[data-pwn], iframe, svg[onload]").Length(); n > 0 {
		t.Errorf("%s: %d injected elements", where, n)
	}
	for _, problem := range inlineCode(p) {
		t.Errorf("%s: %s", where, problem)
	}
}

// TestInjectionIsStoredIntactAndRenderedInert types every payload into
// every field: what the field's rules accept is stored exactly as typed
// (after its documented trimming), read back from the store and the
// exports; what they refuse gets a clear 4xx; and every page, export and
// header shows the payload as inert text.
func TestInjectionIsStoredIntactAndRenderedInert(t *testing.T) {
	a := newInjectionApp(t)
	for _, f := range a.fields() {
		accepted := 0
		for _, payload := range injectionPayloads {
			where := f.name + " " + strconv.Quote(payload)
			want, ok := f.stored(payload)
			shown, kept, refused := f.submit(t, payload)
			switch {
			case ok && refused != nil:
				t.Errorf("%s: refused with %d %q, though the field's rules allow it", where, refused.status, refused.text("[data-testid=form-error]"))
			case !ok && refused == nil:
				t.Errorf("%s: accepted, though the field's rules refuse it", where)
			case refused != nil:
				if refused.status < 400 || refused.status >= 500 || refused.text("[data-testid=form-error]") == "" {
					t.Errorf("%s: refused with %d and no message", where, refused.status)
				}
			case kept != want:
				t.Errorf("%s: stored %q, want %q", where, kept, want)
			default:
				accepted++
				if text := norm(want); !anyShows(shown, text) {
					t.Errorf("%s: no page shows the text as typed", where)
				}
			}
			for i, p := range shown {
				checkInert(t, where+" response "+strconv.Itoa(i), p)
			}
		}
		if f.name != "login username" && accepted == 0 {
			t.Errorf("%s accepted no payload: the test proves nothing about storing it", f.name)
		}
	}
	// Nothing was dropped: the tables the SQL payloads name still answer.
	ctx := context.Background()
	if users, err := store.NewLearnerService(a.DB).ListAccounts(ctx); err != nil || len(users) < 3 {
		t.Errorf("accounts after the payloads: %v, %d", err, len(users))
	}
	if answers, err := store.NewClassroomService(a.DB).ListAnswers(ctx, a.sessionID); err != nil || len(answers) == 0 {
		t.Errorf("classroom answers after the payloads: %v, %d", err, len(answers))
	}
}

// norm is text as an HTML parser reads it back: line ends become \n.
func norm(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// anyShows reports whether some HTML page or CSV shows text as text.
func anyShows(pages []*page, text string) bool {
	for _, p := range pages {
		if p.doc != nil && strings.HasPrefix(p.header.Get("Content-Type"), "text/html") && strings.Contains(norm(p.doc.Text()), text) {
			return true
		}
		if strings.HasPrefix(p.header.Get("Content-Type"), "text/csv") {
			rows, _ := csv.NewReader(strings.NewReader(strings.TrimPrefix(p.body, "\uFEFF"))).ReadAll()
			for _, row := range rows {
				for _, cell := range row {
					if cell == text || (strings.HasPrefix(cell, "'") && cell[1:] == text) {
						return true
					}
				}
			}
		}
	}
	return false
}
