package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
)

// regradedDB makes a database with two attempts of an old rubric version,
// the first regraded by a teacher to band 1.
func regradedDB(t *testing.T, path string) (regraded, plain *examsim.Attempt) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ls := store.NewLearnerService(db)
	learner, _ := ls.CreateAnonymous(ctx)
	teacher, err := ls.CreateAccount(ctx, "ines", "a less common passphrase", examsim.RoleInstructor)
	if err != nil {
		t.Fatal(err)
	}
	as := store.NewAttemptService(db)
	regraded = &examsim.Attempt{LearnerID: learner.ID, Answer: examsim.Answer{QuestionID: "malformed-order-id", Lang: examsim.Polish, Choice: "D", Correct: true, Explanation: "Błąd walidacji \"id\": ponawianie nic nie da, popraw format", Verdict: examsim.Verdict{RubricVersion: 0}}}
	plain = &examsim.Attempt{LearnerID: learner.ID, Answer: examsim.Answer{QuestionID: "malformed-order-id", Lang: examsim.English, Choice: "D", Correct: true, Explanation: "validation error, isRetryable false, fix the format #NNNNN", Verdict: examsim.Verdict{RubricVersion: 0}}}
	for _, a := range []*examsim.Attempt{regraded, plain} {
		if err := as.CreateAttempt(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	g := &examsim.HumanGrade{Target: examsim.Target{Kind: examsim.TargetAttempt, ID: regraded.ID}, Band: 1, GraderID: teacher.ID,
		Concepts: []examsim.ConceptHit{{ID: "a", Hit: true}, {ID: "b", Hit: false}}}
	if err := store.NewDisputeService(db).Regrade(ctx, g); err != nil {
		t.Fatal(err)
	}
	return regraded, plain
}

func TestRescoreNeverOverwritesAHumanBand(t *testing.T) {
	eachDB(t, testRescoreNeverOverwritesAHumanBand)
}

func testRescoreNeverOverwritesAHumanBand(t *testing.T, path string) {
	ctx := context.Background()
	regraded, _ := regradedDB(t, path)
	code, out, errOut := runCmd(t, "", "rescore", "--db", path, "--all")
	if code != 0 || !strings.HasPrefix(out, "rescored 2 of 2") || !strings.Contains(out, "1 attempts have a teacher's band") {
		t.Fatalf("rescore: exit %d %q %q", code, out, errOut)
	}
	db, _ := store.Open(ctx, path)
	defer db.Close()
	got, err := store.NewAttemptService(db).FindAttempt(ctx, regraded.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.RubricVersion == 0 || len(got.Concepts) == 0 {
		t.Errorf("the automatic verdict was not re-scored: %+v", got)
	}
	if got.Human == nil || got.Human.Band != 1 || got.EffectiveBand() != 1 {
		t.Errorf("the teacher's band after rescoring: %+v, effective %d, want 1", got.Human, got.EffectiveBand())
	}
}

func readLines[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var v T
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s: %v in %q", path, err, sc.Text())
		}
		out = append(out, v)
	}
	return out
}

func TestScoringExportWritesOverridesAsCorpus(t *testing.T) {
	eachDB(t, testScoringExportWritesOverridesAsCorpus)
}

func testScoringExportWritesOverridesAsCorpus(t *testing.T, path string) {
	regraded, _ := regradedDB(t, path)
	dir := filepath.Join(t.TempDir(), "out")
	code, out, errOut := runCmd(t, "", "scoring", "export", "--db", path, "--out", dir)
	if code != 0 || !strings.HasPrefix(out, "wrote 1 overrides") {
		t.Fatalf("export: exit %d %q %q", code, out, errOut)
	}
	// The corpus's item fields, exactly (scoring/corpus_test.go's corpusItem).
	type item struct {
		ID, Question, Lang, Option, Text, Kind string
	}
	items := readLines[item](t, filepath.Join(dir, "items", "overrides.jsonl"))
	want := item{ID: "override-attempt-" + itoa64(regraded.ID), Question: "malformed-order-id", Lang: "pl", Option: "D",
		Text: regraded.Explanation, Kind: "override"}
	if len(items) != 1 || items[0] != want {
		t.Fatalf("items %+v, want only %+v", items, want)
	}
	type grade struct {
		ID       string   `json:"id"`
		Band     int      `json:"band"`
		Concepts []string `json:"concepts"`
		AutoBand int      `json:"auto_band"`
	}
	grades := readLines[grade](t, filepath.Join(dir, "grades", "g1.jsonl"))
	if len(grades) != 1 || grades[0].ID != want.ID || grades[0].Band != 1 || len(grades[0].Concepts) != 1 || grades[0].Concepts[0] != "a" {
		t.Fatalf("grades %+v", grades)
	}
	// A second run rewrites the files rather than appending.
	if code, _, _ := runCmd(t, "", "scoring", "export", "--db", path, "--out", dir); code != 0 {
		t.Fatal("second export failed")
	}
	if n := len(readLines[grade](t, filepath.Join(dir, "grades", "g1.jsonl"))); n != 1 {
		t.Errorf("after a second export: %d grades, want 1", n)
	}
}

func TestScoringExportErrors(t *testing.T) {
	if code, _, errOut := runCmd(t, "", "scoring"); code != 2 || !strings.Contains(errOut, "export") {
		t.Errorf("no subcommand: exit %d %q", code, errOut)
	}
	missing := filepath.Join(t.TempDir(), "none.db")
	if code, _, errOut := runCmd(t, "", "scoring", "export", "--db", missing); code != 1 || !strings.Contains(errOut, "--db") {
		t.Errorf("a missing database: exit %d %q", code, errOut)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("the export created the database it was pointed at")
	}
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
