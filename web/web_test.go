package web_test

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/examsim/examsim/web/webtest"
)

func newServer(tb testing.TB) *httptest.Server { return webtest.Start(tb).Server }

// client is a browser-like client: it keeps cookies and does not follow
// redirects, so tests see each response.
type client struct {
	tb   testing.TB
	base string
	http *http.Client
}

func newClient(tb testing.TB, srv *httptest.Server) *client {
	jar, _ := cookiejar.New(nil)
	return &client{tb: tb, base: srv.URL, http: &http.Client{Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// as is c reporting its failures to tb, with the same cookies: a subtest
// uses it, since a failure must stop the (sub)test that found it.
func (c *client) as(tb testing.TB) *client { return &client{tb: tb, base: c.base, http: c.http} }

type page struct {
	status int
	header http.Header
	doc    *goquery.Document
	body   string
}

func (c *client) do(req *http.Request) *page {
	c.tb.Helper()
	resp, err := c.http.Do(req)
	if err != nil {
		c.tb.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(string(body)))
	return &page{status: resp.StatusCode, header: resp.Header, doc: doc, body: string(body)}
}

func (c *client) get(path string, header ...string) *page {
	req, _ := http.NewRequest("GET", c.base+path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return c.do(req)
}

// post submits a form the way a browser would: with the CSRF token of the
// page the form is on.
func (c *client) post(formPage, path string, values url.Values) *page {
	c.tb.Helper()
	p := c.get(formPage)
	token, _ := p.doc.Find(`input[name=_csrf]`).First().Attr("value")
	if token == "" {
		c.tb.Fatalf("no CSRF token on %s", formPage)
	}
	values.Set("_csrf", token)
	return c.postRaw(path, values)
}

func (c *client) postRaw(path string, values url.Values) *page {
	req, _ := http.NewRequest("POST", c.base+path, strings.NewReader(values.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return c.do(req)
}

func (p *page) text(sel string) string { return strings.TrimSpace(p.doc.Find(sel).First().Text()) }

func TestHealthz(t *testing.T) {
	c := newClient(t, newServer(t))
	p := c.get("/healthz")
	if p.status != 200 || !strings.Contains(p.body, `"status":"ok"`) || !strings.Contains(p.body, `"languages":["en","pl","th","vi"]`) {
		t.Fatalf("healthz = %d %s", p.status, p.body)
	}
}

func TestHomeInEveryLanguage(t *testing.T) {
	c := newClient(t, newServer(t))
	titles := map[string]bool{}
	for _, lang := range []string{"vi", "pl", "th", "en"} {
		p := c.get("/?lang=" + lang)
		if p.status != 200 {
			t.Fatalf("%s: status %d", lang, p.status)
		}
		if got, _ := p.doc.Find("html").Attr("lang"); got != lang {
			t.Errorf("html lang = %q, want %q", got, lang)
		}
		titles[p.text(`[data-testid=home-title]`)] = true
	}
	if len(titles) != 4 {
		t.Errorf("home titles are not translated: %v", titles)
	}
	// The choice sticks in a cookie.
	if got, _ := c.get("/").doc.Find("html").Attr("lang"); got != "en" {
		t.Errorf("after ?lang=en the cookie should keep en, got %q", got)
	}
}

func TestLanguageNegotiation(t *testing.T) {
	c := newClient(t, newServer(t))
	if got, _ := c.get("/", "Accept-Language", "th-TH,th;q=0.9").doc.Find("html").Attr("lang"); got != "th" {
		t.Errorf("Accept-Language th gave %q", got)
	}
	if got, _ := c.get("/", "Accept-Language", "fr").doc.Find("html").Attr("lang"); got != "en" {
		t.Errorf("an unsupported language should give English, got %q", got)
	}
	p := c.get("/?lang=fr", "Accept-Language", "pl")
	if p.status != 400 || !strings.Contains(p.body, "fr") {
		t.Fatalf("?lang=fr: %d", p.status)
	}
	if got, _ := p.doc.Find("html").Attr("lang"); got != "pl" {
		t.Errorf("the error about ?lang=fr should be in the negotiated language, got %q", got)
	}
	if p.doc.Find(`[data-testid=error] a[href="/?lang=th"]`).Length() != 1 {
		t.Error("the unknown-language page should offer the languages there are")
	}
}

func TestPracticeAnswerIsScoredAndKept(t *testing.T) {
	c := newClient(t, newServer(t))
	c.get("/?lang=en")
	p := c.get("/practice/empty-result-retry-loop")
	if p.status != 200 || p.doc.Find(`[data-testid^=option-]`).Length() != 4 {
		t.Fatalf("question page: %d, %d options", p.status, p.doc.Find(`[data-testid^=option-]`).Length())
	}
	res := c.post("/practice/empty-result-retry-loop", "/practice/empty-result-retry-loop", url.Values{
		"choice": {"D"}, "explanation": {"It is a valid empty result: the query ran and matched nothing, so retrying won't help."},
	})
	if res.status != http.StatusSeeOther || !strings.HasPrefix(res.header.Get("Location"), "/attempts/") {
		t.Fatalf("answer: %d %s", res.status, res.header.Get("Location"))
	}
	result := c.get(res.header.Get("Location"))
	if v, _ := result.doc.Find(`[data-testid=verdict]`).Attr("data-correct"); v != "true" {
		t.Errorf("verdict = %q", v)
	}
	if band, _ := result.doc.Find(`[data-testid=band]`).Attr("data-band"); band < "2" {
		t.Errorf("a good explanation got band %s", band)
	}
	if result.doc.Find(`[data-testid^=explained-]`).Length() != 4 {
		t.Error("every option's explanation should be shown")
	}
	if result.doc.Find(`[data-testid=read-more]`).Length() == 0 {
		t.Error("no read-more link to the lesson")
	}
	me := c.get("/me")
	row := me.doc.Find(`[data-testid=attempt-row][data-question-id=empty-result-retry-loop]`)
	if row.Length() != 1 || !strings.Contains(row.Text(), "valid empty result") {
		t.Fatalf("attempt not on /me: %q", me.text(`[data-testid=attempts]`))
	}

	// Another learner cannot see it.
	other := newClient(t, &httptest.Server{URL: c.base})
	if p := other.get(res.header.Get("Location")); p.status != 404 {
		t.Errorf("another learner's attempt: %d", p.status)
	}
}

func TestBadInputIsAClearMessageAndLosesNothing(t *testing.T) {
	c := newClient(t, newServer(t))
	long := strings.Repeat("ไม่ควร retry ", 400)
	tests := []struct {
		name   string
		values url.Values
		status int
		keep   string
	}{
		{"no choice", url.Values{"explanation": {"my careful reasoning"}}, 422, "my careful reasoning"},
		{"bogus choice", url.Values{"choice": {"Z"}, "explanation": {"kept"}}, 422, "kept"},
		{"too long", url.Values{"choice": {"A"}, "explanation": {long}}, 422, strings.TrimSpace(long)},
	}
	for _, tt := range tests {
		p := c.post("/practice/malformed-order-id?lang=th", "/practice/malformed-order-id", tt.values)
		if p.status != tt.status {
			t.Errorf("%s: status %d, want %d", tt.name, p.status, tt.status)
		}
		if p.text(`[data-testid=form-error]`) == "" {
			t.Errorf("%s: no error message", tt.name)
		}
		if got := p.doc.Find(`textarea[name=explanation]`).Text(); got != tt.keep {
			t.Errorf("%s: explanation not kept (len %d, want %d)", tt.name, len(got), len(tt.keep))
		}
		if lang, _ := p.doc.Find("html").Attr("lang"); lang != "th" {
			t.Errorf("%s: error page language %q", tt.name, lang)
		}
	}
	for path, want := range map[string]int{"/practice/no-such-question": 404, "/attempts/abc": 404, "/attempts/999": 404, "/nowhere": 404} {
		p := c.get(path)
		if p.status != want || p.text(`[data-testid=error]`) == "" || strings.Contains(p.body, "goroutine") {
			t.Errorf("%s: %d, want %d with an error page", path, p.status, want)
		}
	}
	if p := c.postRaw("/practice/malformed-order-id", url.Values{"choice": {"D"}}); p.status != 403 {
		t.Errorf("a form without a CSRF token: %d, want 403", p.status)
	}
}

func TestTamperedCookieGivesAFreshIdentity(t *testing.T) {
	srv := newServer(t)
	c := newClient(t, srv)
	c.post("/practice/malformed-order-id", "/practice/malformed-order-id", url.Values{"choice": {"D"}})
	u, _ := url.Parse(srv.URL)
	var id *http.Cookie
	for _, ck := range c.http.Jar.Cookies(u) {
		if ck.Name == "examsim_session" {
			id = ck
		}
	}
	if id == nil {
		t.Fatal("no session cookie after answering")
	}
	if !strings.Contains(c.get("/me").body, "attempt-row") {
		t.Fatal("attempt missing before tampering")
	}
	tampered := []byte(id.Value)
	tampered[10] = 'A' // still a well-formed token, but not the one issued
	if id.Value[10] == 'A' {
		tampered[10] = 'B'
	}
	c.http.Jar.SetCookies(u, []*http.Cookie{{Name: "examsim_session", Value: string(tampered), Path: "/"}})
	p := c.get("/me")
	if p.status != 200 || strings.Contains(p.body, "attempt-row") {
		t.Fatalf("a tampered cookie must not be trusted: %d", p.status)
	}
}

func TestRegisterKeepsAnonymousHistoryAndLoginWorks(t *testing.T) {
	srv := newServer(t)
	c := newClient(t, srv)
	c.post("/practice/refund-over-limit-retries", "/practice/refund-over-limit-retries", url.Values{"choice": {"A"}, "explanation": {"business rule"}})
	if p := c.post("/register", "/register", url.Values{"username": {"a b"}, "password": {"longenough"}}); p.status != 400 ||
		p.doc.Find(`input[name=username]`).AttrOr("value", "") != "a b" {
		t.Errorf("bad username: %d", p.status)
	}
	if p := c.post("/register", "/register", url.Values{"username": {"kasia"}, "password": {"longenough"}}); p.status != 303 {
		t.Fatalf("register: %d %s", p.status, p.text(`[data-testid=form-error]`))
	}
	if !strings.Contains(c.get("/me").body, "refund-over-limit-retries") {
		t.Fatal("anonymous attempt lost on registration")
	}
	c.post("/", "/logout", url.Values{})
	if strings.Contains(c.get("/me").body, "attempt-row") {
		t.Fatal("history visible after logout")
	}
	if p := c.post("/login", "/login", url.Values{"username": {"kasia"}, "password": {"wrong-password"}}); p.status != 401 || p.text(`[data-testid=form-error]`) == "" {
		t.Errorf("wrong password: %d", p.status)
	}
	if p := c.post("/login", "/login", url.Values{"username": {"kasia"}, "password": {"longenough"}}); p.status != 303 {
		t.Fatalf("login: %d", p.status)
	}
	if !strings.Contains(c.get("/me").body, "refund-over-limit-retries") {
		t.Fatal("history missing after login")
	}
}

func TestSecurityHeadersAndStatic(t *testing.T) {
	c := newClient(t, newServer(t))
	p := c.get("/")
	if csp := p.header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") || strings.Contains(csp, "unsafe-inline") {
		t.Errorf("CSP = %q", csp)
	}
	href, _ := p.doc.Find(`link[rel=stylesheet]`).Attr("href")
	s := c.get(href)
	if s.status != 200 || !strings.Contains(s.header.Get("Cache-Control"), "immutable") {
		t.Errorf("static %s: %d %q", href, s.status, s.header.Get("Cache-Control"))
	}
	if p := c.get("/static/style.css"); p.status != 404 {
		t.Errorf("unhashed static names should not be served: %d", p.status)
	}
}
