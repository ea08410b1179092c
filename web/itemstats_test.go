package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
)

// storeSyntheticAnswers stores six learners' answers to three bank questions,
// the same pattern as examsim's TestItemStatsOnSyntheticAnswers: there "A"
// is Q1's key, "B" Q2's and "C" Q3's; here each question's key stands for
// its synthetic key and its other letters, in order, for the other three.
// It returns the three question ids and how a synthetic letter reads.
func storeSyntheticAnswers(t *testing.T, app *classApp) (ids []string, letter func(q int, synthetic string) string) {
	t.Helper()
	for _, q := range app.Bank.Questions {
		if len(q.Text(examsim.English).Options) == 4 && len(ids) < 3 {
			ids = append(ids, q.ID)
		}
	}
	letter = func(qi int, syn string) string {
		q, _ := app.Bank.Question(ids[qi])
		synKey := string(rune('A' + qi))
		if syn == synKey {
			return q.Answer
		}
		var others []string
		for _, o := range q.Text(examsim.English).Options {
			if o.Letter != q.Answer {
				others = append(others, o.Letter)
			}
		}
		n := int(syn[0] - 'A')
		if syn > synKey {
			n--
		}
		return others[n]
	}
	answers := map[string][3]string{ // Q1 Q2 Q3, synthetic letters
		"r1": {"A", "B", "D"}, "r2": {"B", "B", "C"}, "r3": {"A", "B", "D"},
		"r4": {"A", "D", "C"}, "r5": {"C", "A", "B"}, "r6": {"C", "C", "B"},
	}
	ctx := context.Background()
	ls, as := store.NewLearnerService(app.DB), store.NewAttemptService(app.DB)
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for _, who := range []string{"r1", "r2", "r3", "r4", "r5", "r6"} {
		l, err := ls.CreateAccount(ctx, who+"_items", "long enough pass", examsim.RoleLearner) // answers with weight
		if err != nil {
			t.Fatal(err)
		}
		for qi, syn := range answers[who] {
			q, _ := app.Bank.Question(ids[qi])
			choice := letter(qi, syn)
			at = at.Add(time.Minute)
			a := &examsim.Attempt{LearnerID: l.ID, Answer: examsim.Answer{QuestionID: q.ID, Lang: examsim.English, Choice: choice, Correct: choice == q.Answer, Verdict: examsim.Verdict{Misconceptions: []string{}, RubricVersion: 1}}, CreatedAt: at}
			if err := as.CreateAttempt(ctx, a); err != nil {
				t.Fatal(err)
			}
		}
	}
	return ids, letter
}

func TestItemStatsPage(t *testing.T) {
	app := newClassApp(t)
	ids, letter := storeSyntheticAnswers(t, app)
	ines := app.account("ines_items", examsim.RoleInstructor)
	for _, lang := range []string{"en", "vi", "pl", "th"} {
		p := ines.get("/class/items?lang=" + lang)
		if p.status != 200 {
			t.Fatalf("%s: %d", lang, p.status)
		}
		// Worked out by hand in examsim's test: facility 50%, 50%, 33%;
		// discrimination 0.24, 0.24, 0.00; each resting on six learners.
		for i, want := range [][2]string{{"50% (n = 6)", "0.24 (n = 6)"}, {"50% (n = 6)", "0.24 (n = 6)"}, {"33% (n = 6)", "0.00 (n = 6)"}} {
			row := p.doc.Find(`[data-testid=item-row][data-question-id="` + ids[i] + `"]`)
			if got := [2]string{row.Find(`[data-testid=facility]`).Text(), row.Find(`[data-testid=discrimination]`).Text()}; got != want {
				t.Errorf("%s: %s facility/discrimination %v, want %v", lang, ids[i], got, want)
			}
		}
		if n := p.doc.Find(`[data-testid=item-row]`).Length(); n != len(app.Bank.Questions) {
			t.Errorf("%s: %d rows, want every question (%d)", lang, n, len(app.Bank.Questions))
		}
		var flags []string
		p.doc.Find(`[data-testid=item-flag]`).Each(func(_ int, s *goquery.Selection) {
			id := s.AttrOr("data-question-id", "")
			flags = append(flags, id+" "+s.AttrOr("data-flag", ""))
			href := s.Find("a").AttrOr("href", "")
			if href != "#item-"+id || p.doc.Find(`[id="item-`+id+`"]`).Length() != 1 {
				t.Errorf("%s: the flag on %s links to %q, which is not its section", lang, id, href)
			}
		})
		want := []string{ids[0] + " unused_distractor", ids[2] + " low_discrimination", ids[2] + " unused_distractor", ids[2] + " strong_prefer_distractor"}
		if strings.Join(flags, ",") != strings.Join(want, ",") {
			t.Errorf("%s: flags %v, want %v", lang, flags, want)
		}
		// Q3's strong learners both chose synthetic D; nobody chose A.
		if text := p.text(`[data-testid=item-flag][data-question-id="` + ids[2] + `"][data-flag=strong_prefer_distractor]`); !strings.Contains(text, letter(2, "D")) {
			t.Errorf("%s: the strong-learner flag does not name %s: %q", lang, letter(2, "D"), text)
		}
		q3 := p.doc.Find(`[data-testid=item-detail][data-question-id="` + ids[2] + `"]`)
		cells := q3.Find(`[data-testid=option-row][data-letter="` + letter(2, "D") + `"] td`).Map(func(_ int, s *goquery.Selection) string { return squash(s.Text()) })
		if got := strings.Join(cells, " | "); got != "2 (33%) | 2 / 2 | 0 / 2" {
			t.Errorf("%s: Q3 option D row %q", lang, got)
		}
	}
	if p := newClient(t, app.Server).get("/class/items"); p.status != 401 {
		t.Errorf("anonymous: %d, want 401", p.status)
	}
}
