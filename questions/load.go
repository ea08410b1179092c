package questions

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/scoring"
	"go.yaml.in/yaml/v3"
)

var idPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// The sane range of rubric numbers. A concept weighing more than ten times
// the lightest would make the rest of the rubric noise, and a penalty over
// 100 takes off more than a score can hold; zero or less would invert the
// score or silence a rule, so a number written out must be at least 1.
const (
	MaxConceptWeight = 10
	MaxPenalty       = 100
)

// Load reads and checks the bank in fsys, reporting paths under display. It
// returns every problem it finds, never just the first; the bank is usable
// only when there are none.
func Load(fsys fs.FS, display string) (*Bank, Problems) {
	return load(&loader{fsys: fsys, display: display})
}

func load(l *loader) (*Bank, Problems) {
	bank := &Bank{byID: map[string]*Question{}, topicByID: map[string]*Topic{}}
	entries, err := fs.ReadDir(l.fsys, ".")
	if err != nil {
		l.fileAt(".").add(1, "check.read_folder", "Err", err.Error())
		return nil, l.problems
	}
	for _, e := range entries {
		if dir, _ := l.entryKind(e.Name(), e); !dir {
			continue
		}
		topic := l.loadTopic(e.Name())
		if topic == nil {
			continue
		}
		bank.Topics = append(bank.Topics, topic)
		bank.topicByID[topic.ID] = topic
		for _, q := range l.loadQuestions(topic) {
			if prev, dup := bank.byID[q.ID]; dup {
				l.fileAt(path.Join(topic.ID, q.ID, "question.yaml")).add(1, "check.id_twice", "ID", quote(q.ID), "Topic", prev.Topic)
				continue
			}
			bank.byID[q.ID] = q
			bank.Questions = append(bank.Questions, q)
		}
	}
	if n := withoutLessonSource(bank.Questions); n > 0 {
		l.fileAt(".").warn(&l.warnings, 1, "check.no_lesson_source", "N", n, "Total", len(bank.Questions))
	}
	bank.Warnings = l.warnings
	if len(bank.Questions) == 0 && len(l.problems) == 0 {
		l.fileAt(".").add(1, "check.empty_bank")
	}
	sort.SliceStable(bank.Topics, func(i, j int) bool { return bank.Topics[i].Order < bank.Topics[j].Order })
	order := map[string]int{}
	for i, t := range bank.Topics {
		order[t.ID] = i
	}
	sort.SliceStable(bank.Questions, func(i, j int) bool {
		a, b := bank.Questions[i], bank.Questions[j]
		if order[a.Topic] != order[b.Topic] {
			return order[a.Topic] < order[b.Topic]
		}
		return a.ID < b.ID
	})
	l.problems.sort()
	bank.Warnings.sort()
	return bank, l.problems
}

// sort orders problems by path, then line.
func (ps Problems) sort() {
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].Path != ps[j].Path {
			return ps[i].Path < ps[j].Path
		}
		return ps[i].Line < ps[j].Line
	})
}

// withoutLessonSource counts the questions none of whose languages names
// a lesson section among its sources.
func withoutLessonSource(qs []*Question) int {
	n := 0
	for _, q := range qs {
		has := false
		for _, tx := range q.Texts {
			has = has || slices.ContainsFunc(tx.Sources, func(s Source) bool { return s.Lesson != "" })
		}
		if !has {
			n++
		}
	}
	return n
}

type loader struct {
	fsys     fs.FS
	display  string
	problems Problems
	warnings Problems
	// deferRubrics: parse each language file's rubric on first use
	// (LoadDeferred), where the split is certain.
	deferRubrics bool
}

func (l *loader) fileAt(rel string) *file {
	return &file{path: path.Join(l.display, rel), problems: &l.problems}
}

// read returns a language file's bytes, or reports it missing at the file
// that needs it.
func (l *loader) read(rel string, need *file, line int) ([]byte, bool) {
	return l.readText(rel, need, line, Msg("check.lang_missing", "File", path.Base(rel)))
}

// MaxFileBytes is the largest bank file the loader reads; the longest
// question file today is a few kilobytes.
const MaxFileBytes = 1 << 20

// readText reads a bank file that must be a regular UTF-8 text file. A
// missing, irregular or oversized file is reported at need (the file that
// requires it), with missing as the message when it does not exist; bad
// bytes are reported at their own line of the file itself. The file is
// stat-ed first and opened only when regular, so a named pipe never blocks.
func (l *loader) readText(rel string, need *file, line int, missing Message) ([]byte, bool) {
	info, err := fs.Stat(l.fsys, rel)
	switch {
	case err != nil:
		need.addMsg(line, missing)
		return nil, false
	case !info.Mode().IsRegular():
		need.add(line, "check.not_regular", "File", path.Base(rel))
		return nil, false
	case info.Size() > MaxFileBytes:
		need.add(line, "check.file_too_large", "File", path.Base(rel), "Size", info.Size(), "Max", MaxFileBytes)
		return nil, false
	}
	data, err := fs.ReadFile(l.fsys, rel)
	if err != nil {
		need.add(line, "check.read_file", "File", path.Base(rel), "Err", err.Error())
		return nil, false
	}
	return data, checkBytes(l.fileAt(rel), data)
}

// checkBytes reports every line that is not valid UTF-8 or holds a control
// character (tab excepted): the YAML parser names neither's line, and
// goldmark would serve them as they are.
func checkBytes(f *file, data []byte) bool {
	if plainText(data) {
		return true
	}
	ok := true
	for i, ln := range bytes.Split(data, []byte("\n")) {
		ln = bytes.TrimSuffix(ln, []byte("\r"))
		if !utf8.Valid(ln) {
			f.add(i+1, "check.not_utf8")
			ok = false
			continue
		}
		if j := bytes.IndexFunc(ln, func(r rune) bool { return (r < 0x20 && r != '\t') || r == 0x7f }); j >= 0 {
			r, _ := utf8.DecodeRune(ln[j:])
			f.add(i+1, "check.control_char", "Char", fmt.Sprintf("U+%04X", r))
			ok = false
		}
	}
	return ok
}

// plainText reports, in one pass and without splitting lines, that data
// is valid UTF-8 with no control character but tab, line feed and a
// carriage return before a line feed or at the end: what checkBytes
// accepts, so most files skip its line-by-line pass.
func plainText(data []byte) bool {
	for i, c := range data {
		switch {
		case c == '\r':
			if i+1 < len(data) && data[i+1] != '\n' {
				return false
			}
		case (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f:
			return false
		}
	}
	return utf8.Valid(data)
}

// entryKind says what a folder entry is, reporting symbolic links and
// anything that is neither a folder nor a regular file at the entry itself.
// Links are refused rather than followed: go:embed drops them, so a linked
// question would be in a folder bank but silently missing from the binary.
func (l *loader) entryKind(rel string, e fs.DirEntry) (dir, ok bool) {
	switch t := e.Type(); {
	case t&fs.ModeSymlink != 0:
		l.fileAt(rel).add(1, "check.symlink")
		return false, false
	case t.IsDir():
		return true, true
	case !t.IsRegular():
		l.fileAt(rel).add(1, "check.not_file")
		return false, false
	}
	return false, true
}

type topicYAML struct {
	ID         string   `yaml:"id"`
	Order      int      `yaml:"order"`
	Concepts   []string `yaml:"concepts"`
	Objectives []struct {
		ID       string   `yaml:"id"`
		Concepts []string `yaml:"concepts"`
		Weight   *int     `yaml:"weight"`
	} `yaml:"objectives"`
}

// objectivePattern is an objective id finer than a syllabus section: three
// or more numbers joined by dots, such as 2.2.1.
var objectivePattern = regexp.MustCompile(`^[0-9]+(\.[0-9]+){2,}$`)

func (l *loader) loadTopic(dir string) *Topic {
	rel := path.Join(dir, "topic.yaml")
	f := l.fileAt(rel)
	data, ok := l.readText(rel, f, 1, Msg("check.topic_yaml_missing"))
	if !ok {
		return nil
	}
	var meta topicYAML
	root, ok := decodeYAML(f, data, 1, &meta)
	if !ok {
		return nil
	}
	if meta.ID != dir {
		f.add(lineOf(root, 1, 1, "id"), "check.id_folder", "ID", quote(meta.ID), "Folder", quote(dir))
	}
	if len(meta.Concepts) == 0 {
		f.add(lineOf(root, 1, 1, "concepts"), "check.topic_no_concepts")
	}
	seen := map[string]bool{}
	for i, c := range meta.Concepts {
		line := 1
		if n := lookup(root, "concepts"); n != nil && i < len(n.Content) {
			line = n.Content[i].Line
		}
		switch {
		case !idPattern.MatchString(c):
			f.add(line, "check.concept_id", "ID", quote(c))
		case seen[c]:
			f.add(line, "check.concept_twice", "ID", quote(c))
		}
		seen[c] = true
	}
	t := &Topic{ID: dir, Order: meta.Order, Concepts: meta.Concepts, Lessons: map[examsim.Lang]*Lesson{}}
	l.checkObjectives(t, f, root, &meta)
	for _, lang := range examsim.Langs {
		if lesson := l.loadLesson(t, lang, f); lesson != nil {
			t.Lessons[lang] = lesson
		}
	}
	l.checkRevisions(t)
	return t
}

// checkObjectives fills t.Objectives. Objectives are optional, but once a
// topic declares one, every concept belongs to exactly one.
func (l *loader) checkObjectives(t *Topic, f *file, root *yaml.Node, meta *topicYAML) {
	seq := lookup(root, "objectives")
	owner := map[string]string{}
	seenID := map[string]bool{}
	for i, o := range meta.Objectives {
		line := lineOf(root, 1, 1, "objectives")
		var item *yaml.Node
		if seq != nil && i < len(seq.Content) {
			item = seq.Content[i]
			line = item.Line
		}
		switch {
		case !objectivePattern.MatchString(o.ID):
			f.add(line, "check.objective_id", "ID", quote(o.ID))
		case seenID[o.ID]:
			f.add(line, "check.objective_twice", "ID", o.ID)
		}
		seenID[o.ID] = true
		if len(o.Concepts) == 0 {
			f.add(line, "check.objective_no_concepts", "ID", o.ID)
		}
		for _, c := range o.Concepts {
			cl := lineOf(item, 1, line, "concepts")
			switch {
			case !slices.Contains(t.Concepts, c):
				f.add(cl, "check.objective_concept_unknown", "ID", o.ID, "Concept", quote(c))
			case owner[c] != "":
				f.add(cl, "check.concept_two_objectives", "Concept", quote(c), "A", owner[c], "B", o.ID)
			default:
				owner[c] = o.ID
			}
		}
		weight := 1
		if o.Weight != nil {
			weight = *o.Weight
			if weight < 1 {
				f.add(lineOf(item, 1, line, "weight"), "check.objective_weight", "ID", o.ID, "Weight", weight)
			}
		}
		t.Objectives = append(t.Objectives, Objective{ID: o.ID, Concepts: o.Concepts, Weight: weight})
	}
	if len(meta.Objectives) == 0 {
		return
	}
	for _, c := range t.Concepts {
		if owner[c] == "" {
			f.add(lineOf(root, 1, 1, "objectives"), "check.concept_no_objective", "Concept", quote(c))
		}
	}
}

// checkRevisions warns when a translation was made from an older revision
// of the English lesson than the current one.
func (l *loader) checkRevisions(t *Topic) {
	en := t.Lessons[examsim.English]
	if en == nil || en.Revision == 0 {
		return
	}
	for _, lang := range examsim.Langs {
		ls := t.Lessons[lang]
		if lang == examsim.English || ls == nil || ls.SourceRevision >= en.Revision {
			continue
		}
		w := &file{path: path.Join(l.display, t.ID, "lesson."+string(lang)+".md"), problems: &l.warnings}
		if ls.SourceRevision == 0 {
			w.add(ls.revisionLine, "check.lesson_no_source_revision", "Revision", en.Revision)
		} else {
			w.add(ls.revisionLine, "check.lesson_stale", "SourceRevision", ls.SourceRevision, "Revision", en.Revision)
		}
	}
}

type lessonYAML struct {
	Title          string            `yaml:"title"`
	Summary        string            `yaml:"summary"`
	Concepts       map[string]string `yaml:"concepts"`
	Objectives     map[string]string `yaml:"objectives"`
	Revision       *int              `yaml:"revision"`
	SourceRevision *int              `yaml:"source_revision"`
}

func (l *loader) loadLesson(t *Topic, lang examsim.Lang, topicFile *file) *Lesson {
	rel := path.Join(t.ID, "lesson."+string(lang)+".md")
	data, ok := l.read(rel, topicFile, 1)
	if !ok {
		return nil
	}
	f := l.fileAt(rel)
	md, ok := splitFrontMatter(f, data)
	if !ok {
		return nil
	}
	var meta lessonYAML
	root, ok := decodeYAML(f, md.frontMatter, md.fmLine, &meta)
	if !ok {
		return nil
	}
	if strings.TrimSpace(meta.Title) == "" {
		f.add(lineOf(root, md.fmLine, 1, "title"), "check.lesson_title")
	}
	body := strings.Join(md.body, "\n")
	for _, c := range t.Concepts {
		if strings.TrimSpace(meta.Concepts[c]) == "" {
			f.add(lineOf(root, md.fmLine, 1, "concepts"), "check.lesson_concept_name", "Concept", quote(c))
		}
		if !strings.Contains(body, "{#"+c+"}") {
			f.add(md.bodyLine, "check.lesson_anchor", "Concept", quote(c), "ID", c)
		}
	}
	for c := range meta.Concepts {
		if !slices.Contains(t.Concepts, c) {
			f.add(lineOf(root, md.fmLine, 1, "concepts", c), "check.lesson_concept_unknown", "Concept", quote(c))
		}
	}
	for _, o := range t.Objectives {
		if strings.TrimSpace(meta.Objectives[o.ID]) == "" {
			f.add(lineOf(root, md.fmLine, 1, "objectives"), "check.lesson_objective_title", "ID", o.ID)
		}
	}
	for id := range meta.Objectives {
		if !slices.ContainsFunc(t.Objectives, func(o Objective) bool { return o.ID == id }) {
			f.add(lineOf(root, md.fmLine, 1, "objectives", id), "check.lesson_objective_unknown", "ID", quote(id))
		}
	}
	lesson := &Lesson{Title: meta.Title, Summary: meta.Summary, ConceptNames: meta.Concepts, ObjectiveNames: meta.Objectives,
		Sections: sectionOrder(body, t.Concepts)}
	if lang == examsim.English {
		if meta.SourceRevision != nil {
			f.add(lineOf(root, md.fmLine, 1, "source_revision"), "check.lesson_source_revision_en")
		}
		if meta.Revision != nil {
			if lesson.Revision = *meta.Revision; lesson.Revision < 1 {
				f.add(lineOf(root, md.fmLine, 1, "revision"), "check.lesson_revision", "Revision", lesson.Revision)
			}
		}
	} else {
		if meta.Revision != nil {
			f.add(lineOf(root, md.fmLine, 1, "revision"), "check.lesson_revision_translation")
		}
		if meta.SourceRevision != nil {
			lesson.SourceRevision = *meta.SourceRevision
		}
		lesson.revisionLine = lineOf(root, md.fmLine, 1, "source_revision")
	}
	lesson.Markdown, lesson.body = body, newRendered(f, md.bodyLine, body)
	return lesson
}

// loadQuestions loads a topic's questions on every core: each question is
// loaded by its own loader, and the questions and problems are gathered in
// folder order, so the result is the same as loading them one by one.
func (l *loader) loadQuestions(t *Topic) []*Question {
	entries, _ := fs.ReadDir(l.fsys, t.ID)
	var dirs []string
	for _, e := range entries {
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			l.entryKind(path.Join(t.ID, e.Name()), e) // reports the link
		case e.IsDir():
			dirs = append(dirs, e.Name())
		}
		// An irregular topic.yaml or lesson is reported where it is read.
	}
	loaded := make([]*Question, len(dirs))
	found := make([]Problems, len(dirs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(dirs)) {
		wg.Go(func() {
			for i := range next {
				ql := &loader{fsys: l.fsys, display: l.display, deferRubrics: l.deferRubrics}
				loaded[i] = ql.loadQuestion(t, dirs[i])
				found[i] = ql.problems
			}
		})
	}
	for i := range dirs {
		next <- i
	}
	close(next)
	wg.Wait()
	var out []*Question
	for i, q := range loaded {
		l.problems = append(l.problems, found[i]...)
		if q != nil {
			out = append(out, q)
		}
	}
	return out
}

type questionYAML struct {
	ID         string   `yaml:"id"`
	Topic      string   `yaml:"topic"`
	Concepts   []string `yaml:"concepts"`
	Difficulty string   `yaml:"difficulty"`
	Answer     string   `yaml:"answer"`
	Rubric     struct {
		Version  int `yaml:"version"`
		Concepts []struct {
			ID     string `yaml:"id"`
			Role   string `yaml:"role"`
			Weight *int   `yaml:"weight"`
		} `yaml:"concepts"`
		Misconceptions []struct {
			ID      string `yaml:"id"`
			Penalty *int   `yaml:"penalty"`
		} `yaml:"misconceptions"`
	} `yaml:"rubric"`
}

func (l *loader) loadQuestion(t *Topic, dir string) *Question {
	rel := path.Join(t.ID, dir, "question.yaml")
	f := l.fileAt(rel)
	data, ok := l.readText(rel, f, 1, Msg("check.question_yaml_missing"))
	if !ok {
		return nil
	}
	var meta questionYAML
	root, ok := decodeYAML(f, data, 1, &meta)
	if !ok {
		return nil
	}
	lines := yamlLines{root: root, first: 1}
	checkQuestionTags(f, lines, t, dir, &meta)
	rubric := neutralRubric(f, lines, &meta)

	q := &Question{ID: meta.ID, Topic: t.ID, Concepts: meta.Concepts, Difficulty: Difficulty(meta.Difficulty),
		Answer: meta.Answer, Texts: map[examsim.Lang]*Text{}}
	letters := l.loadTexts(t, dir, f, rubric, q)
	if letters != nil && !slices.Contains(letters, meta.Answer) {
		f.add(lines.of("answer"), "check.answer", "Answer", quote(meta.Answer), "Options", strings.Join(letters, ", "))
	}
	l.checkStrayFiles(t.ID, dir, f)
	// A question with problems is still returned, with the languages that
	// loaded cleanly, so a rubric author can try it; Load reports the problems
	// and serve refuses the bank.
	return q
}

// yamlLines finds the file line of a key in a YAML document that starts on
// line first of its file.
type yamlLines struct {
	root  *yaml.Node
	first int
}

// of returns the line of the key path keys, or the first line without one.
func (y yamlLines) of(keys ...string) int { return lineOf(y.root, y.first, 1, keys...) }

// checkQuestionTags checks that question.yaml's id, topic, concepts and
// difficulty fit the folder it is in and its topic.
func checkQuestionTags(f *file, lines yamlLines, t *Topic, dir string, meta *questionYAML) {
	if meta.ID != dir {
		f.add(lines.of("id"), "check.id_folder", "ID", quote(meta.ID), "Folder", quote(dir))
	}
	if meta.Topic != t.ID {
		f.add(lines.of("topic"), "check.topic_folder", "Topic", quote(meta.Topic), "Folder", quote(t.ID))
	}
	if len(meta.Concepts) == 0 {
		f.add(lines.of("concepts"), "check.no_concepts", "Topic", t.ID)
	}
	for _, c := range meta.Concepts {
		if !slices.Contains(t.Concepts, c) {
			f.add(lines.of("concepts"), "check.concept_unknown", "Concept", quote(c), "Topic", t.ID)
		}
	}
	if !slices.Contains(Difficulties, Difficulty(meta.Difficulty)) {
		f.add(lines.of("difficulty"), "check.difficulty", "Difficulty", quote(meta.Difficulty))
	}
}

// neutralRubric builds the rubric question.yaml gives for every language:
// concept ids, roles and weights, misconception ids and penalties.
func neutralRubric(f *file, lines yamlLines, meta *questionYAML) scoring.Rubric {
	rubric := scoring.Rubric{Version: max(meta.Rubric.Version, 1), Answer: meta.Answer}
	seen := map[string]bool{} // ids of concepts and misconceptions share one namespace
	rubric.Concepts = neutralConcepts(f, lines, meta, seen)
	rubric.Misconceptions = neutralMisconceptions(f, lines, meta, seen)
	return rubric
}

func neutralConcepts(f *file, lines yamlLines, meta *questionYAML, seen map[string]bool) []scoring.Concept {
	var out []scoring.Concept
	decisive := 0
	for i, c := range meta.Rubric.Concepts {
		cl := lines.of("rubric", "concepts")
		wl := cl
		if n := lookup(lines.root, "rubric", "concepts"); n != nil && i < len(n.Content) {
			cl = n.Content[i].Line
			wl = lineOf(n.Content[i], 1, cl, "weight")
		}
		role := scoring.Role(c.Role)
		if role.DefaultWeight() == 0 {
			f.add(cl, "check.rubric_role", "ID", quote(c.ID), "Role", quote(c.Role))
		}
		if !idPattern.MatchString(c.ID) || seen[c.ID] {
			f.add(cl, "check.rubric_concept_id", "ID", quote(c.ID))
		}
		seen[c.ID] = true
		if role == scoring.Decisive {
			decisive++
		}
		w := role.DefaultWeight()
		if c.Weight != nil {
			w = *c.Weight
			if w < 1 || w > MaxConceptWeight {
				f.add(wl, "check.rubric_weight", "ID", quote(c.ID), "Weight", w, "Max", MaxConceptWeight)
			}
		}
		out = append(out, scoring.Concept{ID: c.ID, Role: role, Weight: w})
	}
	if decisive == 0 {
		f.add(lines.of("rubric"), "check.rubric_no_decisive")
	}
	return out
}

func neutralMisconceptions(f *file, lines yamlLines, meta *questionYAML, seen map[string]bool) []scoring.Misconception {
	var out []scoring.Misconception
	for i, m := range meta.Rubric.Misconceptions {
		ml := lines.of("rubric", "misconceptions")
		pl := ml
		if n := lookup(lines.root, "rubric", "misconceptions"); n != nil && i < len(n.Content) {
			ml = n.Content[i].Line
			pl = lineOf(n.Content[i], 1, ml, "penalty")
		}
		if !idPattern.MatchString(m.ID) || seen[m.ID] {
			f.add(ml, "check.rubric_misconception_id", "ID", quote(m.ID))
		}
		seen[m.ID] = true
		p := scoring.DefaultPenalty
		if m.Penalty != nil {
			p = *m.Penalty
			if p < 1 || p > MaxPenalty {
				f.add(pl, "check.rubric_penalty", "ID", quote(m.ID), "Penalty", p, "Max", MaxPenalty)
			}
		}
		out = append(out, scoring.Misconception{ID: m.ID, Penalty: p})
	}
	return out
}

// loadTexts loads each language of the question into q.Texts and returns
// the option letters of the first that loaded, nil when none did. Every
// language must have the same letters.
func (l *loader) loadTexts(t *Topic, dir string, f *file, rubric scoring.Rubric, q *Question) []string {
	var letters []string
	var lettersFrom string
	for _, lang := range examsim.Langs {
		tx, txLetters := l.loadText(t, dir, lang, f, rubric)
		if tx == nil {
			continue
		}
		q.Texts[lang] = tx
		name := string(lang) + ".md"
		switch {
		case letters == nil:
			letters, lettersFrom = txLetters, name
		case !slices.Equal(letters, txLetters):
			l.fileAt(path.Join(t.ID, dir, name)).add(1, "check.option_letters",
				"Letters", strings.Join(txLetters, ","), "Other", strings.Join(letters, ","), "File", lettersFrom)
		}
	}
	return letters
}

// checkStrayFiles reports files that look like a language this bank lacks.
func (l *loader) checkStrayFiles(topic, dir string, f *file) {
	entries, _ := fs.ReadDir(l.fsys, path.Join(topic, dir))
	for _, e := range entries {
		name := e.Name()
		if e.Type()&fs.ModeSymlink != 0 {
			l.entryKind(path.Join(topic, dir, name), e) // reports the link
			continue
		}
		// An irregular language file is reported where it is read.
		if name == "question.yaml" || e.IsDir() {
			continue
		}
		lang := strings.TrimSuffix(name, ".md")
		if _, ok := examsim.ParseLang(lang); !ok || lang == name {
			f.add(1, "check.unexpected_file", "File", name)
		}
	}
}

type textYAML struct {
	Title  string `yaml:"title"`
	Rubric struct {
		Concepts map[string]struct {
			Hint     string   `yaml:"hint"`
			Patterns []string `yaml:"patterns"`
		} `yaml:"concepts"`
		Misconceptions map[string]struct {
			Why      string   `yaml:"why"`
			Patterns []string `yaml:"patterns"`
		} `yaml:"misconceptions"`
	} `yaml:"rubric"`
	Sources []Source `yaml:"sources"`
}

// loadText loads one language of a question and returns its option letters.
func (l *loader) loadText(t *Topic, dir string, lang examsim.Lang, meta *file, neutral scoring.Rubric) (text *Text, letters []string) {
	rel := path.Join(t.ID, dir, string(lang)+".md")
	data, ok := l.read(rel, meta, 1)
	if !ok {
		return nil, nil
	}
	f := l.fileAt(rel)
	before := len(l.problems)
	defer func() {
		if len(l.problems) > before {
			text = nil
		}
	}()
	md, ok := splitFrontMatter(f, data)
	if !ok {
		return nil, nil
	}
	if l.deferRubrics {
		if tx, letters, ok := l.loadTextHead(t, f, md, lang, neutral); ok {
			return tx, letters
		}
	}
	tm, rubric, ok := parseFrontMatter(f, md.frontMatter, md.fmLine, t, lang, neutral)
	if !ok {
		return nil, nil
	}
	return buildText(f, md, tm, rubric)
}

// parseFrontMatter decodes and checks a language file's whole front matter:
// its title, rubric and sources.
func parseFrontMatter(f *file, frontMatter []byte, fmLine int, t *Topic, lang examsim.Lang, neutral scoring.Rubric) (*textYAML, *scoring.Rubric, bool) {
	var tm textYAML
	root, ok := decodeYAML(f, frontMatter, fmLine, &tm)
	if !ok {
		return nil, nil, false
	}
	lines := yamlLines{root: root, first: fmLine}
	checkTitle(f, lines, &tm)
	rubric := localRubric(f, lines, lang, neutral, &tm)
	checkUnknownRubricIDs(f, lines, neutral, &tm)
	checkSources(f, lines, t, tm.Sources)
	return &tm, rubric, true
}

func checkTitle(f *file, lines yamlLines, tm *textYAML) {
	if strings.TrimSpace(tm.Title) == "" {
		f.add(lines.of("title"), "check.title")
	}
}

// localRubric completes the neutral rubric with this language's hints,
// whys and patterns.
func localRubric(f *file, lines yamlLines, lang examsim.Lang, neutral scoring.Rubric, tm *textYAML) *scoring.Rubric {
	rubric := &scoring.Rubric{Version: neutral.Version, Lang: lang, Answer: neutral.Answer}
	for _, c := range neutral.Concepts {
		lc, ok := tm.Rubric.Concepts[c.ID]
		if !ok {
			f.add(lines.of("rubric"), "check.rubric_concept_missing", "ID", quote(c.ID))
			continue
		}
		if strings.TrimSpace(lc.Hint) == "" {
			f.add(lines.of("rubric", "concepts", c.ID), "check.rubric_hint", "ID", quote(c.ID))
		}
		c.Hint = lc.Hint
		c.Patterns = compilePatterns(f, lines, lang, "check.rubric_concept_no_patterns", c.ID, lc.Patterns, "rubric", "concepts", c.ID)
		rubric.Concepts = append(rubric.Concepts, c)
	}
	for _, m := range neutral.Misconceptions {
		lm, ok := tm.Rubric.Misconceptions[m.ID]
		if !ok {
			f.add(lines.of("rubric"), "check.rubric_misconception_missing", "ID", quote(m.ID))
			continue
		}
		if strings.TrimSpace(lm.Why) == "" {
			f.add(lines.of("rubric", "misconceptions", m.ID), "check.rubric_why", "ID", quote(m.ID))
		}
		m.Why = lm.Why
		m.Patterns = compilePatterns(f, lines, lang, "check.rubric_misconception_no_patterns", m.ID, lm.Patterns, "rubric", "misconceptions", m.ID)
		rubric.Misconceptions = append(rubric.Misconceptions, m)
	}
	return rubric
}

// compilePatterns compiles the patterns of the rubric entry at keys,
// reporting each that does not compile on its own line; noPatterns is the
// message key for an entry with none.
func compilePatterns(f *file, lines yamlLines, lang examsim.Lang, noPatterns, id string, sources []string, keys ...string) []*scoring.Pattern {
	var out []*scoring.Pattern
	if len(sources) == 0 {
		f.add(lines.of(keys...), noPatterns, "ID", quote(id), "Lang", string(lang))
	}
	seq := lookup(lines.root, append(keys, "patterns")...)
	for i, src := range sources {
		pl := lines.of(keys...)
		if seq != nil && i < len(seq.Content) {
			pl = lines.first + seq.Content[i].Line - 1
		}
		p, err := scoring.CompilePattern(src)
		if err != nil {
			f.addErr(pl, err)
			continue
		}
		out = append(out, p)
	}
	return out
}

// checkUnknownRubricIDs reports rubric entries of this language that
// question.yaml does not have.
func checkUnknownRubricIDs(f *file, lines yamlLines, neutral scoring.Rubric, tm *textYAML) {
	for id := range tm.Rubric.Concepts {
		if !slices.ContainsFunc(neutral.Concepts, func(c scoring.Concept) bool { return c.ID == id }) {
			f.add(lines.of("rubric", "concepts", id), "check.rubric_concept_unknown", "ID", quote(id))
		}
	}
	for id := range tm.Rubric.Misconceptions {
		if !slices.ContainsFunc(neutral.Misconceptions, func(m scoring.Misconception) bool { return m.ID == id }) {
			f.add(lines.of("rubric", "misconceptions", id), "check.rubric_misconception_unknown", "ID", quote(id))
		}
	}
}

// checkSources checks each source and gives a lesson source its URL.
func checkSources(f *file, lines yamlLines, t *Topic, sources []Source) {
	for i := range sources {
		s := &sources[i]
		sl := lines.of("sources")
		if n := lookup(lines.root, "sources"); n != nil && i < len(n.Content) {
			sl = lines.first + n.Content[i].Line - 1
		}
		switch {
		case s.Lesson != "" && !slices.Contains(t.Concepts, s.Lesson):
			f.add(sl, "check.source_lesson", "N", i+1, "Lesson", quote(s.Lesson), "Topic", t.ID)
		case s.Lesson != "" && s.URL != "":
			f.add(sl, "check.source_both", "N", i+1, "Topic", t.ID, "Lesson", s.Lesson)
		case s.Lesson != "":
			s.URL = "/learn/" + t.ID + "#" + s.Lesson
		case strings.TrimSpace(s.Title) == "":
			f.add(sl, "check.source_title", "N", i+1)
		}
	}
}

// buildText parses the Markdown body into the stem and options, to be
// rendered on first view, returning the text and its option letters.
func buildText(f *file, md *markdownFile, tm *textYAML, rubric *scoring.Rubric) (*Text, []string) {
	var letters []string
	stem, options := parseBody(f, md)
	tx := &Text{Title: tm.Title, rubric: rubric, Sources: tm.Sources, StemMarkdown: stem,
		stem: newRendered(f, md.bodyLine, stem)}
	for _, o := range options {
		letters = append(letters, o.letter)
		text := strings.Join(o.text, "\n")
		tx.Options = append(tx.Options, Option{Letter: o.letter, Markdown: strings.TrimSpace(text),
			text: newRendered(f, o.line, text), explanation: newRendered(f, o.line, strings.Join(o.explanation, "\n"))})
	}
	return tx, letters
}

type rawOption struct {
	letter      string
	line        int
	text        []string
	explanation []string
}

var optionHeading = regexp.MustCompile(`^##\s+(\S+)\s*$`)

// parseBody splits a question body into the stem and its options. Headings
// inside fenced code blocks are left alone.
func parseBody(f *file, md *markdownFile) (string, []rawOption) {
	var stem []string
	var options []rawOption
	inFence := false
	for i, ln := range md.body {
		lineNo := md.bodyLine + i
		trimmed := strings.TrimSpace(ln)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			inFence = !inFence
		}
		if m := optionHeading.FindStringSubmatch(ln); m != nil && !inFence {
			want := string(rune('A' + len(options))) // #nosec G115 -- a count of headings in one file
			if m[1] != want {
				f.add(lineNo, "check.option_heading", "Heading", quote(m[1]), "Want", want)
			}
			// A copy: the letter outlives the file, which a substring would keep whole.
			options = append(options, rawOption{letter: strings.Clone(m[1]), line: lineNo})
			continue
		}
		if len(options) == 0 {
			stem = append(stem, ln)
			continue
		}
		o := &options[len(options)-1]
		if strings.HasPrefix(trimmed, ">") && !inFence {
			o.explanation = append(o.explanation, strings.TrimPrefix(strings.TrimPrefix(trimmed, ">"), " "))
		} else {
			o.text = append(o.text, ln)
		}
	}
	stemText := strings.TrimSpace(strings.Join(stem, "\n"))
	if stemText == "" {
		f.add(md.bodyLine, "check.stem_empty")
	}
	if len(options) < 2 || len(options) > 6 {
		f.add(md.bodyLine, "check.option_count", "Count", len(options))
	}
	for _, o := range options {
		if strings.TrimSpace(strings.Join(o.text, "\n")) == "" {
			f.add(o.line, "check.option_text", "Letter", o.letter)
		}
		if strings.TrimSpace(strings.Join(o.explanation, "\n")) == "" {
			f.add(o.line, "check.option_explanation", "Letter", o.letter)
		}
	}
	return stemText, options
}

// sectionOrder lists the concepts in the order their anchored headings
// appear in a lesson body, for its table of contents; a concept without
// one (already a problem) goes last.
func sectionOrder(body string, concepts []string) []string {
	out := slices.Clone(concepts)
	at := func(c string) int {
		if i := strings.Index(body, "{#"+c+"}"); i >= 0 {
			return i
		}
		return len(body)
	}
	slices.SortStableFunc(out, func(a, b string) int { return at(a) - at(b) })
	return out
}
