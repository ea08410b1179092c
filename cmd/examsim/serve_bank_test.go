package main

import (
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/examsim/examsim/questions"
)

// bankCopy writes the embedded bank to a folder, with the first pattern of
// one question's English text replaced by pattern when it is not empty, and
// returns the folder.
func bankCopy(t *testing.T, pattern string) string {
	t.Helper()
	src, _ := questions.Embedded()
	dir := filepath.Join(t.TempDir(), "bank")
	if err := os.CopyFS(dir, src); err != nil {
		t.Fatal(err)
	}
	if pattern == "" {
		return dir
	}
	en, err := fs.Glob(src, "*/*/en.md")
	if err != nil || len(en) == 0 {
		t.Fatalf("no English question text in the bank: %v", err)
	}
	name := filepath.Join(dir, filepath.FromSlash(en[0]))
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	const first = "      patterns:\n        - \""
	i := strings.Index(string(data), first)
	if i < 0 {
		t.Fatalf("%s has no pattern", en[0])
	}
	i += len(first) - 1
	end := i + strings.IndexByte(string(data[i:]), '\n')
	data = append(append(data[:i:i], []byte(`"`+pattern+`"`)...), data[end:]...)
	if err := os.WriteFile(name, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestServeChecksTheRubricsOnceItListens: serve leaves the rubrics to be
// checked just after it listens; a bank whose only problem is a pattern
// that does not compile makes it stop with that problem at its path:line
// and exit 1, and a clean bank is served on.
func TestServeChecksTheRubricsOnceItListens(t *testing.T) {
	bin := buildExamsim(t)
	t.Run("a bad pattern", func(t *testing.T) {
		dir := bankCopy(t, "{neg} {!neg} retry")
		_, problems := questions.Load(os.DirFS(dir), dir)
		if len(problems) != 1 || path.Base(problems[0].Path) != "en.md" {
			t.Fatalf("Load finds %d problems, want the one pattern:\n%s", len(problems), problems.Error())
		}
		if _, atLoad := questions.LoadDeferred(os.DirFS(dir), dir); len(atLoad) > 0 {
			t.Fatalf("LoadDeferred finds the pattern at load, want it left to Complete:\n%s", atLoad.Error())
		}
		p := startServer(t, bin, filepath.Join(t.TempDir(), "examsim.db"), "--questions", dir)
		if code := p.wait(t, time.Minute); code != 1 {
			t.Fatalf("serve exited with %d, want 1:\n%s", code, p.out.String())
		}
		out := p.out.String()
		for _, want := range []string{problems[0].String() + "\n", "the question bank has 1 problems (listed above)", "examsim: stopped"} {
			if !strings.Contains(out, want) {
				t.Errorf("the output lacks %q:\n%s", want, out)
			}
		}
	})
	t.Run("a clean bank", func(t *testing.T) {
		dir := bankCopy(t, "")
		p := startServer(t, bin, filepath.Join(t.TempDir(), "examsim.db"), "--questions", dir)
		// The check takes milliseconds; a bank it failed would have ended
		// the process well within these seconds.
		for range 15 {
			select {
			case <-p.done:
				t.Fatalf("serve exited on a clean bank: %v\n%s", p.waited, p.out.String())
			case <-time.After(200 * time.Millisecond):
			}
			resp, err := http.Get(p.URL + "/healthz")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("/healthz: %s", resp.Status)
			}
		}
		if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
		if code := p.wait(t, time.Minute); code != 0 {
			t.Fatalf("serve exited with %d after an interrupt, want 0:\n%s", code, p.out.String())
		}
	})
}
