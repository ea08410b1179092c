package main

import (
	"context"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/store"
)

// TestQuestionsStatsWithDB stores the synthetic answers of examsim's
// TestItemStatsOnSyntheticAnswers against three bank questions (each
// question's key standing for the synthetic key) and checks the printed
// figures worked out there by hand.
func TestQuestionsStatsWithDB(t *testing.T) { eachDB(t, testQuestionsStatsWithDB) }

func testQuestionsStatsWithDB(t *testing.T, path string) {
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	fsys, name := questions.Embedded()
	bank, _ := questions.Load(fsys, name)
	var qs []*questions.Question
	for _, q := range bank.Questions {
		if len(q.Text(examsim.English).Options) == 4 && len(qs) < 3 {
			qs = append(qs, q)
		}
	}
	// own returns question qi's letter for a synthetic letter: synthetic
	// keys are A, B, C for the three; the rest map to the other letters in order.
	own := func(qi int, syn string) string {
		q := qs[qi]
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
	answers := [][3]string{{"A", "B", "D"}, {"B", "B", "C"}, {"A", "B", "D"}, {"A", "D", "C"}, {"C", "A", "B"}, {"C", "C", "B"}}
	ls, as := store.NewLearnerService(db), store.NewAttemptService(db)
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for i, row := range answers {
		l, err := ls.CreateAccount(ctx, "learner"+strconv.Itoa(i), "long enough pass", examsim.RoleLearner) // answers with weight
		if err != nil {
			t.Fatal(err)
		}
		for qi, syn := range row {
			at = at.Add(time.Minute)
			choice := own(qi, syn)
			if err := as.CreateAttempt(ctx, &examsim.Attempt{LearnerID: l.ID, Answer: examsim.Answer{QuestionID: qs[qi].ID, Lang: examsim.English, Choice: choice, Correct: choice == qs[qi].Answer, Verdict: examsim.Verdict{Misconceptions: []string{}, RubricVersion: 1}}, CreatedAt: at}); err != nil {
				t.Fatal(err)
			}
		}
	}
	db.Close()

	code, out, errOut := runCmd(t, "", "questions", "stats", "--db", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		qs[0].ID + ` +6 +0\.50 +0\.24 +nobody picks distractor ` + own(0, "D") + `\n`,
		qs[1].ID + ` +6 +0\.50 +0\.24 +\n`,
		qs[2].ID + ` +6 +0\.33 +0\.00 +discrimination < 0\.20; nobody picks distractor ` + own(2, "A") + `; strong learners prefer distractor ` + own(2, "D") + `\n`,
		qs[2].ID + `: options \(picked, strong of 2, weak of 2\)`,
		`  ` + own(2, "D") + `\t2\t2\t0\n`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, bank.Questions[len(bank.Questions)-1].ID) {
		t.Error("not every question is listed")
	}
	if code, _, errOut := runCmd(t, "", "questions", "stats", "--db", filepath.Join(t.TempDir(), "typo.db")); code != 1 || !strings.Contains(errOut, "no database at") {
		t.Errorf("a missing database: exit %d, %s", code, errOut)
	}
}
