package questions

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// bankMarkdown returns every Markdown text of the bank in fsys, read from
// its files apart from Load: lesson bodies, stems, options and
// explanations, as loadLesson and buildText pass them to rendering.
func bankMarkdown(t testing.TB, fsys fs.FS) []string {
	t.Helper()
	var out []string
	{
		err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || path.Ext(name) != ".md" {
				return err
			}
			data, err := fs.ReadFile(fsys, name)
			if err != nil {
				return err
			}
			var problems Problems
			f := &file{path: name, problems: &problems}
			md, ok := splitFrontMatter(f, data)
			if !ok {
				return fmt.Errorf("%s: %s", name, problems.Error())
			}
			if strings.HasPrefix(path.Base(name), "lesson.") {
				out = append(out, strings.Join(md.body, "\n"))
				return nil
			}
			stem, options := parseBody(f, md)
			out = append(out, stem)
			for _, o := range options {
				out = append(out, strings.Join(o.text, "\n"), strings.Join(o.explanation, "\n"))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// bankHTML renders every text of bank on first view, on eight goroutines
// at once, each starting at another text, and returns what the first
// goroutine got.
func bankHTML(bank *Bank) []string {
	texts := bank.texts()
	out := make([][]string, 8)
	var wg sync.WaitGroup
	for g := range out {
		wg.Go(func() {
			got := make([]string, len(texts))
			for k := range texts {
				i := (k + g*len(texts)/len(out)) % len(texts)
				got[i] = texts[i].HTML()
			}
			out[g] = got
		})
	}
	wg.Wait()
	return out[0]
}

// TestLazyRenderingEqualsEager: every Markdown text of the embedded bank
// and goodBank, rendered on first view by goroutines racing for it, is what
// rendering its source from the files at once gives, text for text.
func TestLazyRenderingEqualsEager(t *testing.T) {
	embedded, _ := Embedded()
	for name, fsys := range map[string]fs.FS{"embedded": embedded, "good": goodBank()} {
		t.Run(name, func(t *testing.T) {
			bank, problems := Load(fsys, name)
			if len(problems) > 0 {
				t.Fatal(problems.Error())
			}
			var eager []string
			for _, src := range bankMarkdown(t, fsys) {
				html, err := renderMarkdown(src)
				if err != nil {
					t.Fatalf("%q: %v", src, err)
				}
				eager = append(eager, html)
			}
			lazy := bankHTML(bank)
			slices.Sort(eager)
			slices.Sort(lazy)
			if diff := cmp.Diff(eager, lazy); diff != "" {
				t.Errorf("lazy rendering differs from eager (-eager +lazy):\n%s", diff)
			}
			if problems := bank.Render(); len(problems) > 0 {
				t.Errorf("Render reports problems in a bank that renders: %s", problems.Error())
			}
		})
	}
}
