package web_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// TestLinksStayOnSite requests paths a browser would read as another host
// and checks that no link on the page (the language switch is built from
// the request path) leads off the site.
func TestLinksStayOnSite(t *testing.T) {
	c := newClient(t, newServer(t))
	for _, raw := range []string{
		"//evil.example", "/%2fevil.example", "/%2Fevil.example", "///evil.example", `/\evil.example`,
		"/%5cevil.example", "/%5C%5Cevil.example", "//evil.example/?lang=vi", "/./evil.example", "/..//evil.example",
		"/.%2e//evil.example", "//evil.example/%2e%2e", "/practice//evil.example",
	} {
		t.Run(raw, func(t *testing.T) {
			p := rawGet(t, c.base, raw)
			if p.status >= 500 {
				t.Fatalf("status %d", p.status)
			}
			links := p.doc.Find("a[href], link[href], form[action], [data-testid^=lang-]")
			if links.Length() == 0 {
				t.Fatalf("no links on the page (status %d): the check would prove nothing", p.status)
			}
			if p.doc.Find("[data-testid^=lang-]").Length() == 0 {
				t.Fatalf("no language switch on the page (status %d)", p.status)
			}
			links.Each(func(_ int, s *goquery.Selection) {
				for _, attr := range []string{"href", "action"} {
					v, ok := s.Attr(attr)
					if !ok {
						continue
					}
					if !isLocal(v) {
						t.Errorf("%s=%q leads off the site", attr, v)
					}
				}
			})
		})
	}
}

// rawGet sends a request line exactly as written (an http.Client would
// tidy the path or read "//host" as a host) and parses the page.
func rawGet(t *testing.T, base, target string) *page {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", target, strings.TrimPrefix(base, "http://")); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return &page{status: resp.StatusCode, header: resp.Header, doc: doc, body: string(body)}
}

// isLocal reports whether a browser resolves href against this site: a
// path that starts with one slash (browsers read a backslash as a slash)
// and names no scheme or host, or a fragment of this page.
func isLocal(href string) bool {
	if strings.HasPrefix(href, "#") {
		return true // a fragment of this page
	}
	h := strings.ReplaceAll(href, `\`, "/")
	if strings.HasPrefix(h, "//") || !strings.HasPrefix(h, "/") {
		return false
	}
	u, err := url.Parse(h)
	return err == nil && u.Scheme == "" && u.Host == ""
}
