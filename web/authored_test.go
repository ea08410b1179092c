package web_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/questions/exchange/exchangetest"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web/webtest"
	"github.com/google/go-cmp/cmp"
)

// authoredQuestion stores a complete teacher's question (every language, a
// rubric) for author and returns its editor's path.
func authoredQuestion(t *testing.T, app *webtest.App, author int64) string {
	t.Helper()
	q := exchangetest.Question()
	q.AuthorID = author
	q.Texts[examsim.English].Title = "authz-secret-question"
	if err := store.NewAuthoredQuestionService(app.DB).Create(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	return "/class/questions/" + q.ID
}

// editorForm is a new English question as the editor posts it.
func editorForm(stem string) url.Values {
	return url.Values{"lang": {"en"}, "id": {"rate-limited-lookup"}, "topic": {"structured-errors"},
		"concepts": {"is-retryable"}, "difficulty": {"medium"}, "answer": {"A"}, "lesson": {"is-retryable"},
		"title": {"A rate-limited lookup"}, "stem": {stem},
		"option-A": {"Wait the 30 seconds the tool asks for, then call again"}, "explanation-A": {"Right. A rate limit passes with time; waiting is what the tool asked for."},
		"option-B": {"Tell the user the lookup is broken"}, "explanation-B": {"Nothing is broken: the limit passes."},
		"option-C": {"Call again at once in a loop"}, "explanation-C": {"It hits the same limit again."},
		"action": {"save"}}
}

func TestAuthoredEditorSaveCheckAndWorkbench(t *testing.T) {
	a := &classApp{App: webtest.Start(t), t: t}
	ines := a.account("ines", examsim.RoleInstructor)
	if p := ines.get("/class/questions/new"); p.status != 200 || p.doc.Find("[data-testid=editor-form]").Length() != 1 {
		t.Fatalf("the editor: %d", p.status)
	}

	// A broken question is not saved: each problem beside its field, what
	// was typed kept.
	bad := editorForm("A tool answers `429` with Retry-After: 30. <script>alert(1)</script>")
	bad.Set("explanation-B", "")
	bad.Set("difficulty", "tricky")
	p := ines.post("/class/questions/new", "/class/questions", bad)
	if p.status != 422 {
		t.Fatalf("a broken question: %d, want 422", p.status)
	}
	got := map[string]string{}
	p.doc.Find("[data-testid^=error-]").Each(func(_ int, s *goquery.Selection) {
		got[s.AttrOr("data-testid", "")] = strings.TrimSpace(s.Text())
	})
	want := map[string]string{
		"error-option-B":   "option B has no explanation: add lines starting with > after its text",
		"error-difficulty": `difficulty "tricky" must be easy, medium or hard`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors beside fields (-want +got):\n%s", diff)
	}
	if v := p.doc.Find("[data-testid=field-stem]").Text(); !strings.Contains(v, "Retry-After: 30") {
		t.Errorf("the stem typed was lost: %q", v)
	}

	// Saved without a rubric: allowed.
	p = ines.post("/class/questions/new", "/class/questions", editorForm("A tool answers `429` with Retry-After: 30. <script>alert(1)</script>"))
	if p.status != http.StatusSeeOther || p.header.Get("Location") != "/class/questions/rate-limited-lookup?text=en&saved=1" {
		t.Fatalf("saving: %d %q %s", p.status, p.header.Get("Location"), p.text("[data-testid=form-error]"))
	}
	edit := "/class/questions/rate-limited-lookup"
	if p := ines.get(edit + "?lang=en&saved=1"); p.doc.Find("[data-testid=saved]").Length() != 1 {
		t.Errorf("no saved note after saving")
	}

	// The preview renders the stem through the bank's sanitiser, on a
	// phone and on the projector, and says the explanation is not scored.
	prev := ines.get(edit + "/preview")
	for _, where := range []string{"phone", "projector"} {
		stem := prev.doc.Find("[data-testid=preview-stem-" + where + "]")
		html, _ := stem.Html()
		if stem.Length() != 1 || strings.Contains(html, "<script") || !strings.Contains(html, "<code>429</code>") {
			t.Errorf("%s preview stem: %q", where, html)
		}
		if prev.doc.Find("[data-testid=preview-unscored-"+where+"]").Length() != 1 {
			t.Errorf("%s preview does not say the explanation is unscored", where)
		}
	}

	// Draft a rubric, then save it with three samples: the self-check runs
	// and each sample is scored with its evidence and confidence.
	form := editorForm("A tool answers `429` with Retry-After: 30.")
	form.Set("version", "1")
	form.Set("action", "draft")
	p = ines.post(edit, edit, form)
	if p.status != 200 || p.doc.Find("[data-testid=drafted]").Length() != 1 {
		t.Fatalf("drafting: %d", p.status)
	}
	form = url.Values{}
	p.doc.Find("[data-testid=editor-form] input, [data-testid=editor-form] textarea, [data-testid=editor-form] select").Each(func(_ int, s *goquery.Selection) {
		name, _ := s.Attr("name")
		switch {
		case name == "" || name == "_csrf":
		case goquery.NodeName(s) == "textarea":
			form.Set(name, s.Text())
		case goquery.NodeName(s) == "select":
			form.Set(name, s.Find("option[selected]").AttrOr("value", s.Find("option").First().AttrOr("value", "")))
		case s.AttrOr("type", "") == "radio" || s.AttrOr("type", "") == "checkbox":
			if _, on := s.Attr("checked"); on {
				form.Add(name, s.AttrOr("value", ""))
			}
		default:
			form.Set(name, s.AttrOr("value", ""))
		}
	})
	samples := []struct{ text, band string }{
		{"The tool said to wait 30 seconds: the rate limit passes, so wait and call again.", "3"},
		{"Call again at once, in a loop, until it works.", "0"},
		{"Not sure.", "0"},
	}
	for i, sm := range samples {
		form.Set("sample-text-"+string(rune('0'+i)), sm.text)
		form.Set("sample-band-"+string(rune('0'+i)), sm.band)
	}
	form.Set("action", "save")
	p = ines.post(edit, edit, form)
	if p.status != http.StatusSeeOther {
		t.Fatalf("saving the drafted rubric: %d %s", p.status, p.doc.Find("[data-testid^=error-]").Text())
	}
	p = ines.get(p.header.Get("Location"))
	if n := p.doc.Find("[data-testid=selfcheck-row]").Length(); n != 3 {
		t.Errorf("self-check rows: %d, want one per option (3)", n)
	}
	results := p.doc.Find("[data-testid=sample-result]")
	if results.Length() != 3 {
		t.Fatalf("scored samples: %d, want 3", results.Length())
	}
	if results.First().Find("[data-testid=sample-confidence-value]").Length() != 1 {
		t.Errorf("a scored sample shows no confidence")
	}
	if p.doc.Find("[data-testid=sample-learner-explanation] [data-testid=evidence]").Length() == 0 {
		t.Errorf("no evidence highlighted in any sample")
	}
	saved, err := store.NewAuthoredQuestionService(a.DB).Samples(context.Background(), "rate-limited-lookup")
	if err != nil || len(saved) != 3 {
		t.Errorf("saved samples: %d, %v; want 3", len(saved), err)
	}
}

func TestAuthoredVisibilityInTheApp(t *testing.T) {
	a := &classApp{App: webtest.Start(t), t: t}
	ines, ivan := a.account("ines", examsim.RoleInstructor), a.account("ivan", examsim.RoleInstructor)
	lena := a.account("lena", examsim.RoleLearner)
	var inesID int64
	for _, l := range mustAccounts(t, a) {
		if l.Username == "ines" {
			inesID = l.ID
		}
	}
	path := authoredQuestion(t, a.App, inesID)
	status := func(c *client, p string) int { return c.get(p).status }
	if s := status(ivan, path+"/preview"); s != 404 {
		t.Errorf("a colleague previews an unshared question: %d, want 404", s)
	}
	if strings.Contains(ivan.get("/class/questions").body, "authz-secret-question") {
		t.Errorf("a colleague's list shows an unshared question")
	}
	if p := ines.post("/class/questions", path+"/share", url.Values{"shared": {"on"}}); p.status != http.StatusSeeOther {
		t.Fatalf("sharing: %d", p.status)
	}
	if s := status(ivan, path+"/preview"); s != 200 {
		t.Errorf("a colleague previews a shared question: %d, want 200", s)
	}
	if s := status(ivan, path); s != 403 {
		t.Errorf("a colleague opens a shared question's editor: %d, want 403", s)
	}
	for _, p := range []string{"/class/questions", path, path + "/preview"} {
		if s := status(lena, p); s != 403 {
			t.Errorf("a learner on %s: %d, want 403", p, s)
		}
	}
}

func mustAccounts(t *testing.T, a *classApp) []*examsim.Learner {
	t.Helper()
	list, err := store.NewLearnerService(a.DB).ListAccounts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// upload posts a file to the import form as a browser does.
func upload(t *testing.T, c *client, name string, data []byte) *page {
	t.Helper()
	token := c.get("/class/questions").token(t)
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("_csrf", token)
	_ = mw.WriteField("lang", "en")
	_ = mw.WriteField("topic", "structured-errors")
	fw, _ := mw.CreateFormFile("file", name)
	_, _ = fw.Write(data)
	_ = mw.Close()
	req, _ := http.NewRequest("POST", c.base+"/class/questions/import", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return c.do(req)
}

func TestAuthoredImportAndExport(t *testing.T) {
	a := &classApp{App: webtest.Start(t), t: t}
	ines := a.account("ines", examsim.RoleInstructor)
	for _, f := range []string{"mixed.gift", "mixed.xml"} {
		data, err := os.ReadFile("../questions/exchange/testdata/" + f)
		if err != nil {
			t.Fatal(err)
		}
		p := upload(t, ines, f, data)
		if p.status != 200 {
			t.Fatalf("%s: %d", f, p.status)
		}
		var in, out []string
		p.doc.Find("[data-testid=report-item]").Each(func(_ int, s *goquery.Selection) {
			if s.AttrOr("data-imported", "") == "true" {
				in = append(in, s.AttrOr("data-where", ""))
			} else if s.Find("[data-testid=report-reason]").Text() != "" {
				out = append(out, s.AttrOr("data-where", ""))
			}
		})
		wantIn := map[string][]string{"mixed.gift": {"mixed.gift:4", "mixed.gift:10", "mixed.gift:17"}, "mixed.xml": {"mixed.xml:6"}}[f]
		if diff := cmp.Diff(wantIn, in); diff != "" {
			t.Errorf("%s imported (-want +got):\n%s", f, diff)
		}
		if len(out) == 0 {
			t.Errorf("%s: no item reported as left out with its reason", f)
		}
	}
	// A file past the size limit is refused before it is read.
	if p := upload(t, ines, "big.gift", bytes.Repeat([]byte("x"), 3<<20)); p.status != http.StatusRequestEntityTooLarge {
		t.Errorf("a 3 MB upload: %d, want 413", p.status)
	}
	if p := upload(t, ines, "notes.doc", []byte("x")); p.status != 422 || p.text("[data-testid=form-error]") == "" {
		t.Errorf("an unknown format: %d %q", p.status, p.text("[data-testid=form-error]"))
	}

	// Imported questions lack languages and rubrics: the export leaves them
	// out and the list says why; a complete one goes into the zip.
	var inesID int64
	for _, l := range mustAccounts(t, a) {
		if l.Username == "ines" {
			inesID = l.ID
		}
	}
	authoredQuestion(t, a.App, inesID)
	if n := ines.get("/class/questions").doc.Find("[data-testid=export-blocker]").Length(); n != 4 {
		t.Errorf("export blockers listed: %d, want the 4 imported questions", n)
	}
	p := ines.get("/class/questions/export.zip")
	if p.status != 200 || p.header.Get("Content-Type") != "application/zip" {
		t.Fatalf("export: %d %s", p.status, p.header.Get("Content-Type"))
	}
	zr, err := zip.NewReader(strings.NewReader(p.body), int64(len(p.body)))
	if err != nil {
		t.Fatal(err)
	}
	bank, problems := questions.Load(zr, "export.zip")
	if len(problems) > 0 {
		t.Fatalf("the exported zip does not load: %v", problems)
	}
	if _, ok := bank.Question("locked-calendar"); !ok {
		t.Errorf("the complete question is not in the zip")
	}
}

// A teacher's question joins a quiz beside a bank question: students play
// it live and their explanations are scored with its rubric; the CSV has
// it like any other. Another teacher's unshared question cannot be put in
// a quiz, and no learner opens a teacher's question by its id.
func TestAuthoredQuestionInALiveQuiz(t *testing.T) {
	a := newClassApp(t)
	ines := a.account("ines", examsim.RoleInstructor)
	a.account("ivan", examsim.RoleInstructor)
	ids := map[string]int64{}
	for _, l := range mustAccounts(t, a) {
		ids[l.Username] = l.ID
	}
	authoredQuestion(t, a.App, ids["ines"])
	private := exchangetest.Question()
	private.ID, private.AuthorID = "ivans-private-question", ids["ivan"]
	if err := store.NewAuthoredQuestionService(a.DB).Create(context.Background(), private); err != nil {
		t.Fatal(err)
	}
	// Ines's second question: English only, no rubric.
	plain := exchangetest.Question()
	plain.ID, plain.AuthorID, plain.Rubric = "english-only-unscored", ids["ines"], nil
	plain.Texts = map[examsim.Lang]*examsim.AuthoredText{examsim.English: plain.Texts[examsim.English]}
	if err := store.NewAuthoredQuestionService(a.DB).Create(context.Background(), plain); err != nil {
		t.Fatal(err)
	}

	builder := ines.get("/class/quizzes/new")
	if builder.doc.Find("[data-testid=pick-locked-calendar]").Length() != 1 {
		t.Errorf("the builder does not offer the teacher's own question")
	}
	if builder.doc.Find("[data-testid=pick-ivans-private-question]").Length() != 0 {
		t.Errorf("the builder offers another teacher's unshared question")
	}
	form := func(ids ...string) url.Values {
		return url.Values{"title": {"Mixed"}, "seconds": {"60"}, "scoring": {"correctness"}, "explanations": {"optional"},
			"action": {"save"}, "q": ids, "order-" + ids[0]: {"1"}, "order-" + ids[1]: {"2"}}
	}
	if p := ines.post("/class/quizzes/new", "/class/quizzes", form("ivans-private-question", "malformed-order-id")); p.status != 400 {
		t.Errorf("a quiz with another teacher's unshared question: %d, want 400", p.status)
	}
	p := ines.post("/class/quizzes/new", "/class/quizzes", form("locked-calendar", "english-only-unscored"))
	m := quizLocation.FindStringSubmatch(p.header.Get("Location"))
	if p.status != http.StatusSeeOther || m == nil {
		t.Fatalf("saving the mixed quiz: %d %s", p.status, p.text("[data-testid=form-error]"))
	}
	p = ines.post("/class/quizzes/"+m[1], "/class/quizzes/"+m[1]+"/sessions", url.Values{"mode": {"live"}})
	room := strings.TrimSuffix(p.header.Get("Location"), "/host")
	code := ines.get(room + "/host").text("[data-testid=join-code]")
	lena := a.join(code, "Lena", "en")
	piotr := a.join(code, "Piotr", "pl")
	control(t, ines, room, "start", -1)
	if r := answer(t, lena, room, 0, "A", "They lack access to that calendar: only the user can get access, so the agent should tell them."); r.status != 200 {
		t.Fatalf("answering the teacher's question: %d %s", r.status, r.body)
	}
	if s := lena.get("/practice/locked-calendar").status; s != 404 {
		t.Errorf("a learner opens a teacher's question by its id: %d, want 404", s)
	}
	// The English-only question without a rubric: a Polish student is told
	// it is in English, and that the explanation is not scored.
	control(t, ines, room, "reveal", 0)
	control(t, ines, room, "next", 0)
	play := piotr.get(room + "/play")
	if play.doc.Find("[data-testid=question-other-lang]").Length() != 1 || play.doc.Find("[data-testid=explanation-unscored]").Length() != 1 {
		t.Errorf("the Polish student is not told the question is in English and unscored: %q", play.text("[data-testid=question-title]"))
	}
	if r := answer(t, piotr, room, 1, "A", "Tylko użytkownik może dać dostęp."); r.status != 200 {
		t.Fatalf("answering the unscored question: %d %s", r.status, r.body)
	}

	rows, err := csv.NewReader(strings.NewReader(ines.get(room + "/results.csv").body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var row, unscoredRow []string
	for _, r := range rows {
		switch {
		case len(r) > 3 && r[3] == "locked-calendar" && r[0] == "Lena":
			row = r
		case len(r) > 3 && r[3] == "english-only-unscored" && r[0] == "Piotr":
			unscoredRow = r
		}
	}
	if len(unscoredRow) < 12 || unscoredRow[8] != "true" || unscoredRow[10] != "" || unscoredRow[11] != "" {
		t.Errorf("the CSV row of the unscored explanation: %q, want explained with no score or band", unscoredRow)
	}
	if len(row) < 12 || row[5] != "answered" || row[7] != "true" {
		t.Fatalf("the CSV row of the teacher's question: %q", row)
	}
	if band := row[11]; band != "2" && band != "3" {
		t.Errorf("the explanation scored band %q with the teacher's rubric, want 2 or 3 (row %q)", band, row)
	}
	// Item statistics count it as they count the bank's questions.
	items := ines.get("/class/items")
	if f := items.doc.Find(`[data-testid=item-row][data-question-id=locked-calendar] [data-testid=facility]`).Text(); f != "100% (n = 1)" {
		t.Errorf("item statistics of the teacher's question: facility %q, want 100%% (n = 1)", f)
	}
}

// TestAuthoredQuestionRegradedFromTheQueue: a student's explanation of a
// teacher's question in a live class, scored unsure by the teacher's
// rubric, waits in the teacher's grading queue under the question's own
// title; the teacher regrades it, and the class results and their CSV
// show the teacher's band.
func TestAuthoredQuestionRegradedFromTheQueue(t *testing.T) {
	a := newClassApp(t)
	ines := a.account("ines", examsim.RoleInstructor)
	ids := map[string]int64{}
	for _, l := range mustAccounts(t, a) {
		ids[l.Username] = l.ID
	}
	authoredQuestion(t, a.App, ids["ines"])
	const qid, title = "locked-calendar", "authz-secret-question"
	p := ines.post("/class/quizzes/new", "/class/quizzes", url.Values{"title": {"Mine"}, "seconds": {"60"},
		"scoring": {"correctness"}, "explanations": {"optional"}, "action": {"save"},
		"q": {qid, classQuestions[0]}, "order-" + qid: {"1"}, "order-" + classQuestions[0]: {"2"}})
	m := quizLocation.FindStringSubmatch(p.header.Get("Location"))
	if p.status != http.StatusSeeOther || m == nil {
		t.Fatalf("saving the quiz: %d %s", p.status, p.text("[data-testid=form-error]"))
	}
	p = ines.post("/class/quizzes/"+m[1], "/class/quizzes/"+m[1]+"/sessions", url.Values{"mode": {"live"}})
	room := strings.TrimSuffix(p.header.Get("Location"), "/host")
	lena := a.join(ines.get(room+"/host").text("[data-testid=join-code]"), "Lena", "en")
	control(t, ines, room, "start", -1)
	// Right, and the decisive concept is there, but hedged: the rubric
	// gives band 2 with confidence 0.40, under UnsureBelow.
	if r := answer(t, lena, room, 0, "A", "They lack access to that calendar: only the user can get access, so the agent should tell them."); r.status != 200 {
		t.Fatalf("answering the teacher's question: %d %s", r.status, r.body)
	}
	control(t, ines, room, "reveal", 0)
	control(t, ines, room, "end", -1)

	queue := ines.get("/class/grading?lang=en")
	row := queue.doc.Find(`[data-testid=grading-row][data-kind=answer]`).FilterFunction(func(_ int, s *goquery.Selection) bool {
		return strings.Contains(s.Text(), "Lena")
	})
	if row.Length() != 1 {
		t.Fatalf("Lena's explanation is not in the grading queue once (%d rows): %q", row.Length(), queue.text("main"))
	}
	if got := strings.TrimSpace(row.Find("[data-testid=grading-open]").Text()); got != title {
		t.Errorf("the queue names the question %q, want the teacher's title %q", got, title)
	}
	if row.AttrOr("data-unsure", "") != "true" {
		t.Errorf("the row is not marked unsure: the scorer's confidence changed, pick another explanation")
	}
	item := row.Find("[data-testid=grading-open]").AttrOr("href", "")
	if page := ines.get(item + "?lang=en"); page.status != http.StatusOK || !strings.Contains(page.text("main"), title) {
		t.Fatalf("the regrade page: %d %q", page.status, page.text("main"))
	}
	if p := ines.post(item, item, url.Values{"band": {"3"}}); p.status != http.StatusSeeOther {
		t.Fatalf("regrading: %d %s", p.status, p.text("[data-testid=form-error]"))
	}
	if n := ines.get("/class/grading?lang=en").doc.Find(`[a href="` + item + `"]`).Length(); n != 0 {
		t.Errorf("the regraded explanation is still in the queue")
	}

	rows, err := csv.NewReader(strings.NewReader(ines.get(room + "/results.csv").body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		if len(r) > 11 && r[0] == "Lena" && r[3] == qid {
			got = r
		}
	}
	if got == nil || got[11] != "3" {
		t.Errorf("the CSV row of the regraded explanation: %q (header %q), want band 3", got, rows[0])
	}
	results := ines.get(room + "/results?lang=en")
	if results.status != http.StatusOK {
		t.Fatalf("the results page: %d", results.status)
	}
	// The question's row: title, correct, answers, average band.
	first := results.doc.Find("[data-testid=results-questions] [data-testid=question-row]").First().Find("td")
	if first.Length() < 4 || !strings.Contains(first.Eq(0).Text(), title) || strings.TrimSpace(first.Eq(3).Text()) != "3.0" {
		t.Errorf("the results row of the teacher's question: %q, want its average band 3.0", first.Text())
	}
}
