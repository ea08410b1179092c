package web_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// TestPasswordLengthInThai: bcrypt reads 72 bytes, and a Thai letter takes
// three, so 25 Thai letters are too long although they are far fewer than
// 72 characters. The message must say so truthfully, in Thai, and a
// password of exactly 72 bytes must be taken.
func TestPasswordLengthInThai(t *testing.T) {
	srv := newServer(t)
	c := newClient(t, srv)
	c.get("/?lang=th")
	tooLong := strings.Repeat("ก", 25) // 25 letters, 75 bytes
	p := c.post("/register", "/register", url.Values{"username": {"somchai"}, "password": {tooLong}})
	if p.status != http.StatusBadRequest {
		t.Fatalf("25 Thai letters: %d, want 400", p.status)
	}
	msg := p.text("[data-testid=form-error]")
	for _, want := range []string{"72 ไบต์", strconv.Itoa(len(tooLong))} {
		if !strings.Contains(msg, want) {
			t.Errorf("the message %q should say %q: the limit is in bytes, and how many this one takes", msg, want)
		}
	}
	if strings.Contains(msg, "72 ตัวอักษร") {
		t.Errorf("the message %q says 72 characters, which 25 letters are not", msg)
	}
	if got := p.doc.Find("[name=username]").AttrOr("value", ""); got != "somchai" {
		t.Errorf("the form lost the username: %q", got)
	}

	justRight := strings.Repeat("ข", 24) // 72 bytes
	if p := c.post("/register", "/register", url.Values{"username": {"somchai"}, "password": {justRight}}); p.status != http.StatusSeeOther {
		t.Fatalf("24 Thai letters (72 bytes): %d %s", p.status, p.text("[data-testid=form-error]"))
	}

	short := newClient(t, srv)
	short.get("/?lang=th")
	p = short.post("/register", "/register", url.Values{"username": {"malee"}, "password": {"กขคง"}})
	if p.status != http.StatusBadRequest || !strings.Contains(p.text("[data-testid=form-error]"), "8") {
		t.Errorf("a 4-letter password: %d %q, want 400 naming the minimum of 8", p.status, p.text("[data-testid=form-error]"))
	}
}
