// Package exchange brings multiple-choice questions in from the formats
// teachers already have (GIFT, Moodle XML, CSV, XLSX) as authored questions,
// reporting per question what came in, what was left out and why, and takes
// authored questions out as the bank's Markdown folder layout, zipped.
package exchange

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
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
	return Note{ID: id, Args: questions.Args(kv...)}
}

func notep(id string, kv ...any) *Note { n := note(id, kv...); return &n }

// String says the note in English, from the same catalog the web says it
// from in the teacher's language ("import.<ID>" in i18n/locales).
func (n Note) String() string {
	m := questions.Message{Key: "import." + n.ID, Args: n.Args}
	return m.String()
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
