package web_test

import (
	"context"
	"html"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/loadgen"
)

// TestStreamedOwnLineIsThePagesOwnLine: a student's own line on the event
// stream (rendered once per language, points and place and shared, with
// the nickname spliced in) is byte for byte the line /play renders for that
// student, in every language, for nicknames with markup characters, in the
// lobby, on a question before and after points differ, at the reveal (right,
// wrong, with an explanation and without) and on the podium with places.
func TestStreamedOwnLineIsThePagesOwnLine(t *testing.T) {
	a := newClassApp(t)
	host := a.account("teacher", examsim.RoleInstructor)
	path, code := a.startRun(host, "optional")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	type student struct {
		c      *client
		nick   string
		choice int // of the first question's options: 0 the key, else the nth wrong one
		expl   string
		events <-chan loadgen.Event
	}
	var students []*student
	for _, lang := range []string{"en", "pl", "th", "vi"} {
		// Ana and Bo answer alike but for Bo's explanation; the other two
		// give different wrong answers.
		for i, nick := range []string{"Ana " + lang, "Bo " + lang, `<i>"T&J"'s</i> ` + lang, "Cy " + lang} {
			st := &student{c: a.join(code, nick, lang), nick: nick, choice: max(i-1, 0)}
			if i == 1 {
				st.expl = "The tool should return isError with a category and isRetryable so the agent knows whether to retry."
			}
			req, _ := http.NewRequestWithContext(ctx, "GET", st.c.base+path+"/events", nil)
			resp, err := st.c.http.Do(req)
			if err != nil || resp.StatusCode != http.StatusOK {
				t.Fatalf("%s's stream: %v %v", nick, resp, err)
			}
			defer resp.Body.Close()
			st.events = loadgen.Events(resp.Body)
			students = append(students, st)
		}
	}
	// check reads each student's stream up to the stage in phase and the own
	// line sent with it, and compares that line with /play's.
	check := func(phase string) map[string]string {
		t.Helper()
		lines := map[string]string{}
		for _, st := range students {
			staged := false
			var you string
			for ev := range st.events {
				if ev.Name == "stage" && strings.Contains(ev.Data, `data-phase="`+phase+`"`) {
					staged = true
				}
				if staged && ev.Name == "you" {
					you = ev.Data
					break
				}
			}
			if you == "" {
				t.Fatalf("%s: the stream brought no own line with the %s stage", st.nick, phase)
			}
			if !strings.Contains(you, html.EscapeString(st.nick)) {
				t.Errorf("%s, %s: the own line lacks the escaped nickname: %s", st.nick, phase, you)
			}
			if p := st.c.get(path + "/play"); !strings.Contains(p.body, `data-testid="you">`+you+`</div>`) {
				t.Errorf("%s, %s: the streamed own line\n%s\nis not the one /play renders:\n%s", st.nick, phase, you, p.doc.Find("#you").Text())
			}
			lines[st.nick] = you
		}
		return lines
	}
	check("lobby")
	control(t, host, path, "start", -1)
	check("question")
	q, _ := a.Bank.Question(classQuestions[0])
	choices := []string{q.Answer}
	for _, o := range q.Text(examsim.English).Options {
		if o.Letter != q.Answer {
			choices = append(choices, o.Letter)
		}
	}
	for _, st := range students {
		if ack := answer(t, st.c, path, 0, choices[st.choice], st.expl); ack.status != http.StatusOK {
			t.Fatalf("%s answers: %d %s", st.nick, ack.status, ack.body)
		}
	}
	control(t, host, path, "reveal", 0)
	revealed := check("reveal")
	for _, st := range students {
		if got := revealed[st.nick]; strings.Contains(got, `class="score-line"`) != (st.expl != "") {
			t.Errorf("%s at the reveal: a score line %t, want %t: %s", st.nick, st.expl == "", st.expl != "", got)
		}
	}
	control(t, host, path, "next", 0)
	check("question")
	control(t, host, path, "end", 1)
	check("ended")
}
