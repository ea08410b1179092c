package web

import (
	"context"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/i18n"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/questions/exchange"
)

// editorForm is the question editor in one language: the language-neutral
// facts, the text and the rubric rows of Lang, and the workbench's samples.
type editorForm struct {
	ID      string
	New     bool
	Version int // the version the form was loaded from
	Lang    examsim.Lang
	Langs   []examsim.Lang // the languages the question has

	Topic      string
	Concepts   []string
	Difficulty string
	Answer     string
	Lesson     string
	Shared     bool

	Title   string
	Stem    string
	Options []optionField
	Rules   []ruleField
	Samples []sampleField

	Errors    map[string][]string // editor field (exchange.Field*) -> problems, in the UI language
	General   []string            // problems that belong to no field, translated
	Elsewhere []string            // problems in the question's other languages, translated: listed, not blocking
	Cues      []string            // the cue check's warnings, every language, translated: shown beside the options, not blocking
	SelfCheck []questions.SelfCheck
	Checked   bool // the self-consistency check ran
	Drafted   bool // the rubric rows were just drafted from the question
	Saved     bool
}

type optionField struct {
	Letter, Text, Explanation string
}

// ruleField is one rubric row: a concept or a misconception, its number
// (a concept's weight, a misconception's penalty; "" for the default), and
// this language's hint or why and patterns (one a line).
type ruleField struct {
	Kind     string // "concept" | "misconception"
	ID       string
	Role     string
	Number   string
	Note     string
	Patterns string
}

type sampleField struct {
	Text     string
	Expected int
	Result   *feedbackView
	Error    string
}

func (f *editorForm) addError(field, msg string) {
	if f.Errors == nil {
		f.Errors = map[string][]string{}
	}
	f.Errors[field] = append(f.Errors[field], msg)
}

// editorFormOf fills the editor from a stored question, in lang.
func editorFormOf(q *examsim.AuthoredQuestion, lang examsim.Lang, samples []examsim.RubricSample) editorForm {
	f := editorForm{ID: q.ID, Version: q.Version, Lang: lang, Langs: q.Langs(), Topic: q.Topic, Concepts: q.Concepts,
		Difficulty: q.Difficulty, Answer: q.Answer, Lesson: q.LessonSource, Shared: q.Shared}
	if tx := q.Texts[lang]; tx != nil {
		f.Title, f.Stem = tx.Title, tx.Stem
		for _, o := range tx.Options {
			f.Options = append(f.Options, optionField{o.Letter, o.Text, o.Explanation})
		}
	}
	f.Rules = rulesOf(q.Rubric, lang)
	for _, sm := range samples {
		if sm.Lang == lang {
			f.Samples = append(f.Samples, sampleField{Text: sm.Text, Expected: sm.Expected})
		}
	}
	return f
}

// rulesOf lays a rubric out as rows in lang.
func rulesOf(r *examsim.AuthoredRubric, lang examsim.Lang) []ruleField {
	if r == nil {
		return nil
	}
	var out []ruleField
	for _, c := range r.Concepts {
		out = append(out, ruleField{Kind: "concept", ID: c.ID, Role: c.Role, Number: numberField(c.Weight),
			Note: c.Notes[lang], Patterns: strings.Join(c.Patterns[lang], "\n")})
	}
	for _, m := range r.Misconceptions {
		out = append(out, ruleField{Kind: "misconception", ID: m.ID, Number: numberField(m.Penalty),
			Note: m.Notes[lang], Patterns: strings.Join(m.Patterns[lang], "\n")})
	}
	return out
}

func numberField(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// readEditorForm reads the posted editor.
func readEditorForm(c echo.Context, stored *examsim.AuthoredQuestion) editorForm {
	f := editorForm{New: stored.ID == "", ID: stored.ID, Lang: examsim.English,
		Topic: c.FormValue("topic"), Difficulty: c.FormValue("difficulty"), Answer: c.FormValue("answer"),
		Lesson: c.FormValue("lesson"), Shared: c.FormValue("shared") == "on",
		Title: strings.TrimSpace(c.FormValue("title")), Stem: normalise(c.FormValue("stem"))}
	if l, ok := examsim.ParseLang(c.FormValue("lang")); ok {
		f.Lang = l
	}
	if f.New {
		f.ID = strings.TrimSpace(c.FormValue("id"))
		if f.ID == "" {
			f.ID = exchange.Slug(f.Title)
		}
	}
	f.Version, _ = strconv.Atoi(c.FormValue("version"))
	values, _ := c.FormParams()
	f.Concepts = values["concepts"]
	for i := range editorOptions {
		letter := string(rune('A' + i)) // #nosec G115 -- at most six
		f.Options = append(f.Options, optionField{Letter: letter,
			Text: normalise(c.FormValue("option-" + letter)), Explanation: normalise(c.FormValue("explanation-" + letter))})
	}
	n, _ := strconv.Atoi(c.FormValue("rules"))
	for i := range min(n, 50) {
		k := strconv.Itoa(i)
		r := ruleField{Kind: c.FormValue("rule-kind-" + k), ID: strings.TrimSpace(c.FormValue("rule-id-" + k)),
			Role: c.FormValue("rule-role-" + k), Number: strings.TrimSpace(c.FormValue("rule-number-" + k)),
			Note: strings.TrimSpace(c.FormValue("rule-note-" + k)), Patterns: normalise(c.FormValue("rule-patterns-" + k))}
		if r.ID == "" && r.Note == "" && r.Patterns == "" {
			continue
		}
		f.Rules = append(f.Rules, r)
	}
	m, _ := strconv.Atoi(c.FormValue("samples"))
	for i := range min(m, maxSamples) {
		k := strconv.Itoa(i)
		if text := strings.TrimSpace(c.FormValue("sample-text-" + k)); text != "" {
			f.Samples = append(f.Samples, sampleField{Text: text, Expected: sampleBand(c.FormValue("sample-band-" + k))})
		}
	}
	f.Langs = stored.Langs()
	return f
}

// normalise makes line ends \n and trims the text.
func normalise(s string) string {
	return strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n"))
}

// apply returns the question the form describes: a copy of stored with
// the neutral facts, this language's text and the rubric replaced; the
// other languages' texts, hints and patterns are kept.
func (f *editorForm) apply(stored *examsim.AuthoredQuestion) *examsim.AuthoredQuestion {
	q := *stored
	q.ID, q.Version, q.Topic, q.Concepts, q.Difficulty = f.ID, f.Version, f.Topic, f.Concepts, f.Difficulty
	q.Answer, q.LessonSource, q.Shared = f.Answer, f.Lesson, f.Shared
	q.Texts = map[examsim.Lang]*examsim.AuthoredText{}
	for l, tx := range stored.Texts {
		q.Texts[l] = tx
	}
	tx := &examsim.AuthoredText{Title: f.Title, Stem: f.Stem}
	for _, o := range f.Options {
		if o.Text == "" && o.Explanation == "" {
			continue
		}
		letter := string(rune('A' + len(tx.Options))) // #nosec G115 -- at most six
		tx.Options = append(tx.Options, examsim.AuthoredOption{Letter: letter, Text: o.Text, Explanation: o.Explanation})
	}
	if tx.Title == "" && tx.Stem == "" && len(tx.Options) == 0 {
		delete(q.Texts, f.Lang) // an empty language is no language
	} else {
		q.Texts[f.Lang] = tx
	}
	q.Rubric = f.rubric(stored.Rubric)
	return &q
}

// rubric builds the rubric from the rows, keeping each rule's hints and
// patterns in the other languages; no rows is no rubric.
func (f *editorForm) rubric(stored *examsim.AuthoredRubric) *examsim.AuthoredRubric {
	if len(f.Rules) == 0 {
		return nil
	}
	old := map[string]examsim.AuthoredRule{}
	if stored != nil {
		for _, r := range append(append([]examsim.AuthoredRule{}, stored.Concepts...), stored.Misconceptions...) {
			old[r.ID] = r
		}
	}
	r := &examsim.AuthoredRubric{}
	for _, row := range f.Rules {
		rule := examsim.AuthoredRule{ID: row.ID, Notes: map[examsim.Lang]string{}, Patterns: map[examsim.Lang][]string{}}
		if prev, ok := old[row.ID]; ok {
			for l, n := range prev.Notes {
				rule.Notes[l] = n
			}
			for l, p := range prev.Patterns {
				rule.Patterns[l] = p
			}
		}
		rule.Notes[f.Lang] = row.Note
		rule.Patterns[f.Lang] = nil
		for _, p := range strings.Split(row.Patterns, "\n") {
			if p = strings.TrimSpace(p); p != "" {
				rule.Patterns[f.Lang] = append(rule.Patterns[f.Lang], p)
			}
		}
		n, _ := strconv.Atoi(row.Number)
		if row.Kind == "misconception" {
			rule.Penalty = n
			r.Misconceptions = append(r.Misconceptions, rule)
		} else {
			rule.Role, rule.Weight = row.Role, n
			r.Concepts = append(r.Concepts, rule)
		}
	}
	return r
}

// samples are the form's samples, to store.
func (f *editorForm) samples() []examsim.RubricSample {
	var out []examsim.RubricSample
	for _, sm := range f.Samples {
		if strings.TrimSpace(sm.Text) != "" {
			out = append(out, examsim.RubricSample{Lang: f.Lang, Text: sm.Text, Expected: sm.Expected})
		}
	}
	return out
}

// Views of the pages.

type authoredRow struct {
	Q      *examsim.AuthoredQuestion
	Export *exchange.Note // why it cannot join the bank yet; nil when it can (own questions only)
}

type authoredListView struct {
	Me     int64
	Rows   []authoredRow
	Topics []*questions.Topic
	Import *importView
}

type importView struct {
	File  string
	Error string
	Saved int
	Items []exchange.Item
}

type editorView struct {
	Form   *editorForm
	Topics []*questions.Topic
	Topic  *questions.Topic
}

type previewView struct {
	Q        *examsim.AuthoredQuestion
	Own      bool
	Lang     examsim.Lang
	Compiled *questions.Question
	Text     *questions.Text
	Problems questions.Problems
}

// authoredTitle is the question's title in the page's language, else in
// the first language it has.
func authoredTitle(ctx context.Context, q *examsim.AuthoredQuestion) string {
	if tx := q.Texts[page(ctx).Lang]; tx != nil {
		return tx.Title
	}
	for _, l := range q.Langs() {
		return q.Texts[l].Title
	}
	return q.ID
}

// importNote says an import or export note in the page's language.
func importNote(ctx context.Context, n exchange.Note) string {
	var kv []any
	for k, v := range n.Args {
		if p, ok := v.(questions.Problem); ok { // a bank check's problem: said in the page's language too
			v = page(ctx).problem(p)
		}
		kv = append(kv, k, v)
	}
	return t(ctx, "import."+n.ID, kv...)
}

func editorAction(f *editorForm) string {
	if f.New {
		return "/class/questions"
	}
	return "/class/questions/" + f.ID
}

func ariaCurrent(current bool) string {
	if current {
		return "page"
	}
	return "false"
}

// fieldTestID is the data-testid suffix of a field's errors.
func fieldTestID(field string) string {
	if field == exchange.FieldGeneral {
		return "general"
	}
	return field
}

// sampleSelected says whether band b is the sample's expected band; a
// blank sample expects 2.
func sampleSelected(sm sampleField, b int) bool {
	if sm.Text == "" {
		return b == 2
	}
	return sm.Expected == b
}

// patternSyntax is the workbench's crib of rubric patterns (FORMAT.md,
// "Rubric patterns"): an example, and the key of what it means.
var patternSyntax = [][2]string{
	{"escalate", "word"}, {"retry|retries|retried", "alt"}, {"retr*", "prefix"}, {"valid_empty", "joined"},
	{"{neg} retr* help*", "neg"}, {"{!neg} retr*", "notneg"}, {"backoff jitter ~6", "window"},
}

// unscored says whether a question's explanations go unscored: a teacher's
// question without a rubric.
func unscored(tx *questions.Text) bool {
	return tx != nil && (tx.Rubric() == nil || len(tx.Rubric().Concepts) == 0)
}

// langName is a language's own name, as the language switch shows it.
func langName(l examsim.Lang) string { return i18n.Name(l) }
