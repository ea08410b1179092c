package web_test

import (
	"io/fs"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/PuerkitoBio/goquery"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/web/webtest"
)

// bankWithObjectives is the embedded bank with its topic's concepts split
// between two objectives, 9.1.1 (the first half) and 9.1.2, titled in
// every language.
func bankWithObjectives(t *testing.T) *questions.Bank {
	t.Helper()
	src, _ := questions.Embedded()
	fsys := fstest.MapFS{}
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(src, p)
		fsys[p] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	embedded, _ := questions.Load(src, "bank")
	tp := embedded.Topics[0]
	half := len(tp.Concepts) / 2
	topic := fsys[tp.ID+"/topic.yaml"]
	topic.Data = append(topic.Data, []byte("objectives:\n  - id: \"9.1.1\"\n    concepts: ["+strings.Join(tp.Concepts[:half], ", ")+
		"]\n  - id: \"9.1.2\"\n    concepts: ["+strings.Join(tp.Concepts[half:], ", ")+"]\n")...)
	for _, l := range examsim.Langs {
		f := fsys[tp.ID+"/lesson."+string(l)+".md"]
		f.Data = []byte(strings.Replace(string(f.Data), "---\n", "---\nobjectives:\n  \"9.1.1\": First objective "+string(l)+"\n  \"9.1.2\": Second objective "+string(l)+"\n", 1))
	}
	bank, problems := questions.Load(fsys, "bank")
	if len(problems) > 0 {
		t.Fatalf("problems:\n%s", problems.Error())
	}
	return bank
}

// checkGrouped checks that a breakdown table has a heading row per
// objective, titled in lang, each followed by its own concepts only.
func checkGrouped(t *testing.T, where string, table *goquery.Selection, bank *questions.Bank, lang string) {
	t.Helper()
	tp := bank.Topics[0]
	heads := table.Find(`[data-testid=objective-row]`)
	if heads.Length() == 0 {
		t.Fatalf("%s: no objective rows", where)
	}
	current := ""
	table.Find("tbody tr").Each(func(_ int, tr *goquery.Selection) {
		if id, ok := tr.Attr("data-objective"); ok {
			current = id
			if !strings.Contains(tr.Text(), id) || !strings.Contains(tr.Text(), "objective "+lang) {
				t.Errorf("%s: objective heading %q is not titled in %s", where, squash(tr.Text()), lang)
			}
			return
		}
		concept := tr.AttrOr("data-concept", "")
		name := squash(tr.Find("th").Text())
		for _, c := range tp.Concepts {
			if concept == c || (concept == "" && name == tp.Lessons[examsim.Lang(lang)].ConceptNames[c]) {
				if got := tp.ObjectiveOf(c); got != current {
					t.Errorf("%s: concept %s (objective %s) is listed under %q", where, c, got, current)
				}
				return
			}
		}
		t.Errorf("%s: row %q is no concept of the bank", where, name)
	})
}

func TestMeAndExamResultsGroupByObjective(t *testing.T) {
	bank := bankWithObjectives(t)
	app := webtest.Start(t, webtest.WithBank(bank))
	c := newClient(t, app.Server)
	answerAll(t, c)
	for _, lang := range []string{"en", "vi", "pl", "th"} {
		p := c.get("/me?lang=" + lang)
		table := p.doc.Find(`[data-testid=table-accuracy]`)
		checkGrouped(t, "/me "+lang, table, bank, lang)
		if n := table.Find(`[data-testid=objective-row]`).Length(); n != 2 {
			t.Errorf("/me %s: %d objective rows, want 2 (every concept is listed)", lang, n)
		}
	}

	base := startExam(t, c, url.Values{"count": {"10"}})
	for n := 1; n <= 10; n++ {
		path := base + "/q/" + strconv.Itoa(n)
		c.post(path, path, url.Values{"choice": {"A"}, "go": {"next"}})
	}
	if res := c.post(base+"/review", base+"/submit", url.Values{}); res.status != 303 {
		t.Fatalf("submit: %d", res.status)
	}
	for _, lang := range []string{"en", "vi", "pl", "th"} {
		p := c.get(base + "/results?lang=" + lang)
		checkGrouped(t, "results "+lang, p.doc.Find(`[data-testid=concept-breakdown]`), bank, lang)
	}
}
