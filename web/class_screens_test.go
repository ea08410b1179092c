package web_test

import (
	"net/http"
	"testing"

	"github.com/examsim/examsim"
)

// TestPlayLanguageSwitch switches a student's question language from the
// play page's language links; the question then shows in the new language.
func TestPlayLanguageSwitch(t *testing.T) {
	a := newClassApp(t)
	host := a.account("teacher", examsim.RoleInstructor)
	path, code := a.startRun(host, "optional")
	student := a.join(code, "Kasia", "pl")
	control(t, host, path, "start", -1)
	q, _ := a.Bank.Question(classQuestions[0])
	play := student.get(path + "/play")
	link, ok := play.doc.Find(`[data-testid=lang-switch] [data-testid=lang-th]`).Attr("href")
	if !ok {
		t.Fatal("the play page has no Thai link in its language switch")
	}
	if p := student.get(link); p.status != http.StatusSeeOther {
		t.Fatalf("following %s: %d", link, p.status)
	}
	p := student.get(path + "/play")
	if lang, _ := p.doc.Find("html").Attr("lang"); lang != "th" || p.text("[data-testid=question-title]") != q.Text(examsim.Thai).Title {
		t.Errorf("after switching to Thai the page is %q and shows %q", lang, p.text("[data-testid=question-title]"))
	}
	if p.doc.Find("header.top").Length() != 0 {
		t.Error("the play page shows the site navigation")
	}
}

// TestEndAsksFirst: on the presenter screen the End button sits inside a
// confirmation that has to be opened first, and the screen has no site
// navigation.
func TestEndAsksFirst(t *testing.T) {
	a := newClassApp(t)
	host := a.account("teacher", examsim.RoleInstructor)
	path, _ := a.startRun(host, "optional")
	p := host.get(path + "/host")
	if p.doc.Find(`[data-testid=host-end]`).Length() != 1 || p.doc.Find(`details[data-testid=end-confirm] [data-testid=host-end]`).Length() != 1 {
		t.Error("End the session is not behind a confirmation")
	}
	if p.doc.Find("header.top").Length() != 0 {
		t.Error("the presenter screen shows the site navigation")
	}
}
