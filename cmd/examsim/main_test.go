package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"

	_ "github.com/mattn/go-sqlite3"
)

func runCmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestQuestionsCheckEmbedded(t *testing.T) {
	// The structure only: the cue check has fixture banks of its own below.
	code, out, errOut := runCmd(t, "", "questions", "check", "--cues=false")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	if !strings.HasSuffix(strings.TrimSpace(out), "questions, languages: en pl th vi") {
		t.Errorf("summary = %q", out)
	}
}

func TestQuestionsCheckRunsTheCueCheck(t *testing.T) {
	fixtures := filepath.Join("..", "..", "questions", "testdata")
	code, out, errOut := runCmd(t, "", "questions", "check", filepath.Join(fixtures, "cued"))
	if code != 1 {
		t.Fatalf("a cued bank: exit %d, want 1:\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"cue check: en: the key is strictly the longest option in 50% of questions (2 of 4)",
		"cue check: th: q1 and q2 are near-duplicates",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if code, out, errOut := runCmd(t, "", "questions", "check", filepath.Join(fixtures, "clean")); code != 0 {
		t.Errorf("a clean bank: exit %d:\n%s%s", code, out, errOut)
	} else if !strings.Contains(out, "warning: "+filepath.Join(fixtures, "clean")+":1: 4 of 4 questions have no source `lesson: <concept-id>`") {
		t.Errorf("a clean bank: the lesson-source warning is missing:\n%s", out)
	}
	if _, out, _ := runCmd(t, "", "questions", "stats", filepath.Join(fixtures, "cued")); !strings.Contains(out, "en    50% (2 of 4) over      +51.1% over                   25% / 8% over                    0.38 q1 / q2 over") {
		t.Errorf("questions stats lacks the cue figures:\n%s", out)
	}
}

// copyBank copies the embedded bank's seeded question and topic into dir so
// a test can break it.
func writeBrokenBank(t *testing.T) string {
	dir := t.TempDir()
	src := filepath.Join("..", "..", "questions", "bank", "structured-errors")
	dst := filepath.Join(dir, "structured-errors")
	for _, rel := range []string{"topic.yaml", "lesson.en.md", "lesson.vi.md", "lesson.pl.md", "lesson.th.md",
		"malformed-order-id/question.yaml", "malformed-order-id/en.md", "malformed-order-id/vi.md", "malformed-order-id/pl.md"} {
		data, err := os.ReadFile(filepath.Join(src, rel))
		if err != nil {
			t.Fatal(err)
		}
		if rel == "malformed-order-id/en.md" {
			data = bytes.Replace(data, []byte("## A"), []byte("## X"), 1)
		}
		os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755)
		os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	}
	return dir
}

func TestQuestionsCheckListsEveryProblem(t *testing.T) {
	dir := writeBrokenBank(t)
	code, out, _ := runCmd(t, "", "questions", "check", dir)
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	for _, want := range []string{
		dir + "/structured-errors/malformed-order-id/question.yaml:1: th.md is missing",
		dir + "/structured-errors/malformed-order-id/en.md:",
		`option heading "X": expected ## A`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if code, _, errOut := runCmd(t, "", "serve", "--questions", dir, "--db", filepath.Join(t.TempDir(), "x.db")); code != 1 || !strings.Contains(errOut, "th.md is missing") {
		t.Errorf("serve on a broken bank: exit %d, %s", code, errOut)
	}
}

func TestScoreContract(t *testing.T) {
	explanation := "It is a validation error: isRetryable is false because the same malformed id fails every time; reformat it as #NNNNN and call again."
	code, out, errOut := runCmd(t, explanation, "score", "--question", "malformed-order-id", "--lang", "en")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Question string `json:"question"`
		Lang     string `json:"lang"`
		Score    *int   `json:"score"`
		Band     *int   `json:"band"`
		Concepts []struct {
			ID       string `json:"id"`
			Hit      *bool  `json:"hit"`
			Evidence []struct {
				Start, End int
				Text       string
			} `json:"evidence"`
		} `json:"concepts"`
		Misconceptions []string `json:"misconceptions"`
		Confidence     *float64 `json:"confidence"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if got.Question != "malformed-order-id" || got.Lang != "en" || got.Score == nil || got.Band == nil ||
		len(got.Concepts) == 0 || got.Concepts[0].Hit == nil || got.Misconceptions == nil {
		t.Fatalf("contract broken: %s", out)
	}
	if *got.Band < 2 {
		t.Errorf("a sound explanation got band %d: %s", *got.Band, out)
	}
	if got.Confidence == nil || *got.Confidence <= 0 || *got.Confidence > 1 {
		t.Errorf("confidence missing or out of 0-1: %s", out)
	}
	for _, c := range got.Concepts {
		if *c.Hit && len(c.Evidence) == 0 {
			t.Errorf("concept %s hit without evidence: %s", c.ID, out)
		}
		for _, e := range c.Evidence {
			if r := []rune(explanation); e.Start < 0 || e.End > len(r) || e.Start >= e.End || string(r[e.Start:e.End]) != e.Text {
				t.Errorf("concept %s: evidence %+v is not the explanation's characters %d to %d", c.ID, e, e.Start, e.End)
			}
		}
	}

	for _, args := range [][]string{
		{"score", "--question", "no-such-question", "--lang", "en"},
		{"score", "--question", "malformed-order-id", "--lang", "fr"},
	} {
		if code, _, errOut := runCmd(t, "x", args...); code != 2 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
	if code, _, errOut := runCmd(t, strings.Repeat("x", 5000), "score", "--question", "malformed-order-id"); code != 2 || !strings.Contains(errOut, "4000") {
		t.Errorf("too long: exit %d, %q", code, errOut)
	}
}

func TestRescoreUpdatesOldRubricVersions(t *testing.T) {
	eachDB(t, testRescoreUpdatesOldRubricVersions)
}

func testRescoreUpdatesOldRubricVersions(t *testing.T, path string) {
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := store.NewLearnerService(db).CreateAnonymous(ctx)
	as := store.NewAttemptService(db)
	old := &examsim.Attempt{LearnerID: l.ID, Answer: examsim.Answer{QuestionID: "malformed-order-id", Lang: examsim.English, Choice: "A", Correct: true, Explanation: "validation error, isRetryable false, fix the format #NNNNN", Verdict: examsim.Verdict{Band: 0, RubricVersion: 0}}}
	as.CreateAttempt(ctx, old)
	db.Close()

	code, out, errOut := runCmd(t, "", "rescore", "--db", path)
	if code != 0 || !strings.HasPrefix(out, "rescored 1 of 1") {
		t.Fatalf("rescore: exit %d %q %q", code, out, errOut)
	}
	db, _ = store.Open(ctx, path)
	defer db.Close()
	got, _ := store.NewAttemptService(db).FindAttempt(ctx, old.ID)
	if got.RubricVersion == 0 || got.Band == 0 || len(got.Concepts) == 0 {
		t.Errorf("attempt not re-scored: %+v", got)
	}
	if code, out, _ := runCmd(t, "", "rescore", "--db", path); code != 0 || !strings.HasPrefix(out, "rescored 0 of 1") {
		t.Errorf("second rescore should change nothing: %q", out)
	}
}

// TestRescoreGoesOnPastAFailingItem: one attempt that cannot be rescored
// (here the database refuses its update) is reported by id, and the run
// goes on: the attempts after it are rescored, a pending score among them.
func TestRescoreGoesOnPastAFailingItem(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "r.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := store.NewLearnerService(db).CreateAnonymous(ctx)
	as := store.NewAttemptService(db)
	text := "validation error, isRetryable false, fix the format #NNNNN"
	stale := &examsim.Attempt{LearnerID: l.ID, Answer: examsim.Answer{QuestionID: "malformed-order-id", Lang: examsim.English, Choice: "A", Correct: true, Explanation: text}}
	refused := *stale
	pending := *stale
	pending.Verdict = examsim.Verdict{Pending: true, RubricVersion: 99} // a current version: only its pending flag makes it due
	for _, a := range []*examsim.Attempt{&refused, stale, &pending} {
		if err := as.CreateAttempt(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`CREATE TRIGGER refuse BEFORE UPDATE ON attempts WHEN old.id = ` + strconv.FormatInt(refused.ID, 10) + ` BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`); err != nil {
		t.Fatal(err)
	}
	raw.Close()

	code, out, errOut := runCmd(t, "", "rescore", "--db", path)
	if code != 1 || !strings.Contains(errOut, "attempt "+strconv.FormatInt(refused.ID, 10)+" (malformed-order-id, en)") || !strings.Contains(out, "1 answers could not be rescored") {
		t.Errorf("rescore with a failing item: exit %d, stdout %q, stderr %q; want exit 1 naming the attempt", code, out, errOut)
	}
	db, _ = store.Open(ctx, path)
	defer db.Close()
	for _, a := range []*examsim.Attempt{stale, &pending} {
		got, _ := store.NewAttemptService(db).FindAttempt(ctx, a.ID)
		if got.Pending || got.RubricVersion == 0 || got.RubricVersion == 99 || got.Band == 0 {
			t.Errorf("attempt %d after the failing one was not rescored: %+v", a.ID, got.Verdict)
		}
	}
}

// TestRescoreScoresPendingClassAnswers: a class answer kept with its score
// pending is scored by rescore, and a right one earns its explanation's
// points then.
func TestRescoreScoresPendingClassAnswers(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "c.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	ls, cs := store.NewLearnerService(db), store.NewClassroomService(db)
	host, err := ls.CreateAccount(ctx, "host", "long enough pass", examsim.RoleInstructor)
	if err != nil {
		t.Fatal(err)
	}
	quiz := &examsim.Quiz{OwnerID: host.ID, Title: "q", QuestionIDs: []string{"malformed-order-id"}, SecondsPerQuestion: 20,
		Scoring: examsim.ScoreCorrectness, Explanations: examsim.ExplainOptional}
	run := &examsim.ClassRun{HostID: host.ID, Mode: examsim.ModeLive, Quiz: *quiz, Phase: examsim.PhaseQuestion}
	player := &examsim.Player{Nickname: "Lan", Lang: examsim.English, RejoinHash: []byte{1}}
	if err := cs.CreateQuiz(ctx, quiz); err != nil {
		t.Fatal(err)
	}
	run.Quiz = *quiz
	if err := cs.CreateRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	player.RunID = run.ID
	if err := cs.CreatePlayer(ctx, player); err != nil {
		t.Fatal(err)
	}
	a := &examsim.ClassAnswer{RunID: run.ID, PlayerID: player.ID, Answer: examsim.Answer{QuestionID: "malformed-order-id", Lang: examsim.English, Choice: "A", Correct: true, Explanation: "validation error, isRetryable false, fix the format #NNNNN", Verdict: examsim.Verdict{Pending: true, RubricVersion: 1}}, Points: 1000}
	if err := cs.SaveAnswers(ctx, []*examsim.ClassAnswer{a}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if code, out, errOut := runCmd(t, "", "rescore", "--db", path); code != 0 || !strings.Contains(out, "scored 1 class answers whose score was pending") {
		t.Fatalf("rescore: exit %d %q %q", code, out, errOut)
	}
	db, _ = store.Open(ctx, path)
	defer db.Close()
	got, err := store.NewClassroomService(db).ListAnswers(ctx, run.ID)
	if err != nil || len(got) != 1 || got[0].Pending || got[0].Band < 2 || got[0].Points != 1000+500*got[0].Score()/100 {
		t.Errorf("after rescore: %v %+v", err, got)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{}, {"bogus"}, {"questions"}, {"questions", "bogus"}, {"serve", "--nope"}} {
		if code, _, errOut := runCmd(t, "", args...); code != 2 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}
