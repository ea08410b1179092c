package web_test

import (
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/examsim/examsim/static"
	"github.com/examsim/examsim/web"
	"github.com/examsim/examsim/web/webtest"
)

// checkSecurityHeaders checks the headers every response must carry, and,
// for HTML, that the page has no inline script, style or event handler
// (which the CSP would block, breaking the page, or which an injection
// could have put there).
func checkSecurityHeaders(t *testing.T, where string, p *page, wantHSTS bool) {
	t.Helper()
	h := p.header
	want := map[string]string{
		"Content-Security-Policy": web.ContentSecurityPolicy,
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "same-origin",
		"X-Frame-Options":         "DENY",
	}
	for name, v := range want {
		if got := h.Get(name); got != v {
			t.Errorf("%s: %s = %q, want %q", where, name, got, v)
		}
	}
	if hsts := h.Get("Strict-Transport-Security"); (hsts != "") != wantHSTS || (wantHSTS && hsts != web.StrictTransportSecurity) {
		t.Errorf("%s: Strict-Transport-Security = %q, want it: %v", where, hsts, wantHSTS)
	}
	if strings.HasPrefix(h.Get("Content-Type"), "text/html") && p.doc != nil {
		for _, problem := range inlineCode(p) {
			t.Errorf("%s: %s", where, problem)
		}
	}
}

// inlineCode lists what in a page is inline script or style.
func inlineCode(p *page) []string {
	var found []string
	p.doc.Find("script").Each(func(_ int, s *goquery.Selection) {
		if _, ok := s.Attr("src"); !ok {
			found = append(found, "an inline <script>")
		}
	})
	if n := p.doc.Find("style").Length(); n > 0 {
		found = append(found, "a <style> element")
	}
	p.doc.Find("*").Each(func(_ int, s *goquery.Selection) {
		for _, a := range s.Nodes[0].Attr {
			name := strings.ToLower(a.Key)
			v := strings.ToLower(strings.TrimSpace(a.Val))
			switch {
			case name == "style":
				found = append(found, "a style attribute on <"+s.Nodes[0].Data+">")
			case strings.HasPrefix(name, "on"):
				found = append(found, "an event handler "+name+" on <"+s.Nodes[0].Data+">")
			case (name == "href" || name == "src" || name == "action" || name == "formaction") && strings.HasPrefix(v, "javascript:"):
				found = append(found, "a javascript: URL in "+name)
			}
		}
	})
	return found
}

// TestHSTSOnlyOverTLS: without TLS no HSTS (it would lock browsers out of
// a plain-HTTP deployment); over TLS on every response, pages, error pages
// and static files alike, with Secure cookies.
func TestHSTSOnlyOverTLS(t *testing.T) {
	plain := newClient(t, newServer(t))
	for _, path := range []string{"/", "/no/such/page", static.URL("style.css"), "/healthz"} {
		checkSecurityHeaders(t, "plain "+path, plain.get(path), false)
	}

	app := webtest.Start(t, webtest.WithTLS())
	c := newClient(t, app.Server)
	c.http.Transport = app.Server.Client().Transport
	for _, path := range []string{"/", "/practice/malformed-order-id", "/no/such/page", static.URL("style.css"), "/healthz", "/metrics"} {
		checkSecurityHeaders(t, "TLS "+path, c.get(path), true)
	}
	checkCookies(t, "over TLS", true, c.get("/?lang=pl"),
		c.post("/practice/malformed-order-id", "/practice/malformed-order-id", url.Values{"choice": {"D"}}))
}

// checkCookies checks every cookie the responses set: HttpOnly, SameSite
// Lax, Secure when wantSecure; and that the language, CSRF and session
// cookies are among them.
func checkCookies(t *testing.T, where string, wantSecure bool, pages ...*page) {
	t.Helper()
	seen := map[string]bool{}
	for _, p := range pages {
		for _, ck := range (&http.Response{Header: p.header}).Cookies() {
			seen[ck.Name] = true
			if ck.Secure != wantSecure || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Path != "/" {
				t.Errorf("%s, cookie %s: Secure %v (want %v), HttpOnly %v, SameSite %v, Path %q", where, ck.Name, ck.Secure, wantSecure,
					ck.HttpOnly, ck.SameSite, ck.Path)
			}
		}
	}
	for _, name := range []string{"examsim_lang", "examsim_csrf", "examsim_session"} {
		if !seen[name] {
			t.Errorf("%s: no %s cookie was set", where, name)
		}
	}
}

// TestForwardedProtoOnlyFromATrustedProxy: behind a TLS-terminating proxy
// that examsim trusts, X-Forwarded-Proto: https brings HSTS and Secure
// cookies; from anyone else the header is ignored.
func TestForwardedProtoOnlyFromATrustedProxy(t *testing.T) {
	proto := func(c *client, path string) *page { return c.get(path, "X-Forwarded-Proto", "https") }

	untrusted := newClient(t, newServer(t))
	checkSecurityHeaders(t, "untrusted", proto(untrusted, "/"), false)

	app := webtest.Start(t, webtest.WithConfig(func(c *web.Config) {
		c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
	}))
	c := newClient(t, app.Server)
	for _, path := range []string{"/", "/no/such/page", static.URL("app.js")} {
		checkSecurityHeaders(t, "trusted "+path, proto(c, path), true)
	}
	checkSecurityHeaders(t, "trusted, plain HTTP", c.get("/"), false)
	first := proto(c, "/?lang=vi")
	// The form's page and the answer both come through the proxy.
	tok := proto(c, "/practice/malformed-order-id").token(t)
	req, _ := http.NewRequest("POST", c.base+"/practice/malformed-order-id",
		strings.NewReader(url.Values{"_csrf": {tok}, "choice": {"D"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Forwarded-Proto", "https")
	res := c.do(req)
	if res.status != http.StatusSeeOther {
		t.Fatalf("answer through the proxy: %d", res.status)
	}
	checkCookies(t, "behind a trusted TLS proxy", true, first, res)
}
