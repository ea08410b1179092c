// Package questions owns the question bank: the file format (FORMAT.md), the
// loader that checks a bank and reports every problem as path:line, and the
// bank embedded in the binary.
package questions

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strings"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/scoring"
)

//go:embed bank
var embedded embed.FS

// Embedded returns the bank built into the binary and the name its paths
// are reported under.
func Embedded() (fs.FS, string) {
	sub, err := fs.Sub(embedded, "bank")
	if err != nil {
		panic(err) // the directory is compiled in; this cannot fail
	}
	return sub, "questions/bank"
}

// Difficulty is how hard a question is.
type Difficulty string

const (
	Easy   Difficulty = "easy"
	Medium Difficulty = "medium"
	Hard   Difficulty = "hard"
)

// Difficulties lists the difficulties from easiest.
var Difficulties = []Difficulty{Easy, Medium, Hard}

// Topic is a subject with a lesson and questions.
type Topic struct {
	ID         string
	Order      int
	Concepts   []string
	Objectives []Objective // none, or every concept in exactly one
	Lessons    map[examsim.Lang]*Lesson
}

// Objective is a named exam objective finer than a syllabus section
// ("2.2.1"), and the concepts it covers.
type Objective struct {
	ID       string
	Concepts []string
	Weight   int // its share of a blueprint exam's questions; 1 unless set
}

// ObjectiveOf returns the id of the objective that covers concept, or "".
func (t *Topic) ObjectiveOf(concept string) string {
	for _, o := range t.Objectives {
		if slices.Contains(o.Concepts, concept) {
			return o.ID
		}
	}
	return ""
}

// ConceptOrder lists the topic's concepts grouped by objective, in the
// order topic.yaml gives them; without objectives, as listed.
func (t *Topic) ConceptOrder() []string {
	if len(t.Objectives) == 0 {
		return t.Concepts
	}
	var out []string
	for _, o := range t.Objectives {
		out = append(out, o.Concepts...)
	}
	return out
}

// Lesson is a topic's Learn page in one language.
type Lesson struct {
	Title          string
	Summary        string
	ConceptNames   map[string]string
	ObjectiveNames map[string]string // objective id -> display title
	Sections       []string          // the concepts in the order the lesson's headings take them
	Revision       int               // lesson.en.md: bumped when the English changes
	SourceRevision int               // a translation: the English revision it was made from
	revisionLine   int
	Markdown       string // the lesson's body as written, for clients that render it themselves
	body           *rendered
}

// HTML is the lesson rendered from bank Markdown, raw HTML dropped.
func (ls *Lesson) HTML() string { return ls.body.HTML() }

// Question is one scenario question in every language.
type Question struct {
	ID         string
	Topic      string
	Concepts   []string
	Difficulty Difficulty
	Answer     string
	Texts      map[examsim.Lang]*Text
	Authored   bool // a teacher's question from the database (Bank.WithAuthored), not the bank's
}

// Text is what a learner reads of a question in one language.
type Text struct {
	Title        string
	StemMarkdown string // the stem as written, for the cue check
	Options      []Option
	Sources      []Source
	stem         *rendered
	rubric       *scoring.Rubric
	deferred     *deferredRubric // LoadDeferred: the rubric to parse on first use; nil from Load
}

// Rubric is the text's rubric. A text from LoadDeferred parses it here on
// the first call; one whose rubric has problems (Bank.Complete reports
// them) gets its neutral rubric, without hints or patterns, never nil.
func (t *Text) Rubric() *scoring.Rubric {
	if d := t.deferred; d != nil {
		d.once.Do(func() { t.rubric = d.parse(t) })
	}
	return t.rubric
}

// SetRubric replaces the text's rubric: for texts built outside the loader,
// as tests build them.
func (t *Text) SetRubric(r *scoring.Rubric) { t.rubric, t.deferred = r, nil }

// StemHTML is the stem rendered from bank Markdown, raw HTML dropped.
func (t *Text) StemHTML() string { return t.stem.HTML() }

// Option is one answer choice.
type Option struct {
	Letter      string
	Markdown    string // the option's text as written, for the cue check
	text        *rendered
	explanation *rendered
}

// HTML is the option's text rendered from bank Markdown, raw HTML dropped.
func (o Option) HTML() string { return o.text.HTML() }

// ExplanationHTML is the option's explanation rendered from bank Markdown.
func (o Option) ExplanationHTML() string { return o.explanation.HTML() }

// Source is where a question's facts come from.
type Source struct {
	Title  string `yaml:"title"`
	URL    string `yaml:"url"`
	Lesson string `yaml:"lesson"` // a concept id: the lesson section that supports the key; URL is set to it
}

// Bank is a loaded, checked question bank.
type Bank struct {
	Topics    []*Topic
	Questions []*Question // sorted by topic order, then id
	Warnings  Problems    // worth fixing, but the bank is usable
	byID      map[string]*Question
	topicByID map[string]*Topic
	authored  func(id string) (*Question, bool) // teachers' questions; nil for none
}

// Question returns the question with id: the bank's, else a teacher's
// (WithAuthored), so quizzes, results and grading find both alike.
func (b *Bank) Question(id string) (*Question, bool) {
	q, ok := b.byID[id]
	if !ok && b.authored != nil {
		return b.authored(id)
	}
	return q, ok
}

// Topic returns the topic with id.
func (b *Bank) Topic(id string) (*Topic, bool) {
	t, ok := b.topicByID[id]
	return t, ok
}

// Langs returns the languages every question is in.
func (b *Bank) Langs() []examsim.Lang {
	var out []examsim.Lang
	for _, l := range examsim.Langs {
		all := len(b.Questions) > 0
		for _, q := range b.Questions {
			if q.Texts[l] == nil {
				all = false
				break
			}
		}
		if all {
			out = append(out, l)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Text returns the question in lang, nil when the bank lacks it.
func (q *Question) Text(lang examsim.Lang) *Text { return q.Texts[lang] }

// In returns the question in lang, or in English when it lacks lang, or
// (a teacher's question written in only some languages) in the first
// language it has: the one fallback everywhere a question is shown.
func (q *Question) In(lang examsim.Lang) *Text {
	if tx := q.Texts[lang]; tx != nil {
		return tx
	}
	if tx := q.Texts[examsim.English]; tx != nil {
		return tx
	}
	for _, l := range examsim.Langs {
		if tx := q.Texts[l]; tx != nil {
			return tx
		}
	}
	return nil
}

// Render renders every Markdown text of the bank now, rather than on its
// first view, and reports each that cannot render at its line: `questions
// check` runs it, so no text's error waits for a learner to find it.
func (b *Bank) Render() Problems {
	var problems Problems
	for _, r := range b.texts() {
		if _, err := r.render(); err != nil {
			problems = append(problems, NewProblem(r.path, r.line, "check.markdown", "Err", err.Error()))
		}
	}
	return problems
}

// texts is every Markdown text of the bank: lessons, then each question's
// stems, options and explanations.
func (b *Bank) texts() []*rendered {
	var out []*rendered
	for _, t := range b.Topics {
		for _, l := range examsim.Langs {
			if ls := t.Lessons[l]; ls != nil {
				out = append(out, ls.body)
			}
		}
	}
	for _, q := range b.Questions {
		for _, l := range examsim.Langs {
			if tx := q.Texts[l]; tx != nil {
				out = append(out, tx.stem)
				for _, o := range tx.Options {
					out = append(out, o.text, o.explanation)
				}
			}
		}
	}
	return out
}

// Problem is one thing wrong with a bank file.
type Problem struct {
	Path string
	Line int
	Msg  string // the message in English, as `questions check` prints it
	Message
}

func (p Problem) String() string { return p.Where() + ": " + p.Msg }

// Where is the problem's path:line.
func (p Problem) Where() string { return fmt.Sprintf("%s:%d", p.Path, max(p.Line, 1)) }

// Problems is every problem found in a bank.
type Problems []Problem

func (ps Problems) Error() string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// Coverage counts, for each concept of a topic, the questions tagged with it
// in each language.
func Coverage(b *Bank, t *Topic) map[string]map[examsim.Lang]int {
	out := make(map[string]map[examsim.Lang]int, len(t.Concepts))
	for _, c := range t.Concepts {
		out[c] = map[examsim.Lang]int{}
	}
	for _, q := range b.Questions {
		if q.Topic != t.ID {
			continue
		}
		for _, c := range q.Concepts {
			if out[c] == nil {
				continue
			}
			for l := range q.Texts {
				out[c][l]++
			}
		}
	}
	return out
}

// ItemKeys is what item statistics need of the bank: every question's key
// and option letters (the same in every language).
func (b *Bank) ItemKeys() []examsim.ItemKey {
	var out []examsim.ItemKey
	for _, q := range b.Questions {
		k := examsim.ItemKey{ID: q.ID, Answer: q.Answer}
		for _, l := range examsim.Langs {
			if tx := q.Text(l); tx != nil {
				for _, o := range tx.Options {
					k.Options = append(k.Options, o.Letter)
				}
				break
			}
		}
		out = append(out, k)
	}
	return out
}

// CheckAnswer is the one rule for what an answer may be, in practice, in an
// exam and in class: a choice among the question's letters and an
// explanation short enough to score. With open, a choice may be left out
// (an exam item saved unanswered, or only flagged).
func (t *Text) CheckAnswer(choice, explanation string, open bool) error {
	switch {
	case choice == "" && !open:
		return examsim.E(examsim.EINVALID, "practice.error_no_choice")
	case choice != "" && !t.HasOption(choice):
		return examsim.E(examsim.EINVALID, "practice.error_bad_choice", "Choice", choice)
	}
	return scoring.CheckLength(explanation)
}

// HasOption reports whether letter is one of the question's options.
func (t *Text) HasOption(letter string) bool {
	return slices.ContainsFunc(t.Options, func(o Option) bool { return o.Letter == letter })
}
