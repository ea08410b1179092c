package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web"
	"github.com/examsim/examsim/web/webtest"
)

// limitedApp starts the app with small rate limits and an account.
func limitedApp(t *testing.T, limits web.RateLimits, trustLoopback bool) *webtest.App {
	t.Helper()
	app := webtest.Start(t, webtest.WithConfig(func(c *web.Config) {
		c.RateLimits = limits
		if trustLoopback {
			c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
		}
	}))
	for _, name := range []string{"kasia", "minh"} {
		if _, err := store.NewLearnerService(app.DB).CreateAccount(context.Background(), name, "right passphrase "+name, examsim.RoleLearner); err != nil {
			t.Fatal(err)
		}
	}
	return app
}

// lots is a limit nobody reaches in a test.
var lots = web.Limit{Burst: 1000, Every: time.Millisecond}

// postFrom submits a form as a client behind a proxy at forwardedFor ("" for
// none), with the page's CSRF token.
func (c *client) postFrom(forwardedFor, formPage, path string, values url.Values) *page {
	c.tb.Helper()
	values.Set("_csrf", c.get(formPage).token(c.tb))
	req, _ := http.NewRequest("POST", c.base+path, strings.NewReader(values.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if forwardedFor != "" {
		req.Header.Set("X-Forwarded-For", forwardedFor)
	}
	return c.do(req)
}

func login(c *client, from, user, password string) *page {
	return c.postFrom(from, "/login", "/login", url.Values{"username": {user}, "password": {password}})
}

// checkLimited checks a 429 with a Retry-After in seconds, a message in
// the page's language, and the form kept.
func checkLimited(t *testing.T, where string, p *page, field, kept, words string) {
	t.Helper()
	if p.status != http.StatusTooManyRequests {
		t.Fatalf("%s: %d, want 429", where, p.status)
	}
	if secs, err := strconv.Atoi(p.header.Get("Retry-After")); err != nil || secs < 1 {
		t.Errorf("%s: Retry-After %q", where, p.header.Get("Retry-After"))
	}
	if msg := p.text("[data-testid=form-error]"); !strings.Contains(msg, words) {
		t.Errorf("%s: message %q should say %q", where, msg, words)
	}
	if got := p.doc.Find("[name="+field+"]").AttrOr("value", ""); got != kept {
		t.Errorf("%s: the form lost %s: %q", where, field, got)
	}
}

func TestLoginLimitPerClient(t *testing.T) {
	app := limitedApp(t, web.RateLimits{LoginPerClient: web.Limit{Burst: 3, Every: time.Minute}, LoginPerAccount: lots,
		RegisterPerClient: lots, JoinPerClient: lots, JoinFailuresPerClient: lots}, false)
	c := newClient(t, app.Server)
	c.get("/?lang=pl")
	// Right passwords do not count: a class logs in from one address.
	for i := 0; i < 5; i++ {
		if p := login(c, "", "kasia", "right passphrase kasia"); p.status != http.StatusSeeOther {
			t.Fatalf("login %d with the right password: %d", i, p.status)
		}
	}
	for i, user := range []string{"kasia", "minh", "nobody"} {
		if p := login(c, "", user, "wrong"); p.status != http.StatusUnauthorized {
			t.Fatalf("wrong password %d: %d", i, p.status)
		}
	}
	// Over the limit even the right password is refused, or the limit
	// would tell a guesser when they got it right.
	p := login(c, "", "kasia", "right passphrase kasia")
	checkLimited(t, "the fourth failure", p, "username", "kasia", "minut")
	if got := p.header.Get("Retry-After"); got != "60" {
		t.Errorf("Retry-After %s, want 60: one try comes back each minute", got)
	}
	// Forwarding headers from an untrusted address change nothing.
	if p := login(c, "203.0.113.9", "minh", "right passphrase minh"); p.status != http.StatusTooManyRequests {
		t.Errorf("a forged X-Forwarded-For escaped the limit: %d", p.status)
	}
	app.Clock.Advance(time.Minute)
	if p := login(c, "", "kasia", "right passphrase kasia"); p.status != http.StatusSeeOther {
		t.Errorf("a minute later: %d", p.status)
	}
}

func TestLoginLimitPerAccount(t *testing.T) {
	app := limitedApp(t, web.RateLimits{LoginPerClient: lots, LoginPerAccount: web.Limit{Burst: 2, Every: 10 * time.Minute},
		RegisterPerClient: lots, JoinPerClient: lots, JoinFailuresPerClient: lots}, true)
	c := newClient(t, app.Server)
	c.get("/?lang=vi")
	// A guesser spread over many addresses is still held to the account's
	// pace, whatever case they type the name in.
	for i, user := range []string{"kasia", "KASIA"} {
		if p := login(c, fmt.Sprintf("198.51.100.%d", i+1), user, "wrong"); p.status != http.StatusUnauthorized {
			t.Fatalf("failure %d: %d", i, p.status)
		}
	}
	checkLimited(t, "kasia from a third address", login(c, "198.51.100.3", "Kasia", "right passphrase kasia"), "username", "Kasia", "phút")
	if p := login(c, "198.51.100.4", "minh", "right passphrase minh"); p.status != http.StatusSeeOther {
		t.Errorf("another account is not limited: %d", p.status)
	}
	app.Clock.Advance(10 * time.Minute)
	if p := login(c, "198.51.100.5", "kasia", "right passphrase kasia"); p.status != http.StatusSeeOther {
		t.Errorf("ten minutes later: %d", p.status)
	}
}

func TestRegistrationLimitPerClient(t *testing.T) {
	app := limitedApp(t, web.RateLimits{LoginPerClient: lots, LoginPerAccount: lots, RegisterPerClient: web.Limit{Burst: 2, Every: time.Hour},
		JoinPerClient: lots, JoinFailuresPerClient: lots}, true)
	register := func(from, name string) *page {
		c := newClient(t, app.Server)
		c.get("/?lang=th")
		return c.postFrom(from, "/register", "/register", url.Values{"username": {name}, "password": {"a less common passphrase"}})
	}
	for i, name := range []string{"an", "binh"} {
		if p := register("192.0.2.1", name+"_x"); p.status != http.StatusSeeOther {
			t.Fatalf("registration %d: %d %s", i, p.status, p.text("[data-testid=form-error]"))
		}
	}
	checkLimited(t, "a third account from one address", register("192.0.2.1", "chi_x"), "username", "chi_x", "นาที")
	// Behind a trusted proxy, another client is counted apart.
	if p := register("192.0.2.2", "chi_x"); p.status != http.StatusSeeOther {
		t.Errorf("another client: %d", p.status)
	}
}

func TestJoinLimitPerClient(t *testing.T) {
	app := limitedApp(t, web.RateLimits{LoginPerClient: lots, LoginPerAccount: lots, RegisterPerClient: lots,
		JoinPerClient: web.Limit{Burst: 2, Every: time.Minute}, JoinFailuresPerClient: lots}, false)
	a := &classApp{App: app, t: t}
	host := a.account("teacher", examsim.RoleInstructor)
	_, code := a.startRun(host, "optional")
	for i := 0; i < 2; i++ {
		a.join(code, fmt.Sprintf("Student %d", i), "en")
	}
	c := newClient(t, app.Server)
	c.get("/?lang=en")
	p := c.post("/join", "/join", url.Values{"code": {code}, "nickname": {"Third"}, "lang": {"en"}})
	checkLimited(t, "a third join", p, "nickname", "Third", "Wait 1 minute")
	app.Clock.Advance(time.Minute)
	if p := c.post("/join", "/join", url.Values{"code": {code}, "nickname": {"Third"}, "lang": {"en"}}); p.status != http.StatusSeeOther {
		t.Errorf("a minute later: %d", p.status)
	}
}

// TestWrongJoinCodesSayWhenToComeBack: the wrong-code limit (tested for
// its count in TestJoinRateLimit) also tells the client when to retry.
func TestWrongJoinCodesSayWhenToComeBack(t *testing.T) {
	app := limitedApp(t, web.RateLimits{LoginPerClient: lots, LoginPerAccount: lots, RegisterPerClient: lots,
		JoinPerClient: lots, JoinFailuresPerClient: web.Limit{Burst: 1, Every: 5 * time.Minute}}, false)
	c := newClient(t, app.Server)
	if p := c.post("/join", "/join", url.Values{"code": {"000000"}, "nickname": {"Guess"}, "lang": {"en"}}); p.status != http.StatusNotFound {
		t.Fatalf("a wrong code: %d", p.status)
	}
	p := c.post("/join", "/join", url.Values{"code": {"000001"}, "nickname": {"Guess"}, "lang": {"en"}})
	if p.status != http.StatusTooManyRequests || p.header.Get("Retry-After") != "300" || p.text("[data-testid=form-error]") == "" {
		t.Errorf("the second guess: %d, Retry-After %q", p.status, p.header.Get("Retry-After"))
	}
}
