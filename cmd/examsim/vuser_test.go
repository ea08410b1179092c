package main

// The test side of a simulated browser, for the process, crash and
// shutdown tests. The load generator has its own in cmd/examsim-bench, which
// reads cookies and event streams rather than pages.

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"time"
)

var (
	csrfInput = regexp.MustCompile(`name="_csrf" value="([^"]*)"`)
	dataCSRF  = regexp.MustCompile(`data-csrf="([^"]*)"`)
	pickRow   = regexp.MustCompile(`data-question-id="([^"]+)" data-missing="([^"]*)"`)
)

// vuser is one simulated browser: its own cookies, the shared connections.
type vuser struct {
	base   string
	client *http.Client // no redirects followed, so each step is checked
	stream *http.Client // for event streams: no timeout
}

func newVUser(base string, tr *http.Transport) *vuser {
	jar, _ := cookiejar.New(nil)
	noRedirect := func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &vuser{base: base,
		client: &http.Client{Jar: jar, Transport: tr, Timeout: 60 * time.Second, CheckRedirect: noRedirect},
		stream: &http.Client{Jar: jar, Transport: tr, CheckRedirect: noRedirect}}
}

func (u *vuser) get(ctx context.Context, path string) (int, string, http.Header, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", u.base+path, nil)
	req.Header.Set("Accept", "text/html")
	return u.do(req)
}

func (u *vuser) post(ctx context.Context, path string, form url.Values, json bool) (int, string, http.Header, error) {
	req, _ := http.NewRequestWithContext(ctx, "POST", u.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if json {
		req.Header.Set("Accept", "application/json")
	} else {
		req.Header.Set("Accept", "text/html")
	}
	return u.do(req)
}

func (u *vuser) do(req *http.Request) (int, string, http.Header, error) {
	resp, err := u.client.Do(req)
	if err != nil {
		return 0, "", nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header, err
}

// formToken fetches a page and returns its CSRF token.
func (u *vuser) formToken(ctx context.Context, path string) (string, string, error) {
	status, body, _, err := u.get(ctx, path)
	if err != nil {
		return "", "", err
	}
	m := csrfInput.FindStringSubmatch(body)
	if status != 200 || m == nil {
		return "", body, fmt.Errorf("GET %s: status %d, no form", path, status)
	}
	return m[1], body, nil
}
