package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web"
	"github.com/examsim/examsim/web/webtest"
)

// cookie returns the value of the client's cookie name, or "".
func (c *client) cookie(name string) string {
	u, _ := url.Parse(c.base)
	for _, ck := range c.http.Jar.Cookies(u) {
		if ck.Name == name {
			return ck.Value
		}
	}
	return ""
}

// setCookie puts a cookie in the client's jar, as a copied or forged one.
func (c *client) setCookie(name, value string) {
	u, _ := url.Parse(c.base)
	c.http.Jar.SetCookies(u, []*http.Cookie{{Name: name, Value: value, Path: "/"}})
}

// signedIn returns the username the data export names, "" for an
// anonymous visitor.
func signedIn(c *client) string {
	c.tb.Helper()
	var doc struct{ Learner struct{ Username string } }
	if err := json.Unmarshal([]byte(c.get("/me/history.json").body), &doc); err != nil {
		c.tb.Fatal(err)
	}
	return doc.Learner.Username
}

// hasHistory reports whether /me lists any answer.
func hasHistory(c *client) bool {
	return c.get("/me").doc.Find("[data-testid=attempt-row]").Length() > 0
}

// answer1 answers a practice question, which gives an anonymous visitor
// an identity.
func answer1(t *testing.T, c *client) *page {
	t.Helper()
	p := c.post("/practice/malformed-order-id", "/practice/malformed-order-id", url.Values{"choice": {"D"}, "explanation": {"fix the id"}})
	if p.status != http.StatusSeeOther {
		t.Fatalf("answer: %d", p.status)
	}
	return p
}

func TestSessionCookieAndNoFixation(t *testing.T) {
	app := webtest.Start(t)
	if _, err := store.NewLearnerService(app.DB).CreateAccount(context.Background(), "kasia", "a less common passphrase", examsim.RoleLearner); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, app.Server)
	if p := c.get("/"); len((&http.Response{Header: p.header}).Cookies()) == 0 || c.cookie("examsim_session") != "" {
		t.Fatal("reading a page should set the CSRF cookie but start no session")
	}
	first := c.get("/?lang=en")
	checkCookies(t, "plain HTTP", false, first, answer1(t, c))
	anon := c.cookie("examsim_session")
	if len(anon) != 43 {
		t.Fatalf("session cookie %q: want a 43-character token", anon)
	}

	// Someone who planted or copied the anonymous token before the login
	// gets nothing from it after: the login issues a new one.
	planted := newClient(t, app.Server)
	planted.setCookie("examsim_session", anon)
	if !hasHistory(planted) {
		t.Fatal("the copied token should work before the login")
	}
	if p := c.post("/login", "/login", url.Values{"username": {"kasia"}, "password": {"a less common passphrase"}}); p.status != http.StatusSeeOther {
		t.Fatalf("login: %d", p.status)
	}
	account := c.cookie("examsim_session")
	if account == anon || len(account) != 43 {
		t.Fatalf("login kept the session token %q", account)
	}
	if signedIn(c) != "kasia" || !hasHistory(c) {
		t.Fatal("after login the account should have the anonymous answer")
	}
	if signedIn(planted) != "" || hasHistory(planted) {
		t.Fatal("the token from before the login still works")
	}

	// Logging out ends the session on the server: a copy of the cookie
	// taken while signed in is worthless afterwards.
	stolen := newClient(t, app.Server)
	stolen.setCookie("examsim_session", account)
	if signedIn(stolen) != "kasia" {
		t.Fatal("the copied cookie should work while the session lasts")
	}
	if p := c.post("/login", "/logout", url.Values{}); p.status != http.StatusSeeOther {
		t.Fatalf("logout: %d", p.status)
	}
	if c.cookie("examsim_session") != "" {
		t.Error("logout left the session cookie")
	}
	if signedIn(stolen) != "" || hasHistory(stolen) {
		t.Error("a copy of the cookie still works after logout")
	}
}

func TestRegistrationIssuesANewSession(t *testing.T) {
	app := webtest.Start(t)
	c := newClient(t, app.Server)
	answer1(t, c)
	anon := c.cookie("examsim_session")
	copied := newClient(t, app.Server)
	copied.setCookie("examsim_session", anon)
	if p := c.post("/register", "/register", url.Values{"username": {"minh"}, "password": {"a less common passphrase"}}); p.status != http.StatusSeeOther {
		t.Fatalf("register: %d %s", p.status, p.text("[data-testid=form-error]"))
	}
	if got := c.cookie("examsim_session"); got == anon || got == "" {
		t.Fatalf("registration kept the token")
	}
	if signedIn(c) != "minh" || !hasHistory(c) {
		t.Fatal("the new account lost the anonymous answer")
	}
	if signedIn(copied) != "" || hasHistory(copied) {
		t.Fatal("the anonymous token from before registration opens the account")
	}
}

func TestSessionTimeoutsThroughTheWeb(t *testing.T) {
	app := webtest.Start(t)
	if _, err := store.NewLearnerService(app.DB).CreateAccount(context.Background(), "kasia", "a less common passphrase", examsim.RoleLearner); err != nil {
		t.Fatal(err)
	}
	acct := newClient(t, app.Server)
	acct.post("/login", "/login", url.Values{"username": {"kasia"}, "password": {"a less common passphrase"}})
	anon := newClient(t, app.Server)
	answer1(t, anon)

	app.Clock.Advance(examsim.AccountSessionIdle - time.Minute)
	if signedIn(acct) != "kasia" || !hasHistory(anon) {
		t.Fatal("sessions ended before their idle timeout")
	}
	app.Clock.Advance(examsim.AccountSessionIdle + time.Minute)
	if signedIn(acct) != "" {
		t.Error("an account's session outlived a week idle")
	}
	if !hasHistory(anon) {
		t.Error("an anonymous session idle for a week ended: it should last 30 days")
	}
	app.Clock.Advance(examsim.AnonymousSessionIdle + time.Minute)
	if hasHistory(anon) {
		t.Error("an anonymous session outlived 30 days idle")
	}
	// A timed-out visitor is simply a new anonymous one, never an error.
	if p := anon.get("/me"); p.status != http.StatusOK {
		t.Errorf("after a timeout: %d", p.status)
	}
}

func TestBadSessionCookiesAreNoError(t *testing.T) {
	srv := newServer(t)
	for _, v := range []string{"", "x", strings.Repeat("A", 43), "a.b.c", "%00%0d%0a", strings.Repeat("Z", 5000)} {
		c := newClient(t, srv)
		c.setCookie("examsim_session", v)
		c.setCookie("examsim_id", v)
		if p := c.get("/me"); p.status != http.StatusOK || hasHistory(c) {
			t.Errorf("cookie %.20q: %d", v, p.status)
		}
		answer1(t, c) // and the visitor can start afresh
		if !hasHistory(c) {
			t.Errorf("cookie %.20q: a fresh identity did not work", v)
		}
	}
}

// TestOldSignedCookiesCarryAnonymousLearnersOver: after the update an
// anonymous learner keeps their history; an account's old cookie, which
// could not be revoked, signs nobody in.
func TestOldSignedCookiesCarryAnonymousLearnersOver(t *testing.T) {
	app := webtest.Start(t)
	ctx := context.Background()
	key, err := app.DB.Secret(ctx, "cookie")
	if err != nil {
		t.Fatal(err)
	}
	ls := store.NewLearnerService(app.DB)
	anon, _ := ls.CreateAnonymous(ctx)
	if err := store.NewAttemptService(app.DB).CreateAttempt(ctx, &examsim.Attempt{LearnerID: anon.ID, Answer: examsim.Answer{QuestionID: "malformed-order-id", Lang: examsim.English, Choice: "D", Explanation: "from before the update", Verdict: examsim.Verdict{Concepts: []examsim.ConceptHit{}, Misconceptions: []string{}}}}); err != nil {
		t.Fatal(err)
	}
	acct, _ := ls.CreateAccount(ctx, "kasia", "a less common passphrase", examsim.RoleAdmin)

	old := newClient(t, app.Server)
	old.setCookie("examsim_id", web.SignLegacyIdentity(key, anon.ID, app.Clock.Now()))
	if !strings.Contains(old.get("/me").body, "from before the update") {
		t.Fatal("an anonymous learner lost their history in the update")
	}
	if old.cookie("examsim_id") != "" || len(old.cookie("examsim_session")) != 43 {
		t.Error("the old cookie should be swapped for a session")
	}

	admin := newClient(t, app.Server)
	admin.setCookie("examsim_id", web.SignLegacyIdentity(key, acct.ID, app.Clock.Now()))
	if signedIn(admin) != "" || admin.get("/admin/users").status != http.StatusUnauthorized {
		t.Error("an account's old cookie signed it in")
	}
	forged := newClient(t, app.Server)
	forged.setCookie("examsim_id", web.SignLegacyIdentity([]byte("not the key"), anon.ID, app.Clock.Now()))
	if hasHistory(forged) {
		t.Error("a cookie signed with another key was trusted")
	}
}
