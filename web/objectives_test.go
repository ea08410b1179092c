package web_test

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

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
	src, name := questions.Embedded()
	bank, problems := questions.Load(src, name)
	if len(problems) > 0 {
		t.Fatalf("problems:\n%s", problems.Error())
	}
	if tp := bank.Topics[0]; len(tp.Objectives) < 2 {
		t.Fatalf("topic %s has %d objectives; the grouping needs at least two to show", tp.ID, len(tp.Objectives))
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
			if !strings.Contains(tr.Text(), id) || !strings.Contains(tr.Text(), tp.Lessons[examsim.Lang(lang)].ObjectiveNames[id]) {
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
		if n, want := table.Find(`[data-testid=objective-row]`).Length(), len(bank.Topics[0].Objectives); n != want {
			t.Errorf("/me %s: %d objective rows, want %d (every concept is listed)", lang, n, want)
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
