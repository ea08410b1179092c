package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/examsim/examsim"
)

// TestClassroomAnswersReachMe has a student join without an account, answer
// one question right and one wrong, and find both on /me labelled with the
// quiz; after registering they are still there, and the missed question is
// on the review list.
func TestClassroomAnswersReachMe(t *testing.T) {
	a := newClassApp(t)
	host := a.account("teacher", examsim.RoleInstructor)
	path, code := a.startRun(host, "optional")
	student := a.join(code, "Lan", "vi")
	control(t, host, path, "start", -1)
	q0, _ := a.Bank.Question(classQuestions[0])
	if p := answer(t, student, path, 0, q0.Answer, ""); p.status != http.StatusOK {
		t.Fatalf("answer 1: %d %s", p.status, p.body)
	}
	control(t, host, path, "reveal", 0)
	control(t, host, path, "next", 0)
	if p := answer(t, student, path, 1, wrongOption(a, classQuestions[1]), ""); p.status != http.StatusOK {
		t.Fatalf("answer 2: %d %s", p.status, p.body)
	}

	check := func(when string) {
		t.Helper()
		me := student.get("/me?lang=en")
		rows := me.doc.Find(`[data-testid=attempt-row][data-source=classroom]`)
		if rows.Length() != 2 {
			t.Fatalf("%s: /me has %d classroom answers, want 2: %s", when, rows.Length(), me.text("main"))
		}
		label := strings.TrimSpace(rows.First().Find("[data-testid=attempt-source]").Text())
		if !strings.HasPrefix(label, "Classroom: Błędy & <narzędzia>, ") {
			t.Errorf("%s: the answer is labelled %q, want \"Classroom: <quiz title>, <date>\"", when, label)
		}
	}
	check("anonymous")
	if p := student.post("/register", "/register", url.Values{"username": {"lan_nguyen"}, "password": {"a less common passphrase"}}); p.status != http.StatusSeeOther {
		t.Fatalf("register: %d %s", p.status, p.text("[data-testid=form-error]"))
	}
	check("after registering")
	review := student.get("/review?lang=en")
	if !strings.Contains(review.body, classQuestions[1]) {
		t.Errorf("the missed classroom question %s is not on the review list", classQuestions[1])
	}
}
