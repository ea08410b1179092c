package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestInvalidUTF8IsReplacedOnTheWayIn: bytes that are not UTF-8 in an
// explanation or a flag comment are stored as U+FFFD, so no page or export
// serves them back raw.
func TestInvalidUTF8IsReplacedOnTheWayIn(t *testing.T) {
	c := newClient(t, newServer(t))
	attempt, _ := practise(t, c, "malformed-order-id", "B", "retry \xff\xfe helps")
	if p := c.post(attempt, attempt+"/flag", url.Values{"comment": {"wrong \xc3( score"}}); p.status != http.StatusSeeOther {
		t.Fatalf("flag: %d", p.status)
	}
	for _, path := range []string{attempt, "/me", "/me/history.csv"} {
		p := c.get(path)
		if !utf8.ValidString(p.body) {
			t.Errorf("%s serves bytes that are not UTF-8", path)
		}
	}
	if me := c.get("/me").body; !strings.Contains(me, "retry \uFFFD\uFFFD helps") {
		t.Error("/me does not show the explanation with U+FFFD in place of the bad bytes")
	}
	if page := c.get(attempt).body; !strings.Contains(page, "wrong \uFFFD( score") {
		t.Error("the attempt page does not show the flag comment with U+FFFD in place of the bad byte")
	}
}
