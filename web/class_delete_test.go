package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"testing"

	"github.com/examsim/examsim"
)

// TestDeletingHostEndsTheirRoomsOnly deletes instructor A's account while
// students of A's room and of instructor B's room answer at the same moment.
// No answer gets a 500: A's students are either taken or told the quiz is
// not running, every answer in B's room is taken, and A's students then see
// that the host ended the quiz.
func TestDeletingHostEndsTheirRoomsOnly(t *testing.T) {
	a := newClassApp(t)
	hostA := a.account("teacher_a", examsim.RoleInstructor)
	hostB := a.account("teacher_b", examsim.RoleInstructor)
	pathA, codeA := a.startRun(hostA, "optional")
	pathB, codeB := a.startRun(hostB, "optional")
	const n = 12
	var studentsA, studentsB []*client
	for i := range n {
		studentsA = append(studentsA, a.join(codeA, fmt.Sprintf("a%d", i), string(examsim.Langs[i%4])))
		studentsB = append(studentsB, a.join(codeB, fmt.Sprintf("b%d", i), string(examsim.Langs[i%4])))
	}
	control(t, hostA, pathA, "start", -1)
	control(t, hostB, pathB, "start", -1)
	q, _ := a.Bank.Question(classQuestions[0])

	var wg sync.WaitGroup
	statusA, statusB := make([]int, n), make([]int, n)
	for i := range n {
		wg.Add(2)
		go func() { defer wg.Done(); statusA[i] = answer(t, studentsA[i], pathA, 0, q.Answer, "").status }()
		go func() { defer wg.Done(); statusB[i] = answer(t, studentsB[i], pathB, 0, q.Answer, "").status }()
	}
	del := hostA.post("/me/delete", "/me/delete", url.Values{"confirm": {"DELETE"}})
	wg.Wait()
	if del.status != http.StatusSeeOther {
		t.Fatalf("deleting the host: %d %s", del.status, del.text("[data-testid=form-error]"))
	}
	for i := range n {
		if statusA[i] != http.StatusOK && statusA[i] != http.StatusConflict {
			t.Errorf("student %d of the deleted host's room: %d, want 200 or 409", i, statusA[i])
		}
		if statusB[i] != http.StatusOK {
			t.Errorf("student %d of the other room: %d, want 200", i, statusB[i])
		}
	}
	late := answer(t, studentsA[0], pathA, 1, q.Answer, "")
	if late.status != http.StatusConflict {
		t.Errorf("an answer after the deletion: %d %s, want 409", late.status, late.body)
	}
	if p := studentsA[1].get(pathA + "/play"); p.doc.Find("[data-testid=ended-by-host]").Length() != 1 {
		t.Errorf("a student of the deleted host's room does not see the host ended the quiz: %d %s", p.status, p.text("#stage"))
	}
	if p := studentsB[1].get(pathB + "/play"); p.doc.Find("[data-testid=stage-answered]").Length() != 1 {
		t.Errorf("the other room's student does not see their answer received: %s", p.text("#stage"))
	}
}
