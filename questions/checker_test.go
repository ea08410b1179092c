package questions

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// problemStrings loads fsys and returns its problems as path:line: problem.
func problemStrings(fsys fs.FS, display string) []string {
	_, problems := Load(fsys, display)
	var got []string
	for _, p := range problems {
		got = append(got, p.String())
	}
	return got
}

// TestCheckerRejectsAbsurdNumbersAndBadBytes covers issue 11's bank checker
// faults that a file's content can cause: weights and penalties that would
// invert or swamp a score, bytes that are not UTF-8 text, and YAML errors
// reported on the line they are on.
func TestCheckerRejectsAbsurdNumbersAndBadBytes(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(fstest.MapFS)
		want   []string
	}{
		{"negative weight", func(f fstest.MapFS) {
			f["t/q1/question.yaml"].Data = []byte(strings.Replace(questionYAMLText, "      role: decisive\n", "      role: decisive\n      weight: -3\n", 1))
		}, []string{`bank/t/q1/question.yaml:11: rubric concept "key": weight -3 must be a whole number from 1 to 10`}},
		{"huge weight", func(f fstest.MapFS) {
			f["t/q1/question.yaml"].Data = []byte(strings.Replace(questionYAMLText, "      role: supporting\n", "      role: supporting\n      weight: 1000000\n", 1))
		}, []string{`bank/t/q1/question.yaml:13: rubric concept "why": weight 1000000 must be a whole number from 1 to 10`}},
		{"zero weight written out", func(f fstest.MapFS) {
			f["t/q1/question.yaml"].Data = []byte(strings.Replace(questionYAMLText, "      role: decisive\n", "      role: decisive\n      weight: 0\n", 1))
		}, []string{`bank/t/q1/question.yaml:11: rubric concept "key": weight 0 must be a whole number from 1 to 10`}},
		{"negative penalty", func(f fstest.MapFS) {
			f["t/q1/question.yaml"].Data = []byte(questionYAMLText + "      penalty: -40\n")
		}, []string{`bank/t/q1/question.yaml:15: rubric misconception "wrong": penalty -40 must be a whole number from 1 to 100`}},
		{"penalty over 100", func(f fstest.MapFS) {
			f["t/q1/question.yaml"].Data = []byte(questionYAMLText + "      penalty: 250\n")
		}, []string{`bank/t/q1/question.yaml:15: rubric misconception "wrong": penalty 250 must be a whole number from 1 to 100`}},
		{"invalid UTF-8 in a Markdown body", func(f fstest.MapFS) {
			f["t/q1/pl.md"].Data = []byte(strings.Replace(textFile("pl"), "First.", "First \xc3\x28 byte.", 1))
		}, []string{`bank/t/q1/pl.md:26: the line is not valid UTF-8: save the file as UTF-8`}},
		{"invalid UTF-8 in a lesson", func(f fstest.MapFS) {
			f["t/lesson.th.md"].Data = []byte(strings.Replace(lessonText("th"), "Text.", "Text \xff.", 1))
		}, []string{`bank/t/lesson.th.md:10: the line is not valid UTF-8: save the file as UTF-8`}},
		{"NUL byte on line 4", func(f fstest.MapFS) {
			f["t/q1/question.yaml"].Data = []byte(strings.Replace(questionYAMLText, "difficulty: easy", "difficulty: ea\x00sy", 1))
		}, []string{`bank/t/q1/question.yaml:4: the line holds the control character U+0000: remove it`}},
		{"YAML syntax error on line 3", func(f fstest.MapFS) {
			f["t/q1/question.yaml"].Data = []byte(strings.Replace(questionYAMLText, "concepts: [alpha]", "concepts: [alpha", 1))
		}, []string{`bank/t/q1/question.yaml:3: did not find expected ',' or ']'`}},
		{"YAML syntax error on line 1", func(f fstest.MapFS) {
			f["t/q1/question.yaml"].Data = []byte(strings.Replace(questionYAMLText, "id: q1", "id: [q1", 1))
		}, []string{`bank/t/q1/question.yaml:1: did not find expected ',' or ']'`}},
		{"YAML scanner error on line 4 of front matter", func(f fstest.MapFS) {
			f["t/q1/en.md"].Data = []byte(strings.Replace(textFile("en"), "    key:\n", "    key: x: y\n", 1))
		}, []string{`bank/t/q1/en.md:5: mapping values are not allowed in this context`}},
		{"YAML block mapping broken below where it began", func(f fstest.MapFS) {
			f["t/q1/question.yaml"].Data = []byte(strings.Replace(questionYAMLText, "    - id: why\n", "  - id: why\n", 1))
		}, []string{`bank/t/q1/question.yaml:11: did not find expected key`}},
		{"named pipe in place of a language file", func(f fstest.MapFS) {
			f["t/q1/vi.md"].Mode = fs.ModeNamedPipe
		}, []string{`bank/t/q1/question.yaml:1: vi.md is not a regular file (a named pipe, device or socket): replace it with a UTF-8 text file`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := goodBank()
			tt.break_(fsys)
			if diff := cmp.Diff(tt.want, problemStrings(fsys, "bank")); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// writeBank copies a bank to a temporary folder, for what only a real file
// system has: symbolic links and named pipes.
func writeBank(t *testing.T, fsys fstest.MapFS) string {
	t.Helper()
	dir := t.TempDir()
	for name, f := range fsys {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestSymlinkedQuestionFolderIsReported: a linked folder would load from a
// folder but vanish from the embedded bank (go:embed skips links), so the
// checker names it instead of silently dropping it.
func TestSymlinkedQuestionFolderIsReported(t *testing.T) {
	dir := writeBank(t, goodBank())
	elsewhere := filepath.Join(t.TempDir(), "q1")
	if err := os.Rename(filepath.Join(dir, "t", "q1"), elsewhere); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(dir, "t", "q1")); err != nil {
		t.Fatal(err)
	}
	got := problemStrings(os.DirFS(filepath.Join(dir)), "bank")
	want := []string{"bank/t/q1:1: is a symbolic link: the bank does not follow links (go:embed would drop it); put the folder or file itself here instead"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

// TestNamedPipeIsNeverOpened puts a real FIFO in place of a language file.
// Opening it for reading would block until a writer comes; the test's own
// writer tells whether the loader opened it, without any timing.
func TestNamedPipeIsNeverOpened(t *testing.T) {
	dir := writeBank(t, goodBank())
	fifo := filepath.Join(dir, "t", "q1", "th.md")
	if err := os.Remove(fifo); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	opened := make(chan bool, 1)
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // returns once someone opens the read end
		if err == nil {
			w.Close()
		}
		opened <- err == nil
	}()
	got := problemStrings(os.DirFS(dir), "bank")
	// Open the read end ourselves, so the writer returns if the loader never did.
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	want := []string{"bank/t/q1/question.yaml:1: th.md is not a regular file (a named pipe, device or socket): replace it with a UTF-8 text file"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	// The loader ran to the end; if it had opened the pipe, our writer got
	// in first and closed it, and the loader read an empty file.
	if strings.Contains(strings.Join(got, "\n"), "front matter") {
		t.Error("the loader opened the named pipe")
	}
}

// TestIrregularLessonIsReportedOnce: a named pipe in place of a lesson is
// one problem, at the topic that needs the lesson.
func TestIrregularLessonIsReportedOnce(t *testing.T) {
	dir := writeBank(t, goodBank())
	lesson := filepath.Join(dir, "t", "lesson.pl.md")
	if err := os.Remove(lesson); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(lesson, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	want := []string{"bank/t/topic.yaml:1: lesson.pl.md is not a regular file (a named pipe, device or socket): replace it with a UTF-8 text file"}
	if diff := cmp.Diff(want, problemStrings(os.DirFS(dir), "bank")); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}
