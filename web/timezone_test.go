package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/examsim/examsim"
)

// TestTimesInViewersZone shows a classroom answer's time on /me in the zone
// the browser's script reported (URL-encoded, as static/tz.js writes the
// cookie), in UTC without it, with a zone the server does not know or
// with a non-canonical spelling, and keeps ISO 8601 with the offset in datetime.
func TestTimesInViewersZone(t *testing.T) {
	a := newClassApp(t)
	host := a.account("teacher", examsim.RoleInstructor)
	path, code := a.startRun(host, "off")
	student := a.join(code, "Somchai", "th")
	control(t, host, path, "start", -1)
	q, _ := a.Bank.Question(classQuestions[0])
	if p := answer(t, student, path, 0, q.Answer, ""); p.status != http.StatusOK {
		t.Fatalf("answer: %d", p.status)
	}
	for _, c := range []struct{ zone, shown, offset string }{
		{"", "UTC", "Z"},
		{"Asia/Bangkok", "+07", "+07:00"},
		{"Not/AZone", "UTC", "Z"},
		// As static/tz.js writes it: encodeURIComponent("Asia/Ho_Chi_Minh").
		{"Asia%2FHo_Chi_Minh", "+07", "+07:00"},
		{"Europe%2FWarsaw", "CET", "+01:00"},
		{"America//./New_York", "UTC", "Z"},
	} {
		student.setCookie("examsim_tz", c.zone)
		me := student.get("/me")
		cell := me.doc.Find(`[data-testid=attempt-row] time`).First()
		dt, _ := cell.Attr("datetime")
		if !strings.HasSuffix(strings.TrimSpace(cell.Text()), c.shown) || !strings.HasSuffix(dt, c.offset) {
			t.Errorf("zone %q: shown %q, datetime %q; want the time in %s, datetime ending %s", c.zone, cell.Text(), dt, c.shown, c.offset)
		}
	}
}
