package web

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/questions/exchange"
)

// Limits of the editor form: option slots (the bank's maximum), blank
// rubric rows and blank sample rows offered beside the filled ones.
const (
	editorOptions   = exchange.MaxOptions
	blankRules      = 2
	blankSamples    = 3
	maxSamples      = 30
	importBodyBytes = exchange.MaxImportBytes + 64<<10 // the file and the form around it
)

// authoredImportPath is the one route with a body limit of its own.
const authoredImportPath = "/class/questions/import"

// bankFiles is the folder the bank was loaded from.
func (s *Server) bankFiles() fs.FS {
	if s.BankFiles != nil {
		return s.BankFiles
	}
	fsys, _ := questions.Embedded()
	return fsys
}

func (s *Server) needAuthored() error {
	if s.Authored == nil {
		return examsim.E(examsim.ENOTFOUND, "error.page_not_found")
	}
	return nil
}

// authoredTeacher is the signed-in instructor or admin, when teacher
// questions are stored here at all.
func (s *Server) authoredTeacher(c echo.Context) (*examsim.Learner, error) {
	l, err := s.teacher(c)
	if err != nil {
		return nil, err
	}
	return l, s.needAuthored()
}

// handleAuthoredList lists the teacher's questions and their colleagues'
// shared ones, with the import form and the export link.
func (s *Server) handleAuthoredList(c echo.Context) error {
	l, err := s.authoredTeacher(c)
	if err != nil {
		return err
	}
	return s.renderAuthoredList(c, l, http.StatusOK, nil)
}

func (s *Server) renderAuthoredList(c echo.Context, l *examsim.Learner, status int, imp *importView) error {
	list, err := s.Authored.Visible(c.Request().Context(), l)
	if err != nil {
		return err
	}
	v := authoredListView{Me: l.ID, Topics: s.Bank.Topics, Import: imp}
	for _, q := range list {
		row := authoredRow{Q: q}
		if q.AuthorID == l.ID {
			row.Export = exportBlocker(q)
		}
		v.Rows = append(v.Rows, row)
	}
	return Render(c, status, AuthoredListPage(v))
}

// exportBlocker is why a question cannot join the bank yet, or nil.
func exportBlocker(q *examsim.AuthoredQuestion) *exchange.Note {
	switch {
	case len(q.Langs()) < len(examsim.Langs):
		return &exchange.Note{ID: "export_langs", Args: map[string]any{"Langs": langNames(q.Langs())}}
	case q.Rubric == nil:
		return &exchange.Note{ID: "export_rubric"}
	}
	return nil
}

func langNames(ls []examsim.Lang) string {
	var s []string
	for _, l := range ls {
		s = append(s, string(l))
	}
	return strings.Join(s, " ")
}

func (s *Server) handleAuthoredNew(c echo.Context) error {
	if _, err := s.authoredTeacher(c); err != nil {
		return err
	}
	f := editorForm{New: true, Lang: s.editorLang(c, nil), Difficulty: string(questions.Medium)}
	if len(s.Bank.Topics) > 0 {
		f.Topic = s.Bank.Topics[0].ID
	}
	return s.renderEditor(c, http.StatusOK, &f)
}

// editorLang is the language of the question's text the editor works on:
// ?text= (a link), the form's lang (a save), else the page's. It is not
// ?lang=, which switches and keeps the interface language: a Polish teacher
// editing the English text stays in a Polish interface.
func (s *Server) editorLang(c echo.Context, q *examsim.AuthoredQuestion) examsim.Lang {
	if l, ok := examsim.ParseLang(c.QueryParam("text")); ok {
		return l
	}
	if l, ok := examsim.ParseLang(c.Request().PostFormValue("lang")); ok {
		return l
	}
	if q != nil && q.Texts[pageOf(c).Lang] == nil && len(q.Langs()) > 0 {
		return q.Langs()[0]
	}
	return pageOf(c).Lang
}

// ownAuthored returns the question in the URL when the teacher may edit it:
// their own. A colleague's shared question is theirs to preview only.
func (s *Server) ownAuthored(c echo.Context) (*examsim.Learner, *examsim.AuthoredQuestion, error) {
	l, err := s.authoredTeacher(c)
	if err != nil {
		return nil, nil, err
	}
	q, err := s.Authored.Get(c.Request().Context(), l, c.Param("id"))
	if err != nil {
		return nil, nil, err
	}
	if q.AuthorID != l.ID {
		return nil, nil, examsim.E(examsim.EFORBIDDEN, "authored.error_not_author")
	}
	return l, q, nil
}

func (s *Server) handleAuthoredEdit(c echo.Context) error {
	_, q, err := s.ownAuthored(c)
	if err != nil {
		return err
	}
	samples, err := s.Authored.Samples(c.Request().Context(), q.ID)
	if err != nil {
		return err
	}
	f := editorFormOf(q, s.editorLang(c, q), samples)
	f.Saved = c.QueryParam("saved") != ""
	if f.Saved {
		s.checkEditor(pageOf(c), &f, q, samples)
	}
	return s.renderEditor(c, http.StatusOK, &f)
}

func (s *Server) handleAuthoredCreate(c echo.Context) error {
	l, err := s.authoredTeacher(c)
	if err != nil {
		return err
	}
	return s.saveAuthored(c, l, &examsim.AuthoredQuestion{AuthorID: l.ID, Texts: map[examsim.Lang]*examsim.AuthoredText{}}, nil)
}

func (s *Server) handleAuthoredSave(c echo.Context) error {
	l, q, err := s.ownAuthored(c)
	if err != nil {
		return err
	}
	samples, err := s.Authored.Samples(c.Request().Context(), q.ID)
	if err != nil {
		return err
	}
	return s.saveAuthored(c, l, q, samples)
}

// saveAuthored reads the editor into q (nil ID: a new question) and, for
// action "save", checks it with the bank's loader and stores it; "draft"
// fills the rubric from the question, "score" scores the samples, and both
// show the form again unsaved. Problems come back beside their fields,
// with everything typed kept.
func (s *Server) saveAuthored(c echo.Context, l *examsim.Learner, stored *examsim.AuthoredQuestion, storedSamples []examsim.RubricSample) error {
	f := readEditorForm(c, stored)
	q := f.apply(stored)
	ctx := c.Request().Context()
	switch c.FormValue("action") {
	case "draft":
		draft := exchange.DraftRubric(q)
		f.Rules = rulesOf(draft, f.Lang)
		f.Drafted = true
		s.checkEditor(pageOf(c), &f, f.apply(stored), nil)
		return s.renderEditor(c, http.StatusOK, &f)
	case "score":
		s.checkEditor(pageOf(c), &f, q, nil)
		return s.renderEditor(c, http.StatusOK, &f)
	}
	if f.New {
		if _, taken := s.Bank.Question(q.ID); taken {
			f.addError(exchange.FieldID, pageOf(c).Catalog.T(pageOf(c).Lang, "authored.error_id_taken", "ID", q.ID))
		}
	}
	if blocking := s.checkEditor(pageOf(c), &f, q, nil); blocking || len(f.Errors) > 0 {
		return s.renderEditor(c, http.StatusUnprocessableEntity, &f)
	}
	var err error
	if f.New {
		err = s.Authored.Create(ctx, q)
	} else {
		err = s.Authored.Update(ctx, l.ID, q)
	}
	if err != nil {
		return formError(c, err, func(status int, reason string) error {
			if examsim.ErrorCode(err) == examsim.ECONFLICT && f.New {
				f.addError(exchange.FieldID, reason)
			} else {
				f.General = append(f.General, reason)
			}
			return s.renderEditor(c, status, &f)
		})
	}
	if err := s.Authored.SetSamples(ctx, l.ID, q.ID, mergeSamples(storedSamples, f.Lang, f.samples())); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/class/questions/"+q.ID+"?text="+string(f.Lang)+"&saved=1")
}

// mergeSamples keeps the samples of other languages and replaces lang's.
func mergeSamples(stored []examsim.RubricSample, lang examsim.Lang, mine []examsim.RubricSample) []examsim.RubricSample {
	var out []examsim.RubricSample
	for _, sm := range stored {
		if sm.Lang != lang {
			out = append(out, sm)
		}
	}
	return append(out, mine...)
}

// checkEditor runs the bank's checks on q and places each problem beside
// its field; it scores the samples typed in the form (or, after a save,
// samples) and runs the self-consistency check. It reports whether a
// problem blocks saving: one in question.yaml or in the language being
// edited. Problems in another language are listed and do not block.
func (s *Server) checkEditor(ui *Page, f *editorForm, q *examsim.AuthoredQuestion, samples []examsim.RubricSample) bool {
	bankFS := s.bankFiles()
	compiled, problems := exchange.Compile(bankFS, q)
	blocking := false
	for _, p := range problems {
		lang := strings.TrimSuffix(p.Path, ".md")
		if p.Path != "question.yaml" && lang != string(f.Lang) {
			f.Elsewhere = append(f.Elsewhere, ui.problem(p))
			continue
		}
		blocking = true
		f.addError(exchange.FieldOf(q, p), ui.message(p.Message))
	}
	if compiled == nil {
		return true
	}
	f.Cues = s.cueWarnings(ui, compiled, f.Lang)
	if q.Rubric != nil && !blocking {
		f.SelfCheck = compiled.SelfCheck(f.Lang)
		f.Checked = true
	}
	tx := compiled.Text(f.Lang)
	if samples != nil {
		f.Samples = nil
		for _, sm := range samples {
			if sm.Lang == f.Lang {
				f.Samples = append(f.Samples, sampleField{Text: sm.Text, Expected: sm.Expected})
			}
		}
	}
	for i := range f.Samples {
		sm := &f.Samples[i]
		if strings.TrimSpace(sm.Text) == "" || tx == nil || tx.Rubric() == nil || len(tx.Rubric().Concepts) == 0 || blocking {
			continue
		}
		res, err := tx.Rubric().Score(sm.Text)
		if err != nil {
			sm.Error = err.Error()
			if e := (*examsim.Error)(nil); errors.As(err, &e) {
				sm.Error = ui.errorText(e)
			}
			continue
		}
		se := scoredExplanation{Lang: f.Lang, Explanation: sm.Text, Verdict: res.Verdict(q.Version)}
		fb := buildFeedback(tx, se)
		fb.TestID, fb.ID = "sample-", "sample-"+strconv.Itoa(i)
		sm.Result = &fb
	}
	return blocking
}

// cueWarnings are the cue check's findings on the question, in the
// language being edited first, then its others, said in the UI language.
// They warn and never block: a cue is about quality, and a teacher must be
// able to save a draft and come back to it.
func (s *Server) cueWarnings(ui *Page, q *questions.Question, editing examsim.Lang) []string {
	langs := []examsim.Lang{editing}
	for _, l := range examsim.Langs {
		if l != editing {
			langs = append(langs, l)
		}
	}
	var out []string
	for _, l := range langs {
		for _, m := range questions.QuestionCues(s.Bank, q, l) {
			out = append(out, ui.message(m))
		}
	}
	return out
}

func (s *Server) renderEditor(c echo.Context, status int, f *editorForm) error {
	for len(f.Options) < editorOptions {
		f.Options = append(f.Options, optionField{Letter: string(rune('A' + len(f.Options)))}) // #nosec G115 -- at most six
	}
	f.Rules = append(f.Rules, make([]ruleField, blankRules)...)
	if len(f.Samples) < maxSamples {
		f.Samples = append(f.Samples, make([]sampleField, min(blankSamples, maxSamples-len(f.Samples)))...)
	}
	tp, _ := s.Bank.Topic(f.Topic)
	return Render(c, status, AuthoredEditorPage(editorView{Form: f, Topics: s.Bank.Topics, Topic: tp}))
}

// handleAuthoredPreview shows the question as a learner sees it in
// practice, on a phone (360×640) and on the projector, rendered by the
// bank's own sanitising path.
func (s *Server) handleAuthoredPreview(c echo.Context) error {
	l, err := s.authoredTeacher(c)
	if err != nil {
		return err
	}
	q, err := s.Authored.Get(c.Request().Context(), l, c.Param("id"))
	if err != nil {
		return err
	}
	bankFS := s.bankFiles()
	compiled, problems := exchange.Compile(bankFS, q)
	v := previewView{Q: q, Own: q.AuthorID == l.ID, Lang: s.editorLang(c, q), Problems: problems}
	if compiled != nil {
		v.Compiled = compiled
		v.Text = compiled.Text(v.Lang)
	}
	return Render(c, http.StatusOK, AuthoredPreviewPage(v))
}

// handleAuthoredImport reads an uploaded GIFT, Moodle XML, CSV or XLSX file
// into the teacher's questions and shows the report: what came in, what was
// left out and why.
func (s *Server) handleAuthoredImport(c echo.Context) error {
	l, err := s.authoredTeacher(c)
	if err != nil {
		return err
	}
	imp := &importView{}
	fh, err := c.FormFile("file")
	if err != nil {
		imp.Error = pageOf(c).Catalog.T(pageOf(c).Lang, "authored.import_no_file")
		return s.renderAuthoredList(c, l, http.StatusUnprocessableEntity, imp)
	}
	file, err := fh.Open()
	if err != nil {
		return err
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, exchange.MaxImportBytes+1))
	if err != nil {
		return err
	}
	lang, ok := examsim.ParseLang(c.FormValue("lang"))
	if !ok {
		lang = pageOf(c).Lang
	}
	topic, ok := s.Bank.Topic(c.FormValue("topic"))
	if !ok {
		topic = s.Bank.Topics[0]
	}
	opts := exchange.Options{File: path.Base(fh.Filename), Lang: lang, Topic: topic.ID, Concepts: topic.Concepts}
	var rep *exchange.Report
	switch strings.ToLower(path.Ext(fh.Filename)) {
	case ".xml":
		rep = exchange.MoodleXML(data, opts)
	case ".csv":
		rep = exchange.CSV(data, opts)
	case ".xlsx":
		rep = exchange.XLSX(data, opts)
	case ".gift", ".txt":
		rep = exchange.GIFT(data, opts)
	default:
		imp.Error = pageOf(c).Catalog.T(pageOf(c).Lang, "authored.import_format", "Name", opts.File)
		return s.renderAuthoredList(c, l, http.StatusUnprocessableEntity, imp)
	}
	imp.File = opts.File
	for _, it := range rep.Items {
		if it.Question != nil {
			it.Question.AuthorID = l.ID
			if err := s.createUnique(c, it.Question); err != nil {
				return err
			}
			imp.Saved++
		}
		imp.Items = append(imp.Items, it)
	}
	return s.renderAuthoredList(c, l, http.StatusOK, imp)
}

// createUnique stores an imported question under its id, or the first of
// id-2, id-3, … that neither the bank nor a teacher uses.
func (s *Server) createUnique(c echo.Context, q *examsim.AuthoredQuestion) error {
	base := q.ID
	for n := 1; n < 1000; n++ {
		if n > 1 {
			q.ID = fmt.Sprintf("%s-%d", base, n)
		}
		if _, taken := s.Bank.Question(q.ID); taken {
			continue
		}
		err := s.Authored.Create(c.Request().Context(), q)
		if examsim.ErrorCode(err) != examsim.ECONFLICT {
			return err
		}
	}
	return examsim.E(examsim.ECONFLICT, "authored.error_id_taken", "ID", base)
}

// handleAuthoredExport sends the teacher's questions that can join the
// bank as a zip of its folder layout, the built-in questions of their
// topics beside them, which `examsim questions check` accepts.
func (s *Server) handleAuthoredExport(c echo.Context) error {
	l, err := s.authoredTeacher(c)
	if err != nil {
		return err
	}
	list, err := s.Authored.Visible(c.Request().Context(), l)
	if err != nil {
		return err
	}
	var mine []*examsim.AuthoredQuestion
	for _, q := range list {
		if q.AuthorID == l.ID {
			mine = append(mine, q)
		}
	}
	bankFS := s.bankFiles()
	var buf bytes.Buffer
	if _, err := exchange.Export(&buf, bankFS, mine, true); errors.Is(err, exchange.ErrNothingToExport) {
		return examsim.E(examsim.EINVALID, "authored.export_nothing")
	} else if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="examsim-questions.zip"`)
	return c.Blob(http.StatusOK, "application/zip", buf.Bytes())
}

// handleAuthoredShare shares a question with the instance's instructors,
// or stops sharing it.
func (s *Server) handleAuthoredShare(c echo.Context) error {
	l, q, err := s.ownAuthored(c)
	if err != nil {
		return err
	}
	if err := s.Authored.SetShared(c.Request().Context(), l.ID, q.ID, c.FormValue("shared") == "on"); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/class/questions")
}

// sampleBand reads an expected band from the form; 2 when missing.
func sampleBand(s string) int {
	if b, err := strconv.Atoi(s); err == nil && examsim.CheckBand(b) == nil {
		return b
	}
	return 2
}

// mayUseAuthored refuses a teacher's question in a quiz unless the quiz's
// owner may see it (their own, or shared with them): the id of another
// teacher's unshared question is not found, as everywhere.
func (s *Server) mayUseAuthored(c echo.Context, q *questions.Question) error {
	if !q.Authored {
		return nil
	}
	if s.Authored == nil {
		return examsim.E(examsim.EINVALID, "error.question_not_found", "ID", q.ID)
	}
	if _, err := s.Authored.Get(c.Request().Context(), pageOf(c).Learner, q.ID); err != nil {
		return examsim.E(examsim.EINVALID, "error.question_not_found", "ID", q.ID)
	}
	return nil
}

// authoredPickable are the teacher's own and shared questions, compiled,
// for the quiz builder to offer beside the bank's.
func (s *Server) authoredPickable(c echo.Context) []*questions.Question {
	l := pageOf(c).Learner
	if s.Authored == nil || l == nil {
		return nil
	}
	list, err := s.Authored.Visible(c.Request().Context(), l)
	if err != nil {
		return nil // the bank's questions are still offered; saving checks again
	}
	var out []*questions.Question
	for _, aq := range list {
		if q, ok := s.Bank.Question(aq.ID); ok && q.Authored {
			out = append(out, q)
		}
	}
	return out
}

// authoredItemKey is a teacher's question's key and option letters, for
// item statistics, as Bank.ItemKeys gives the bank's.
func authoredItemKey(q *questions.Question) examsim.ItemKey {
	k := examsim.ItemKey{ID: q.ID, Answer: q.Answer}
	if tx := q.In(examsim.English); tx != nil {
		for _, o := range tx.Options {
			k.Options = append(k.Options, o.Letter)
		}
	}
	return k
}
