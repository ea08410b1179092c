package questions

import (
	"fmt"
	"path"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim/questions/banktest"
)

// brokenBank is a copy of the embedded bank grown to n questions, with
// every question after the first few broken in one of several ways, so
// that many loaders report problems on the same files and lines at once.
func brokenBank(t *testing.T, n int) fstest.MapFS {
	t.Helper()
	src, _ := Embedded()
	fsys, err := banktest.Replicate(src, n)
	if err != nil {
		t.Fatal(err)
	}
	breaks := []func(dir string){
		func(dir string) { delete(fsys, path.Join(dir, "th.md")) },
		func(dir string) {
			replaceIn(fsys, path.Join(dir, "question.yaml"), "difficulty: ", "difficulty: brutal-")
		},
		func(dir string) { replaceIn(fsys, path.Join(dir, "vi.md"), "title: ", "title: [unclosed ") },
		func(dir string) { replaceIn(fsys, path.Join(dir, "pl.md"), "rubric:\n", "colour: blue\nrubric:\n") },
		func(dir string) { replaceIn(fsys, path.Join(dir, "en.md"), "## B\n", "## Q\n") },
		func(dir string) {
			replaceIn(fsys, path.Join(dir, "th.md"), "patterns:\n", "patterns:\n        - \"{neg} {!neg} x\"\n")
		},
		func(dir string) { replaceIn(fsys, path.Join(dir, "question.yaml"), "answer: ", "answer: Z") },
		func(dir string) { fsys[path.Join(dir, "fr.md")] = &fstest.MapFile{Data: []byte("x")} },
		func(dir string) { replaceIn(fsys, path.Join(dir, "en.md"), "\n>", "\n\x00>") },
	}
	i := 0
	for name := range fsys {
		if path.Base(name) != "question.yaml" {
			continue
		}
		if i%(len(breaks)+1) != 0 { // every len(breaks)+1-th question stays clean
			breaks[i%len(breaks)](path.Dir(name))
		}
		i++
	}
	return fsys
}

func replaceIn(fsys fstest.MapFS, name, old, new string) {
	f := fsys[name]
	f.Data = []byte(strings.Replace(string(f.Data), old, new, 1))
}

// TestLoadIsDeterministicUnderConcurrency loads a broken bank one question
// at a time and on several cores, twice: the questions and every problem,
// in order, must be the same each time. Run it with -race.
func TestLoadIsDeterministicUnderConcurrency(t *testing.T) {
	fsys := brokenBank(t, 200)
	load := func(procs int) (ids []string, problems []string) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		bank, ps := Load(fsys, "bank")
		for _, q := range bank.Questions {
			ids = append(ids, fmt.Sprintf("%s %d languages", q.ID, len(q.Texts)))
		}
		for _, p := range ps {
			problems = append(problems, p.String())
		}
		return ids, problems
	}
	wantIDs, wantProblems := load(1)
	if len(wantProblems) < 150 {
		t.Fatalf("the broken bank has only %d problems; the test needs many to mean anything", len(wantProblems))
	}
	for run := range 2 {
		ids, problems := load(8)
		if diff := cmp.Diff(wantIDs, ids); diff != "" {
			t.Errorf("run %d: questions on 8 cores differ from one core (-one +eight):\n%s", run, diff)
		}
		if diff := cmp.Diff(wantProblems, problems); diff != "" {
			t.Errorf("run %d: problems on 8 cores differ from one core (-one +eight):\n%s", run, diff)
		}
	}
}
