package web_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/static"
	"github.com/examsim/examsim/web"
	"github.com/examsim/examsim/web/webtest"
)

// The actors of the authorisation matrix. "learner" owns the attempt, the
// exam and the predictions, and plays in the instructor's room;
// "instructor" owns the quiz and hosts the room.
const (
	anonymous       = "anonymous"
	learner         = "learner"
	otherLearner    = "another learner"
	instructor      = "instructor"
	otherInstructor = "another instructor"
	admin           = "admin"
)

var actors = []string{anonymous, learner, otherLearner, instructor, otherInstructor, admin}

// expect is one route's expected status for each actor.
type expect map[string]int

// everyone expects the same status for every actor: routes that answer
// alike whoever asks (each acting on the asker's own data, if any).
func everyone(status int) expect {
	e := expect{}
	for _, a := range actors {
		e[a] = status
	}
	return e
}

// only expects allowed for the listed actors and denied for the rest.
func only(allowed, denied int, who ...string) expect {
	e := everyone(denied)
	for _, a := range who {
		e[a] = allowed
	}
	return e
}

// with overrides some actors' statuses.
func (e expect) with(status int, who ...string) expect {
	out := expect{}
	for k, v := range e {
		out[k] = v
	}
	for _, a := range who {
		out[a] = status
	}
	return out
}

// teachers are the actors who may use the instructor pages at all.
var teachers = []string{instructor, otherInstructor, admin}

// routeCase is one row of the matrix: how to call the route, and who may.
type routeCase struct {
	path   string     // with the world's ids filled in
	form   url.Values // for a form POST; nil for GET
	json   string     // for a JSON POST
	accept string
	stream bool // an event stream: read the status only
	phase  int  // rows run by phase: 0 reads, 1 writes, 2 ends an exam or a session
	want   expect
}

// authzWorld is a running app with real objects owned by specific actors.
type authzWorld struct {
	*classApp
	clients  map[string]*client
	ids      map[string]int64
	attempt  string // the learner's attempt's path
	grading  string // the regrade page of the learner's attempt
	exam     string // the learner's exam's path
	quiz     string // the instructor's quiz's path
	authored string // the instructor's own (unshared) question's path
	room     string // the instructor's session's path
	code     string
}

func newAuthzWorld(t *testing.T) *authzWorld {
	// Every optional route mounted, so the matrix covers it too.
	app := webtest.Start(t, webtest.WithConfig(func(c *web.Config) { c.BenchCeiling = true }))
	w := &authzWorld{classApp: &classApp{App: app, t: t}, clients: map[string]*client{}, ids: map[string]int64{}}
	names := map[string]struct {
		user string
		role examsim.Role
	}{
		learner: {"lena", examsim.RoleLearner}, otherLearner: {"otto", examsim.RoleLearner},
		instructor: {"ines", examsim.RoleInstructor}, otherInstructor: {"ivan", examsim.RoleInstructor}, admin: {"ada", examsim.RoleAdmin},
	}
	for actor, n := range names {
		w.clients[actor] = w.account(n.user, n.role)
		var doc struct{ Learner struct{ ID int64 } }
		if err := json.Unmarshal([]byte(w.clients[actor].get("/me/history.json").body), &doc); err != nil || doc.Learner.ID == 0 {
			t.Fatalf("%s's id: %v", actor, err)
		}
		w.ids[actor] = doc.Learner.ID
	}

	lena := w.clients[learner]
	p := lena.post("/practice/malformed-order-id", "/practice/malformed-order-id",
		url.Values{"choice": {"D"}, "explanation": {"authz-secret-of-lena: validation error, fix the id"}})
	w.attempt = p.header.Get("Location")
	if p.status != http.StatusSeeOther || !strings.HasPrefix(w.attempt, "/attempts/") {
		t.Fatalf("the learner's attempt: %d %q", p.status, w.attempt)
	}
	w.grading = "/class/grading/attempt/" + strings.TrimPrefix(w.attempt, "/attempts/")
	w.exam = startExam(t, lena, url.Values{})
	if p := lena.post("/sandbox", "/sandbox/predictions", url.Values{"scenario": {"empty"}, "agent": {"naive"}, "seed": {"1"},
		"decision": {"1"}, "move": {"retry"}}); p.status != http.StatusSeeOther {
		t.Fatalf("the learner's prediction: %d", p.status)
	}

	ines := w.clients[instructor]
	w.room, w.code = w.startRun(ines, "optional")
	w.quiz = ines.get("/class").doc.Find("[data-testid=quiz-card] a").AttrOr("href", "")
	if w.quiz == "" {
		t.Fatal("no quiz on the instructor's page")
	}
	if p := ines.post(w.quiz, w.quiz, url.Values{"title": {"authz-secret-quiz"}, "seconds": {"20"}, "scoring": {"speed"},
		"explanations": {"optional"}, "action": {"save"}, "q": classQuestions}); p.status != http.StatusSeeOther {
		t.Fatalf("renaming the quiz: %d %s", p.status, p.text("[data-testid=form-error]"))
	}
	if p := lena.post("/join?code="+w.code, "/join", url.Values{"code": {w.code}, "nickname": {"Lena-zq"}, "lang": {"en"}}); p.status != http.StatusSeeOther {
		t.Fatalf("the learner joins: %d %s", p.status, p.text("[data-testid=form-error]"))
	}
	control(t, ines, w.room, "start", -1)
	w.authored = authoredQuestion(t, w.App, w.ids[instructor])
	return w
}

// cases is the matrix: one row for every route of web/routes.go, keyed as
// "METHOD /path/:param". A route added without a row fails the test.
func (w *authzWorld) cases() map[string]routeCase {
	const ok, see, bad, unauth, forbid, notFound = 200, 303, 400, 401, 403, 404
	quizForm := url.Values{"title": {"Quiz"}, "seconds": {"20"}, "scoring": {"speed"}, "explanations": {"optional"},
		"action": {"save"}, "q": classQuestions}
	get := func(path string, want expect) routeCase { return routeCase{path: path, want: want} }
	post := func(path string, form url.Values, want expect) routeCase {
		return routeCase{path: path, form: form, phase: 1, want: want}
	}
	host := only(ok, forbid, instructor).with(unauth, anonymous)
	hostWrite := only(see, forbid, instructor).with(unauth, anonymous)
	teacherPage := only(ok, forbid, teachers...).with(unauth, anonymous)
	ownExam := only(ok, notFound, learner)
	return map[string]routeCase{
		"GET /healthz":  get("/healthz", everyone(ok)),
		"GET /_ceiling": get("/_ceiling", everyone(ok)), // fixed bytes for load runs, mounted only with --bench-ceiling
		// The fan-out ceiling, likewise only with --bench-ceiling: a stream
		// of fixed events, and the request that fires one to every stream.
		"GET /_ceiling/events":  {path: "/_ceiling/events", stream: true, want: everyone(ok)},
		"POST /_ceiling/fanout": post("/_ceiling/fanout", url.Values{}, everyone(ok)),
		"GET /static/*":         get(static.URL("style.css"), everyone(ok)),
		"GET /metrics":          get("/metrics", everyone(ok)), // from loopback, as here; elsewhere the token decides
		"GET /mcp":              {path: "/mcp", accept: "text/event-stream", want: everyone(bad)},
		// The sandbox's MCP server is open to any MCP client and knows no
		// learner: it answers alike whoever calls, cookies or not.
		"POST /mcp": {path: "/mcp", json: `{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "authz", "version": "1"}}}`,
			accept: "application/json, text/event-stream", phase: 1, want: everyone(ok)},
		"DELETE /mcp":       {path: "/mcp", phase: 1, want: everyone(bad)},
		"GET /":             get("/", everyone(ok)),
		"GET /learn/:topic": get("/learn/structured-errors", everyone(ok)),

		"GET /practice":           get("/practice", everyone(ok)),
		"GET /practice/next":      get("/practice/next", everyone(see)),
		"GET /practice/:id":       get("/practice/malformed-order-id", everyone(ok)),
		"POST /practice/:id":      post("/practice/malformed-order-id", url.Values{"choice": {"A"}, "explanation": {"x"}}, everyone(see)),
		"GET /attempts/:id":       get(w.attempt, only(ok, notFound, learner)),
		"POST /attempts/:id/flag": post(w.attempt+"/flag", url.Values{"comment": {"authz flag"}}, only(see, notFound, learner)),
		"GET /me":                 get("/me", everyone(ok)),
		"GET /me/history.csv":     get("/me/history.csv", everyone(ok)),
		"GET /me/history.json":    get("/me/history.json", everyone(ok)),
		"GET /me/delete":          get("/me/delete", everyone(ok)),
		// Without the confirmation word nothing is deleted: the form comes
		// back to whoever has something to delete.
		"POST /me/delete":      post("/me/delete", url.Values{"confirm": {"no"}}, everyone(422).with(notFound, anonymous)),
		"GET /account/deleted": get("/account/deleted", everyone(ok)),
		"GET /review":          get("/review", everyone(ok)),
		"GET /review/next":     get("/review/next", everyone(see)),
		// A session is the learner's own: each actor starts and walks theirs.
		"POST /review/start":    post("/review/start", url.Values{"mode": {"cram"}}, everyone(see)),
		"GET /review/session":   get("/review/session", everyone(see)),
		"POST /review/session":  post("/review/session", url.Values{"position": {"99"}}, everyone(see)),
		"POST /review/settings": post("/review/settings", url.Values{"retention": {"0.9"}}, everyone(see)),
		"GET /register":         get("/register", everyone(ok)),
		"POST /register":        post("/register", url.Values{"username": {"x"}, "password": {"a less common passphrase"}}, everyone(409).with(bad, anonymous)),
		"GET /login":            get("/login", everyone(ok)),
		"POST /login":           post("/login", url.Values{"username": {"lena"}, "password": {"not her password"}}, everyone(unauth)),
		"POST /logout":          {path: "/logout", form: url.Values{}, phase: 3, want: everyone(see)},

		"GET /exam":                 get("/exam", everyone(ok)),
		"POST /exam":                post("/exam", url.Values{"topic": {"structured-errors"}, "count": {"3"}, "minutes": {"10"}, "pass_mark": {"72"}}, everyone(see)),
		"GET /exam/:id":             get(w.exam, ownExam.with(see, learner)),
		"GET /exam/:id/q/:n":        get(w.exam+"/q/1", ownExam),
		"POST /exam/:id/q/:n":       post(w.exam+"/q/1", url.Values{"choice": {"A"}, "explanation": {"x"}, "go": {"next"}}, ownExam.with(see, learner)),
		"GET /exam/:id/review":      get(w.exam+"/review", ownExam),
		"POST /exam/:id/submit":     {path: w.exam + "/submit", form: url.Values{}, phase: 2, want: ownExam.with(see, learner)},
		"GET /exam/:id/results":     get(w.exam+"/results", ownExam.with(see, learner)), // still running: to the questions
		"POST /exam/:id/again":      post(w.exam+"/again", url.Values{"which": {"all"}}, ownExam.with(see, learner)),
		"GET /sandbox":              get("/sandbox?scenario=empty&agent=structured", everyone(ok)),
		"GET /sandbox/stream":       {path: "/sandbox/stream?scenario=empty&agent=structured", stream: true, want: everyone(ok)},
		"POST /sandbox/predictions": post("/sandbox/predictions", url.Values{"scenario": {"empty"}, "agent": {"naive"}, "seed": {"1"}, "decision": {"1"}, "move": {"retry"}}, everyone(see)),
		"GET /sandbox/console":      get("/sandbox/console?tool=lookup_order", everyone(ok)),
		"POST /sandbox/console":     post("/sandbox/console", url.Values{"tool": {"lookup_order"}, "arguments": {`{"order_id": "#12345"}`}, "action": {"call"}}, everyone(ok)),
		"POST /sandbox/replay": post("/sandbox/replay", url.Values{"scenario": {"empty"}, "agent": {"structured"}, "seed": {"1"}, "call": {"1"},
			"result": {`{"isError": false, "structuredContent": {"resultCount": 0, "results": []}}`}}, everyone(ok)),

		"GET /join":                        get("/join", everyone(ok)),
		"POST /join":                       post("/join", url.Values{"code": {"12"}, "nickname": {"Someone"}, "lang": {"en"}}, everyone(bad)),
		"GET /class":                       get("/class", teacherPage),
		"GET /class/items":                 get("/class/items", teacherPage),
		"GET /class/preview/:qid":          get("/class/preview/empty-result-retry-loop", teacherPage),
		"GET /class/quizzes/new":           get("/class/quizzes/new", teacherPage),
		"POST /class/quizzes":              post("/class/quizzes", quizForm, only(see, forbid, teachers...).with(unauth, anonymous)),
		"GET /class/quizzes/:id":           get(w.quiz, host),
		"POST /class/quizzes/:id":          post(w.quiz, quizForm, hostWrite),
		"POST /class/quizzes/:id/sessions": post(w.quiz+"/sessions", url.Values{"mode": {"live"}}, hostWrite),
		"GET /class/s/:id/host":            get(w.room+"/host", host),
		"GET /class/s/:id/host/events":     {path: w.room + "/host/events", stream: true, want: host},
		"POST /class/s/:id/control":        post(w.room+"/control", url.Values{"action": {"lock"}}, hostWrite),
		"GET /class/s/:id/qr.png":          get(w.room+"/qr.png", host),
		"GET /class/s/:id/results":         get(w.room+"/results", host),
		"GET /class/s/:id/results.csv":     get(w.room+"/results.csv", host),
		"GET /class/s/:id/play":            get(w.room+"/play", only(ok, see, learner)), // the rest are sent to /join
		"GET /class/s/:id/events":          {path: w.room + "/events", stream: true, want: only(ok, forbid, learner)},
		"POST /class/s/:id/answer": {path: w.room + "/answer", form: url.Values{"index": {"0"}, "choice": {"A"}, "explanation": {"x"}},
			accept: "application/json", phase: 1, want: only(ok, forbid, learner)},
		// The review queue: a teacher regrades their own students' explanations
		// (lena plays in the instructor's room); others' are not found.
		"GET /class/grading":            get("/class/grading", teacherPage),
		"GET /class/grading/:kind/:id":  get(w.grading, only(ok, forbid, instructor, admin).with(notFound, otherInstructor).with(unauth, anonymous)),
		"POST /class/grading/:kind/:id": post(w.grading, url.Values{"band": {"2"}}, only(see, forbid, instructor, admin).with(notFound, otherInstructor).with(unauth, anonymous)),
		// Teachers' own questions: each teacher's list holds their own and
		// shared ones; another teacher's unshared question is not found,
		// and only its author edits it (an admin may preview it).
		"GET /class/questions":            get("/class/questions", teacherPage),
		"GET /class/questions/new":        get("/class/questions/new", teacherPage),
		"POST /class/questions":           post("/class/questions", url.Values{"lang": {"en"}, "title": {"x"}}, only(422, forbid, teachers...).with(unauth, anonymous)),
		"POST /class/questions/import":    post("/class/questions/import", url.Values{"lang": {"en"}}, only(422, forbid, teachers...).with(unauth, anonymous)),
		"GET /class/questions/export.zip": get("/class/questions/export.zip", teacherPage.with(bad, otherInstructor, admin)), // they have no question to export
		"GET /class/questions/:id":        get(w.authored, only(ok, forbid, instructor, admin).with(forbid, admin).with(notFound, otherInstructor).with(unauth, anonymous)),
		"POST /class/questions/:id": post(w.authored, url.Values{"lang": {"en"}, "title": {""}, "action": {"save"}},
			only(422, forbid, instructor).with(notFound, otherInstructor).with(unauth, anonymous)),
		"GET /class/questions/:id/preview": get(w.authored+"/preview", only(ok, forbid, instructor, admin).with(notFound, otherInstructor).with(unauth, anonymous)),
		"POST /class/questions/:id/share": post(w.authored+"/share", url.Values{"shared": {""}},
			only(see, forbid, instructor).with(notFound, otherInstructor).with(unauth, anonymous)),
		"GET /admin/users": get("/admin/users", only(ok, forbid, admin).with(unauth, anonymous)),
		"POST /admin/users/:id/role": post("/admin/users/"+strconv.FormatInt(w.ids[otherLearner], 10)+"/role", url.Values{"role": {"learner"}},
			only(see, forbid, admin).with(unauth, anonymous)),
	}
}

// TestAuthorizationMatrix calls every route as each actor and checks the
// status against the matrix, that every response carries the security
// headers with no inline code, and that nobody's secrets show up in
// anybody else's pages.
func TestAuthorizationMatrix(t *testing.T) {
	w := newAuthzWorld(t)
	cases := w.cases()

	// Every registered route has a row, and every row a route.
	routes := map[string]bool{}
	for _, r := range w.Web.Routes() {
		if r.Method == echo.RouteNotFound {
			continue // the catch-all 404s of a middleware group, checked below
		}
		routes[r.Method+" "+r.Path] = true
	}
	for key := range routes {
		if _, ok := cases[key]; !ok {
			t.Errorf("route %s has no row in the authorisation matrix: add one saying who may use it", key)
		}
	}
	for key := range cases {
		if !routes[key] {
			t.Errorf("the matrix has a row for %s, which is not a route", key)
		}
	}
	cases["GET unknown page"] = routeCase{path: "/no/such/page", want: everyone(404)}

	keys := make([]string, 0, len(cases))
	for k := range cases {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := cases[keys[i]], cases[keys[j]]
		if a.phase != b.phase {
			return a.phase < b.phase
		}
		return keys[i] < keys[j]
	})

	// Text that only some actors may ever see.
	secrets := map[string][]string{
		"authz-secret-of-lena":  {learner, instructor, admin}, // her explanation: her teacher and an admin may regrade it
		"Lena-zq":               {learner, instructor},        // her nickname in the room
		"authz-secret-quiz":     {instructor},                 // the quiz's title
		"authz-secret-question": {instructor, admin},          // the title of the instructor's unshared question
	}
	seen := map[string]bool{}
	for _, key := range keys {
		rc := cases[key]
		method, _, _ := strings.Cut(key, " ")
		for _, actor := range actors {
			c := w.clients[actor]
			if actor == anonymous {
				c = newClient(t, w.Server) // never keeps an identity
			}
			p := w.call(c, method, rc)
			if want := rc.want[actor]; p.status != want {
				t.Errorf("%s as %s: %d, want %d", key, actor, p.status, want)
			}
			checkSecurityHeaders(t, key+" as "+actor, p, false)
			checkCacheControl(t, key+" as "+actor, key, p)
			for secret, allowed := range secrets {
				if strings.Contains(p.body, secret) {
					seen[secret] = true
					if !contains(allowed, actor) {
						t.Errorf("%s as %s shows %q", key, actor, secret)
					}
				}
			}
		}
	}
	for secret := range secrets {
		if !seen[secret] { // or the check above proves nothing
			t.Errorf("%q was never shown, not even to its owner", secret)
		}
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// call makes one request of the matrix as client c.
func (w *authzWorld) call(c *client, method string, rc routeCase) *page {
	w.t.Helper()
	if rc.stream {
		return c.getHead(rc.path)
	}
	var req *http.Request
	switch {
	case rc.form != nil:
		form := url.Values{}
		for k, v := range rc.form {
			form[k] = v
		}
		form.Set("_csrf", c.get("/login").token(w.t))
		req, _ = http.NewRequest(method, c.base+rc.path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	case rc.json != "":
		req, _ = http.NewRequest(method, c.base+rc.path, strings.NewReader(rc.json))
		req.Header.Set("Content-Type", "application/json")
	default:
		req, _ = http.NewRequest(method, c.base+rc.path, nil)
	}
	if rc.accept != "" {
		req.Header.Set("Accept", rc.accept)
	}
	return c.do(req)
}
