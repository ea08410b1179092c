package web_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/loadgen"
	"github.com/examsim/examsim/web"
	"github.com/examsim/examsim/web/webtest"
)

// TestTrickledBodyIsCutOff: a client that sends its headers and then a
// body one byte at a time is answered 408, in its language, and the
// connection is closed long before the body could have arrived; a client
// that sends the same body at once is served.
func TestTrickledBodyIsCutOff(t *testing.T) {
	app := webtest.Start(t, webtest.WithConfig(func(c *web.Config) { c.BodyTimeout = 300 * time.Millisecond }))
	host := strings.TrimPrefix(app.URL, "http://")
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := url.Values{"username": {"someone"}, "password": {strings.Repeat("x", 150)}}.Encode()
	fmt.Fprintf(conn, "POST /login HTTP/1.1\r\nHost: %s\r\nAccept-Language: pl\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n", host, len(body))
	answered := make(chan *http.Response, 1)
	go func() {
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			close(answered)
			return
		}
		answered <- resp
	}()
	sent := 0
	var resp *http.Response
trickle:
	for ; sent < len(body); sent++ {
		select {
		case resp = <-answered:
			break trickle
		case <-time.After(50 * time.Millisecond): // a byte every 50 ms: the whole body would take 8 s
		}
		if _, err := conn.Write([]byte{body[sent]}); err != nil {
			resp = <-answered
			break
		}
	}
	if sent == len(body) {
		t.Fatalf("the server waited for the whole trickled body (%d bytes)", sent)
	}
	if resp == nil {
		t.Fatalf("the connection was cut after %d bytes, but with no answer", sent)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Errorf("status %d, want 408", resp.StatusCode)
	}
	if got := resp.Header.Get("Content-Security-Policy"); got != web.ContentSecurityPolicy {
		t.Errorf("the 408 lacks the security headers: CSP %q", got)
	}
	page, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(page), `lang="pl"`) {
		t.Errorf("the 408 page is not in the client's language (pl):\n%s", page)
	}

	// The same form at once is served (401: no such account).
	c := newClient(t, app.Server)
	if p := c.post("/login", "/login", url.Values{"username": {"someone"}, "password": {strings.Repeat("x", 150)}}); p.status != http.StatusUnauthorized {
		t.Errorf("the same login sent at once: %d, want 401", p.status)
	}
}

// TestStreamsOutliveTheBodyTimeout: the body timeout is no write or whole
// request timeout: an event stream open for many times its length still
// carries the next event.
func TestStreamsOutliveTheBodyTimeout(t *testing.T) {
	app := webtest.Start(t, webtest.WithConfig(func(c *web.Config) { c.BodyTimeout = 100 * time.Millisecond }))
	a := &classApp{App: app, t: t}
	host := a.account("stream_host", examsim.RoleInstructor)
	room, code := a.startRun(host, "optional")
	student := a.join(code, "Patient", "en")
	resp, err := student.http.Get(student.base + room + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := loadgen.Events(resp.Body)
	if _, ok := <-events; !ok {
		t.Fatal("the stream closed before its first event")
	}
	time.Sleep(10 * 100 * time.Millisecond) // ten body timeouts
	for drained := false; !drained; {
		select {
		case _, ok := <-events:
			if !ok {
				t.Fatal("the stream closed while idle")
			}
		default:
			drained = true
		}
	}
	control(t, host, room, "start", -1)
	select {
	case _, ok := <-events:
		if !ok {
			t.Fatal("the stream was closed: the next event never came")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no event within 30 s of the quiz starting")
	}
}
