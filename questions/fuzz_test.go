package questions

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/PuerkitoBio/goquery"

	"github.com/examsim/examsim"
)

// bankFiles are the files of goodBank a fuzzed input replaces, one at a
// time: each kind the loader parses.
var bankFiles = []string{"t/q1/en.md", "t/q1/question.yaml", "t/topic.yaml", "t/lesson.vi.md", "t/q1/th.md"}

// FuzzLoadQuestionFile feeds arbitrary bytes to the loader as one file of
// an otherwise good bank. Whatever the bytes, it must not panic; it must
// either load the bank or name problems, each with a file of the bank and
// a line; and what it loads must render no markup that could run: bank
// files come from authors, but they are shown to everyone. `go test` runs
// the seed corpus; `go test -fuzz FuzzLoadQuestionFile ./questions`
// searches further.
func FuzzLoadQuestionFile(f *testing.F) {
	good := goodBank()
	for i, name := range bankFiles {
		data := good[name].Data
		f.Add(uint8(i), data)
		f.Add(uint8(i), data[:len(data)/2])                                     // cut short
		f.Add(uint8(i), []byte(strings.ReplaceAll(string(data), "\n", "\r\n"))) // Windows line ends
	}
	for _, s := range []string{
		"", "---", "---\n---\n", "\x00\xff\xfe", "---\ntitle: [unclosed\n---\n", "---\ntitle: &a [*a, *a]\n---\n",
		"---\ntitle: x\n---\n## A\n\nText {onclick=alert(1)}\n\n> why\n",
		strings.Replace(string(good["t/q1/en.md"].Data), "The stem", "### Heading {style=\"display:none\" class=\"button\"}\n\nThe stem", 1),
		strings.Replace(string(good["t/q1/en.md"].Data), "The stem", "| a | b | c |\n|:--|--:|:-:|\n| 1 | 2 | 3 |\n\nThe stem", 1),
		strings.Replace(lessonText("vi"), "## Alpha {#alpha}", "## Alpha {#alpha style=\"color:red\" onclick=\"x()\"}", 1),
		"---\ntitle: x\n---\nStem <img src=x onerror=alert(1)> [x](javascript:alert(1))\n\n## A {onclick=\"alert(1)\" style=\"color:red\"}\n\nOne.\n\n> Why.\n\n## B\n\nTwo.\n\n> Why.\n",
		"id: q1\ntopic: t\nconcepts: [alpha]\ndifficulty: easy\nanswer: Z\nrubric: {version: -1}\n",
		"id: t\norder: 99999999999999999999\nconcepts: {a: b}\n",
		strings.Repeat("- ", 10000), strings.Repeat("[", 5000), strings.Repeat("a: &x\n  - *x\n", 200),
	} {
		for i := range bankFiles {
			f.Add(uint8(i), []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		fsys := goodBank()
		name := bankFiles[int(which)%len(bankFiles)]
		fsys[name] = &fstest.MapFile{Data: data}
		bank, problems := Load(fsys, "bank")
		for _, p := range problems {
			if !strings.HasPrefix(p.Path, "bank/") || p.Line < 0 || p.Msg == "" {
				t.Fatalf("problem without a place or a message: %+v", p)
			}
		}
		if len(problems) > 0 {
			return
		}
		if bank == nil {
			t.Fatal("no bank and no problems")
		}
		q, ok := bank.Question("q1")
		if !ok {
			t.Fatal("a bank without problems lost q1")
		}
		var html []string
		for _, l := range examsim.Langs {
			tx := q.Text(l)
			if tx == nil {
				t.Fatalf("no %s text", l)
			}
			html = append(html, tx.StemHTML())
			for _, o := range tx.Options {
				html = append(html, o.HTML(), o.ExplanationHTML())
			}
			if lesson := bank.Topics[0].Lessons[l]; lesson != nil {
				html = append(html, lesson.HTML())
			}
		}
		for _, h := range html {
			if problem := activeMarkup(h); problem != "" {
				t.Fatalf("rendered bank Markdown has %s: %s", problem, h)
			}
		}
	})
}

// activeMarkup names the first thing in an HTML fragment that could run
// script or style, or returns "".
func activeMarkup(fragment string) string {
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(fragment))
	if err != nil {
		return "unparseable HTML"
	}
	if doc.Find("script, style, iframe, object, embed").Length() > 0 {
		return "an active element"
	}
	found := ""
	doc.Find("*").EachWithBreak(func(_ int, s *goquery.Selection) bool {
		for _, a := range s.Nodes[0].Attr {
			k, v := strings.ToLower(a.Key), strings.ToLower(strings.TrimSpace(a.Val))
			if strings.HasPrefix(k, "on") || k == "style" || strings.HasPrefix(v, "javascript:") || strings.HasPrefix(v, "data:text/html") {
				found = "the attribute " + a.Key + "=" + a.Val
				return false
			}
		}
		return true
	})
	return found
}
