// Package loadgen is a simulated browser for driving a running examsim over
// real HTTP: the classroom load generator (cmd/examsim-bench) and the
// crash and shutdown tests of cmd/examsim share it, so both speak to the
// server the same way. It reads cookies, redirects and JSON, not HTML.
//
// It is a development tool: nothing in the server imports it.
package loadgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// VUser is one simulated browser: its own cookies, the shared connections.
type VUser struct {
	// Base is the server's base URL; a test that restarts the server on a
	// new port points its users at the new one.
	Base   string
	client *http.Client // no redirects followed, so each step is checked
	stream *http.Client // for event streams: no timeout
}

// NewVUser makes a browser for the server at base over the shared tr.
func NewVUser(base string, tr *http.Transport) *VUser {
	jar, _ := cookiejar.New(nil) // never fails: nil options
	noRedirect := func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &VUser{Base: strings.TrimRight(base, "/"),
		client: &http.Client{Jar: jar, Transport: tr, Timeout: 60 * time.Second, CheckRedirect: noRedirect},
		stream: &http.Client{Jar: jar, Transport: tr, CheckRedirect: noRedirect}}
}

// Get fetches path as a page and returns the status, body and headers.
func (u *VUser) Get(ctx context.Context, path string) (int, string, http.Header, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", u.Base+path, nil)
	if err != nil {
		return 0, "", nil, err
	}
	req.Header.Set("Accept", "text/html")
	return u.do(req)
}

// Post sends form to path, asking for JSON (as the pages' scripts do) or
// for a page (as a plain form does).
func (u *VUser) Post(ctx context.Context, path string, form url.Values, wantJSON bool) (int, string, http.Header, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", u.Base+path, strings.NewReader(form.Encode()))
	if err != nil {
		return 0, "", nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if wantJSON {
		req.Header.Set("Accept", "application/json")
	} else {
		req.Header.Set("Accept", "text/html")
	}
	return u.do(req)
}

func (u *VUser) do(req *http.Request) (int, string, http.Header, error) {
	resp, err := u.client.Do(req)
	if err != nil {
		return 0, "", nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header, err
}

// OpenStream opens the event stream at path, with no timeout, sharing the
// browser's cookies. The caller closes the body.
func (u *VUser) OpenStream(ctx context.Context, path string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", u.Base+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	return u.stream.Do(req)
}

// CSRF is the token the server keeps in the browser's cookie: the value
// every form and page script echoes. Empty before the first page.
func (u *VUser) CSRF() string {
	base, err := url.Parse(u.Base)
	if err != nil {
		return ""
	}
	for _, c := range u.client.Jar.Cookies(base) {
		if c.Name == "examsim_csrf" {
			return c.Value
		}
	}
	return ""
}

// FormToken fetches the page at path and returns the CSRF token its forms
// echo.
func (u *VUser) FormToken(ctx context.Context, path string) (string, error) {
	status, _, _, err := u.Get(ctx, path)
	if err != nil {
		return "", err
	}
	if tok := u.CSRF(); status == http.StatusOK && tok != "" {
		return tok, nil
	}
	if status != http.StatusOK {
		return "", &StatusError{Step: "GET " + path, Status: status} // a 503 here is Busy, as on the POST
	}
	return "", fmt.Errorf("GET %s: status %d, no CSRF cookie", path, status)
}

// StatusError is a step the server answered with a status other than the
// one a working server gives.
type StatusError struct {
	Step   string // what the browser was doing, e.g. "join"
	Status int
	Body   string
}

func (e *StatusError) Error() string {
	if e.Body == "" {
		return fmt.Sprintf("%s: status %d", e.Step, e.Status)
	}
	return fmt.Sprintf("%s: status %d %s", e.Step, e.Status, Excerpt(e.Body))
}

// Busy reports whether err is the server saying "try again in a moment"
// (503), which a person meets by pressing the button again.
func Busy(err error) bool {
	var se *StatusError
	return errors.As(err, &se) && se.Status == http.StatusServiceUnavailable
}

// Login logs in as an account. The error says whether the name and
// password were refused.
func (u *VUser) Login(ctx context.Context, user, password string) error {
	tok, err := u.FormToken(ctx, "/login")
	if err != nil {
		return err
	}
	status, _, _, err := u.Post(ctx, "/login", url.Values{"_csrf": {tok}, "username": {user}, "password": {password}}, false)
	if err != nil {
		return fmt.Errorf("logging in as %s: %w", user, err)
	}
	if status != http.StatusSeeOther {
		// The body is the login page again; its head says nothing useful.
		return &StatusError{Step: "logging in as " + user, Status: status}
	}
	return nil
}

// Quiz is what an instructor fills in on the quiz builder.
type Quiz struct {
	Title       string
	Scoring     string // "correctness" or "speed"
	Seconds     int    // per question
	QuestionIDs []string
}

// LiveRoom is a started live run of a quiz: its id in URLs and the code
// students join with.
type LiveRoom struct {
	ID, Code string
}

// OpenLiveRoom saves q as a new quiz and starts a live run of it; u is a
// logged-in instructor and csrf its form token.
func (u *VUser) OpenLiveRoom(ctx context.Context, csrf string, q Quiz) (LiveRoom, error) {
	form := url.Values{"_csrf": {csrf}, "title": {q.Title}, "seconds": {strconv.Itoa(q.Seconds)}, "scoring": {q.Scoring},
		"leaderboard": {"on"}, "explanations": {"optional"}, "action": {"save"}, "q": q.QuestionIDs}
	for i, id := range q.QuestionIDs {
		form.Set("order-"+id, strconv.Itoa(i+1))
	}
	status, body, hdr, err := u.Post(ctx, "/class/quizzes", form, false)
	if err != nil {
		return LiveRoom{}, fmt.Errorf("creating a quiz: %w", err)
	}
	if status != http.StatusSeeOther {
		return LiveRoom{}, &StatusError{Step: "creating a quiz", Status: status, Body: body}
	}
	quizPath := strings.SplitN(hdr.Get("Location"), "?", 2)[0]
	status, body, _, err = u.Post(ctx, quizPath+"/sessions", url.Values{"_csrf": {csrf}, "mode": {"live"}}, true)
	if err != nil {
		return LiveRoom{}, fmt.Errorf("starting a live run: %w", err)
	}
	var started struct {
		ID   int64  `json:"id"`
		Code string `json:"code"`
	}
	if status != http.StatusOK || json.Unmarshal([]byte(body), &started) != nil {
		return LiveRoom{}, &StatusError{Step: "starting a live run", Status: status, Body: body}
	}
	return LiveRoom{ID: strconv.FormatInt(started.ID, 10), Code: started.Code}, nil
}

// Join joins the room with code as nick, in lang, and returns the token
// the play page's script echoes. A 503 comes back as an error Busy knows.
func (u *VUser) Join(ctx context.Context, code, nick, lang string) (string, error) {
	tok, err := u.FormToken(ctx, "/join?code="+url.QueryEscape(code))
	if err != nil {
		return "", err
	}
	status, body, hdr, err := u.Post(ctx, "/join", url.Values{"_csrf": {tok}, "code": {code},
		"nickname": {nick}, "lang": {lang}}, false)
	if err != nil {
		return "", fmt.Errorf("join: %w", err)
	}
	if status != http.StatusSeeOther {
		return "", &StatusError{Step: "join", Status: status, Body: body}
	}
	play, err := u.FormToken(ctx, hdr.Get("Location"))
	if err != nil {
		return "", fmt.Errorf("play page: %w", err)
	}
	return play, nil
}

// Answer sends a student's answer to question index of room as the play
// page's script does; nil means the server acknowledged it. The status is
// 0 when no response came.
func (u *VUser) Answer(ctx context.Context, roomID, csrf string, index int, choice, explanation string) (int, error) {
	status, body, _, err := u.Post(ctx, "/class/s/"+roomID+"/answer", url.Values{"_csrf": {csrf},
		"index": {strconv.Itoa(index)}, "choice": {choice}, "explanation": {explanation}}, true)
	if err != nil {
		return 0, fmt.Errorf("answer: %w", err)
	}
	if status != http.StatusOK || !strings.Contains(body, `"ok":true`) {
		return status, &StatusError{Step: "answer", Status: status, Body: body}
	}
	return status, nil
}

// Control presses a host control of room ("next", "reveal", ...); from is
// the question index the host sees, so that a repeated press acts once.
// A 503 comes back as an error Busy knows.
func (u *VUser) Control(ctx context.Context, roomID, csrf, action string, from int) error {
	status, body, _, err := u.Post(ctx, "/class/s/"+roomID+"/control",
		url.Values{"_csrf": {csrf}, "action": {action}, "from": {strconv.Itoa(from)}}, true)
	if err != nil {
		return fmt.Errorf("host %s: %w", action, err)
	}
	if status != http.StatusOK {
		return &StatusError{Step: "host " + action, Status: status, Body: body}
	}
	return nil
}

// Excerpt shortens a response body for an error message.
func Excerpt(s string) string {
	if len(s) > 200 {
		cut := 200
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut-- // never split a character of a Thai or Vietnamese page
		}
		s = s[:cut]
	}
	return strings.Join(strings.Fields(s), " ")
}
