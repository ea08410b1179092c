package banktest_test

import (
	"os"
	"testing"

	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/questions/banktest"
)

// A replicated bank is a clean bank of exactly the size asked, with every
// question under a new id, on disk as in memory.
func TestReplicateMakesACleanBank(t *testing.T) {
	src, _ := questions.Embedded()
	seed, problems := questions.Load(src, "embedded")
	if len(problems) > 0 {
		t.Fatal(problems.Error())
	}
	n := len(seed.Questions) + 7 // wraps around the seed questions
	mem, err := banktest.Replicate(src, n)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := banktest.WriteDir(dir, mem); err != nil {
		t.Fatal(err)
	}
	bank, problems := questions.Load(mem, "replicated")
	if len(problems) > 0 {
		t.Fatalf("the replicated bank has problems:\n%s", problems.Error())
	}
	if len(bank.Questions) != n {
		t.Fatalf("%d questions, want %d", len(bank.Questions), n)
	}
	for _, q := range bank.Questions {
		if _, clash := seed.Question(q.ID); clash {
			t.Errorf("question %s kept an id of the seed bank", q.ID)
		}
	}
	fromDisk, problems := questions.Load(os.DirFS(dir), dir)
	if len(problems) > 0 || len(fromDisk.Questions) != n {
		t.Fatalf("from disk: %d questions, problems:\n%s", len(fromDisk.Questions), problems.Error())
	}
}
