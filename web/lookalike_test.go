package web_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/examsim/examsim"
)

// TestLookAlikeNamesAreTaken: in a room, and among accounts, a name that
// reads like a taken one (other case, Cyrillic or Greek letters drawn like
// Latin ones, full-width letters, hidden spaces) is refused as taken, in
// the visitor's language, while a name with different accents is a name
// of its own.
func TestLookAlikeNamesAreTaken(t *testing.T) {
	a := newClassApp(t)
	host := a.account("lookalike_host", examsim.RoleInstructor)
	_, code := a.startRun(host, "optional")
	a.join(code, "Alice", "en")
	lookAlikes := []string{"Аlice" /* Cyrillic А */, "Ａｌｉｃｅ" /* full-width */, "ΑLICE" /* Greek Alpha */, "AIice" /* capital I */, "ᴀlice" /* small capital */, "Ꭺlice" /* Cherokee */}
	// A username with an invisible character is refused by its format anyway.
	for _, nick := range append(lookAlikes, "A\u034flice" /* grapheme joiner */) {
		c := newClient(t, a.Server)
		c.get("/?lang=vi")
		p := c.post("/join?code="+code, "/join", url.Values{"code": {code}, "nickname": {nick}, "lang": {"vi"}})
		if p.status != http.StatusConflict {
			t.Errorf("joining as %q beside Alice: %d, want 409", nick, p.status)
		} else if msg := p.text("[data-testid=form-error]"); msg == "" {
			t.Errorf("joining as %q: no message", nick)
		}
	}
	a.join(code, "Ánh", "vi")
	a.join(code, "Anh", "vi") // another name, not a look-alike

	c := newClient(t, a.Server)
	if p := c.post("/register", "/register", url.Values{"username": {"Alice"}, "password": {"a less common passphrase"}}); p.status != http.StatusSeeOther {
		t.Fatalf("registering Alice: %d %s", p.status, p.text("[data-testid=form-error]"))
	}
	for _, name := range lookAlikes {
		other := newClient(t, a.Server)
		other.get("/?lang=pl")
		p := other.post("/register", "/register", url.Values{"username": {name}, "password": {"a less common passphrase"}})
		if p.status != http.StatusConflict {
			t.Errorf("registering %q beside Alice: %d, want 409", name, p.status)
		}
	}
}
