// Package exchange brings multiple-choice questions in from the formats
// teachers already have (GIFT, Moodle XML, CSV, XLSX) as authored questions,
// reporting per question what came in, what was left out and why, and takes
// authored questions out as the bank's Markdown folder layout, zipped.
package exchange

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"text/template"
	"unicode"
	"unicode/utf8"

	"github.com/examsim/examsim"
	"golang.org/x/text/unicode/norm"
)

// Limits on one import. A file over MaxImportBytes is refused whole, before
// it is parsed; questions past MaxImportQuestions are reported, not kept; a
// text field over MaxFieldBytes drops its question.
const (
	MaxImportBytes     = 2 << 20
	MaxImportQuestions = 200
	MaxFieldBytes      = 16 << 10
	MinOptions         = 2 // the bank's own range (questions/load.go)
	MaxOptions         = 6
)

// Options say where imported questions go.
type Options struct {
	File     string       // the file's name, for file:line in the report
	Lang     examsim.Lang // the language the file is written in (CSV rows may say their own)
	Topic    string       // the topic imported questions join
	Concepts []string     // the topic's concept ids: tags and CSV concepts are kept only when they are one
}

// Report is what an import did, one item per question found.
type Report struct {
	Items []Item
}

// Item is one question of an imported file.
type Item struct {
	Where    string                    // file:line where the question starts
	Name     string                    // its name in the file, or its first words
	Question *examsim.AuthoredQuestion // nil when it was not imported
	Reason   *Note                     // why it was not imported
	Dropped  []Note                    // parts of it left out, and why
}

// Imported returns the questions that came in.
func (r *Report) Imported() []*examsim.AuthoredQuestion {
	var out []*examsim.AuthoredQuestion
	for _, it := range r.Items {
		if it.Question != nil {
			out = append(out, it.Question)
		}
	}
	return out
}

// Note is one thing the report says: an i18n message id ("import.<ID>" in
// i18n/locales) and its template data, so the web says it in the teacher's
// language; String gives the English.
type Note struct {
	ID   string
	Args map[string]any
}

func note(id string, kv ...any) Note {
	n := Note{ID: id}
	if len(kv) > 0 {
		n.Args = map[string]any{}
		for i := 0; i+1 < len(kv); i += 2 {
			n.Args[kv[i].(string)] = kv[i+1]
		}
	}
	return n
}

func notep(id string, kv ...any) *Note { n := note(id, kv...); return &n }

// english is every note in English, in go-i18n's template syntax; the
// locales hold the same ids under "import.".
var english = map[string]string{
	"too_large":          "the file is {{.Size}} bytes, over the limit of {{.Max}}: split it into smaller files",
	"not_utf8":           "the file is not UTF-8 text: save it as UTF-8 and import it again",
	"too_many":           "over the limit of {{.Max}} questions in one file: split the file and import the rest",
	"category":           "a category line: imported questions join the topic chosen for the import",
	"description":        "no answers in braces: a description, not a question",
	"essay":              "an essay question: examsim questions are multiple choice with an explanation",
	"truefalse":          "a true/false question: write it as multiple choice with two options and explanations",
	"numeric":            "a numerical question: only multiple choice comes in",
	"matching":           "a matching question: only multiple choice comes in",
	"shortanswer":        "a short-answer question (every answer marked right): only multiple choice comes in",
	"missingword":        "text after the answers (missing-word format): write the scenario before the options",
	"unclosed":           "the answers' opening brace is never closed",
	"qtype":              "a {{.Type}} question: only multiple choice comes in",
	"no_key":             "no answer is marked right: mark exactly one with = (GIFT) or fraction 100 (XML)",
	"many_keys":          "{{.Count}} answers are marked right: examsim questions have exactly one key",
	"option_count":       "{{.Count}} options: a question needs {{.Min}} to {{.Max}}",
	"empty_stem":         "the question text is empty",
	"empty_option":       "option {{.Letter}} has no text",
	"field_too_long":     "{{.Field}} is over {{.Max}} bytes",
	"control_char":       "{{.Field}} holds a control character",
	"no_feedback":        "option {{.Letter}} has no feedback: write its explanation in the editor before the question is used",
	"partial_credit":     "option {{.Letter}}'s partial credit ({{.Weight}}%) was dropped: it counts as wrong",
	"general_feedback":   "the general feedback was dropped: put what it says in the options' explanations",
	"image":              "an image was dropped from {{.Field}}: describe it in words",
	"unknown_tag":        "tag {{.Tag}} was dropped: it is not a concept of topic {{.Topic}}",
	"xml_syntax":         "the XML breaks here: {{.Error}}",
	"csv_syntax":         "the CSV breaks here: {{.Error}}",
	"csv_header":         "the first row must name the columns; missing: {{.Columns}}",
	"csv_lang":           "language {{.Lang}} is not one of en, vi, pl, th",
	"csv_same_lang":      "question {{.ID}} already has a {{.Lang}} row (line {{.Line}})",
	"csv_answer_differs": "the answer {{.Answer}} differs from {{.Other}} in the question's other rows",
	"csv_concept":        "concept {{.Concept}} was dropped: it is not a concept of topic {{.Topic}}",
	"csv_difficulty":     "difficulty {{.Difficulty}} must be easy, medium or hard; medium was kept",
	"answer_letter":      "answer {{.Answer}} is not one of the options {{.Letters}}",
	"xlsx":               "the spreadsheet cannot be read: {{.Error}}",
	"xlsx_empty":         "the spreadsheet has no sheet with rows",
	"export_langs":       "written in {{.Langs}} only: the bank needs every question in en, vi, pl and th",
	"export_rubric":      "no rubric: the bank scores every explanation, so write one in the workbench first",
	"export_id_taken":    "the bank already has a question {{.ID}}",
	"export_check":       "the bank's check refuses it: {{.Problem}}",
}

// String says the note in English.
func (n Note) String() string {
	src, ok := english[n.ID]
	if !ok {
		return n.ID
	}
	var b bytes.Buffer
	if err := template.Must(template.New(n.ID).Option("missingkey=zero").Parse(src)).Execute(&b, n.Args); err != nil {
		return src
	}
	return b.String()
}

// builder collects one question as it is parsed.
type builder struct {
	opts    Options
	item    Item
	q       *examsim.AuthoredQuestion
	text    *examsim.AuthoredText
	dropped []Note
}

func newBuilder(opts Options, where, name string) *builder {
	tx := &examsim.AuthoredText{}
	return &builder{opts: opts, item: Item{Where: where, Name: name}, text: tx,
		q: &examsim.AuthoredQuestion{Topic: opts.Topic, Difficulty: "medium", Version: 1,
			Texts: map[examsim.Lang]*examsim.AuthoredText{opts.Lang: tx}}}
}

// option adds an option; right says it is the key.
func (b *builder) option(text, explanation string, right bool) {
	letter := string(rune('A' + len(b.text.Options))) // #nosec G115 -- options are counted, at most a few hundred
	b.text.Options = append(b.text.Options, examsim.AuthoredOption{Letter: letter,
		Text: strings.TrimSpace(text), Explanation: strings.TrimSpace(explanation)})
	if right {
		if b.q.Answer == "" {
			b.q.Answer = letter
		} else {
			b.q.Answer += "," + letter
		}
	}
}

// finish checks the question against the bank's rules that an import can
// meet and returns the report item.
func (b *builder) finish() Item {
	it := b.item
	it.Dropped = b.dropped
	tx := b.text
	tx.Stem = strings.TrimSpace(tx.Stem)
	if tx.Title == "" {
		tx.Title = titleFrom(it.Name, tx.Stem)
	}
	if it.Name == "" {
		it.Name = tx.Title
	}
	if r := b.reject(); r != nil {
		it.Reason = r
		return it
	}
	for _, o := range tx.Options {
		if o.Explanation == "" {
			it.Dropped = append(it.Dropped, note("no_feedback", "Letter", o.Letter))
		}
	}
	b.q.ID = Slug(it.Name)
	it.Question = b.q
	return it
}

func (b *builder) reject() *Note {
	tx := b.text
	keys := strings.Count(b.q.Answer, ",") + 1
	switch {
	case tx.Stem == "":
		return notep("empty_stem")
	case len(tx.Options) < MinOptions || len(tx.Options) > MaxOptions:
		return notep("option_count", "Count", len(tx.Options), "Min", MinOptions, "Max", MaxOptions)
	case b.q.Answer == "":
		return notep("no_key")
	case keys > 1:
		return notep("many_keys", "Count", keys)
	}
	fields := [][2]string{{"title", tx.Title}, {"stem", tx.Stem}}
	for _, o := range tx.Options {
		if o.Text == "" {
			return notep("empty_option", "Letter", o.Letter)
		}
		fields = append(fields, [2]string{"option " + o.Letter, o.Text}, [2]string{"option " + o.Letter + " feedback", o.Explanation})
	}
	for _, f := range fields {
		if r := checkField(f[0], f[1]); r != nil {
			return r
		}
	}
	return nil
}

// checkField refuses what the bank's loader would: an oversized field, or
// a control character (questions/FORMAT.md, "Files the checker refuses").
func checkField(name, s string) *Note {
	if len(s) > MaxFieldBytes {
		return notep("field_too_long", "Field", name, "Max", MaxFieldBytes)
	}
	for _, r := range s {
		if (r < 0x20 && r != '\t' && r != '\n') || r == 0x7f {
			return notep("control_char", "Field", name)
		}
	}
	return nil
}

// checkFile refuses a file over the size limit or that is not UTF-8, before
// anything is parsed.
func checkFile(opts Options, data []byte) *Report {
	switch {
	case len(data) > MaxImportBytes:
		return &Report{Items: []Item{{Where: opts.File, Reason: notep("too_large", "Size", len(data), "Max", MaxImportBytes)}}}
	case !utf8.Valid(data):
		return &Report{Items: []Item{{Where: opts.File, Reason: notep("not_utf8")}}}
	}
	return nil
}

// add appends an item, refusing questions past the count limit.
func (r *Report) add(it Item) {
	if it.Question != nil && len(r.Imported()) >= MaxImportQuestions {
		it.Question = nil
		it.Reason = notep("too_many", "Max", MaxImportQuestions)
	}
	r.Items = append(r.Items, it)
}

func where(file string, line int) string { return fmt.Sprintf("%s:%d", file, line) }

// titleFrom is the question's name, or the stem's first words.
func titleFrom(name, stem string) string {
	if t := strings.TrimSpace(name); t != "" {
		return t
	}
	words := strings.Fields(stem)
	var b strings.Builder
	for _, w := range words {
		if b.Len()+len(w) > 60 {
			b.WriteString("…")
			break
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return strings.Trim(b.String(), "*_`#>")
}

var (
	nonID   = regexp.MustCompile(`[^a-z0-9]+`)
	validID = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
)

// ValidID says whether id is a question id the bank accepts: lowercase
// words joined by hyphens, at most 64 characters. It is also a folder
// name in the export's zip, so nothing else may pass.
func ValidID(id string) bool { return len(id) <= 64 && validID.MatchString(id) }

// Slug makes a question id from a name: lowercase ASCII words joined by
// hyphens, at most 48 characters; "imported" when nothing is left. The
// store makes it unique.
func Slug(name string) string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(strings.ToLower(name)) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case r == 'đ':
			b.WriteByte('d')
		case r == 'ł':
			b.WriteByte('l')
		default:
			b.WriteRune(r)
		}
	}
	s := strings.Trim(nonID.ReplaceAllString(b.String(), "-"), "-")
	if len(s) > 48 {
		s = strings.TrimRight(s[:48], "-")
	}
	if s == "" {
		return "imported"
	}
	return s
}

// concepts keeps the names that are concepts of the topic, noting the rest.
func (b *builder) concepts(names []string, dropID, argName string) {
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if slices.Contains(b.opts.Concepts, n) {
			if !slices.Contains(b.q.Concepts, n) {
				b.q.Concepts = append(b.q.Concepts, n)
			}
			continue
		}
		b.dropped = append(b.dropped, note(dropID, argName, n, "Topic", b.opts.Topic))
	}
}
