package questions_test

import (
	"os"
	"testing"

	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/questions/banktest"
)

// BenchmarkLoad1000 loads a bank of 1,000 questions (5,000 files: a
// question.yaml and four languages each, copied from the embedded bank under
// new ids) from disk, as examsim serve --questions DIR does: parsing,
// checking, compiling every rubric and rendering every Markdown text.
func BenchmarkLoad1000(b *testing.B) {
	src, _ := questions.Embedded()
	mem, err := banktest.Replicate(src, 1000)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	if err := banktest.WriteDir(dir, mem); err != nil {
		b.Fatal(err)
	}
	fsys := os.DirFS(dir)
	b.ReportAllocs()
	for b.Loop() {
		bank, problems := questions.Load(fsys, dir)
		if len(problems) > 0 {
			b.Fatalf("the replicated bank has problems:\n%s", problems.Error())
		}
		if len(bank.Questions) != 1000 {
			b.Fatalf("loaded %d questions, want 1000", len(bank.Questions))
		}
	}
}
