package questions

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
	"testing"
)

// bankMarkdown returns every Markdown text the loader renders from the
// embedded bank and goodBank: lesson bodies, stems, options and
// explanations, as loadLesson and buildText pass them.
func bankMarkdown(t testing.TB) []string {
	t.Helper()
	var out []string
	add := func(fsys fs.FS) {
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
	src, _ := Embedded()
	add(src)
	add(goodBank())
	return out
}

// checkPlainParagraphs fails when renderPlainParagraphs renders src other
// than goldmark does, and reports whether it rendered it.
func checkPlainParagraphs(t *testing.T, src string) bool {
	t.Helper()
	got, ok := renderPlainParagraphs(src)
	if !ok {
		return false
	}
	want, err := renderGoldmark(src)
	if err != nil {
		t.Fatalf("%q: goldmark: %v", src, err)
	}
	if got != want {
		t.Errorf("%q:\nplain:    %q\ngoldmark: %q", src, got, want)
	}
	return true
}

// TestPlainParagraphsRenderAsGoldmark holds the plain renderer to goldmark
// on every text of the bank and on the cases below, and checks that it
// does take most of the bank's option texts and explanations.
func TestPlainParagraphsRenderAsGoldmark(t *testing.T) {
	texts := bankMarkdown(t)
	plain := 0
	for _, src := range texts {
		if checkPlainParagraphs(t, src) {
			plain++
		}
	}
	t.Logf("the plain renderer took %d of %d bank texts", plain, len(texts))
	if plain < len(texts)/3 {
		t.Errorf("the plain renderer took only %d of %d bank texts", plain, len(texts))
	}
	for _, src := range plainParagraphCases {
		if !checkPlainParagraphs(t, src) {
			t.Errorf("%q: left to goldmark; it is plain paragraphs", src)
		}
	}
	for _, src := range []string{
		"*a*", "a *b*", "a ``b``", "`0``0`", "a `b", "a ` b `", "a `b\nc`", "a ` `", "a ``", "a [b](c)", "a <b>", "a &amp; b", "a\\b", "a ~~b~~", "| a | b |\n|---|---|",
		"# a", "- a", "1. a", "> a", "    a", " a", "a  \nb", "a \nb", "```\na\n```", "a\n===", "a\n---", "a\tb",
		"a {#b}", "a!", "<p>", "a\x00b", "a_b", "1,200 kg",
	} {
		if _, ok := renderPlainParagraphs(src); ok {
			t.Errorf("%q: rendered by the plain renderer; it must be left to goldmark", src)
		}
	}
}

// plainParagraphCases are texts of plain paragraphs, each compared with
// goldmark by TestPlainParagraphsRenderAsGoldmark and seeding the fuzzer.
var plainParagraphCases = []string{
	"", "\n\n", "Right.", "Right. The message is actionable.\nIt says what to do.",
	"First paragraph.\n\nSecond one,\nwith two lines.\n\n\n", "\n  \nA \"quoted\" word, it's fine: 1 > 0 #1 (yes).",
	"Tiếng Việt có dấu: thử lại.", "ระบบตอบว่าไม่พบข้อมูล", "Zażółć gęślą jaźń — “cudzysłów” «x».",
	"(a parenthesis) and 'single quotes'", "\"Pallet weight 1,200 kg exceeds the limit.\nSplit the load.\"",
	"a\n   \nb", "Ends with a colon:", "https://example.org/a?b=c#d",
	"a `b`", "Set `isError: true` and `a<b & \"c\" > d`.", "`code` first\nand `more` `twice`",
	"a `*not emphasis*` b `[x](y)` `\\` `<script>`", "Thai `ไม่พบ` และ `x`",
}

// FuzzPlainParagraphs: whatever the text, the plain renderer renders it as
// goldmark does, or leaves it to goldmark.
func FuzzPlainParagraphs(f *testing.F) {
	for _, src := range bankMarkdown(f) {
		f.Add(src)
	}
	for _, src := range plainParagraphCases {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		checkPlainParagraphs(t, src)
	})
}
