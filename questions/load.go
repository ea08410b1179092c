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
	l := &loader{fsys: fsys, display: display}
	bank := &Bank{byID: map[string]*Question{}, topicByID: map[string]*Topic{}}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		l.fileAt(".").addf(1, "cannot read the bank folder: %v", err)
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
				l.fileAt(path.Join(topic.ID, q.ID, "question.yaml")).addf(1, "question id %q is used twice (also in topic %s)", q.ID, prev.Topic)
				continue
			}
			bank.byID[q.ID] = q
			bank.Questions = append(bank.Questions, q)
		}
	}
	if n := withoutLessonSource(bank.Questions); n > 0 {
		l.fileAt(".").warnf(&l.warnings, 1, "%d of %d questions have no source `lesson: <concept-id>` pointing at the lesson section that supports the key", n, len(bank.Questions))
	}
	bank.Warnings = l.warnings
	if len(bank.Questions) == 0 && len(l.problems) == 0 {
		l.fileAt(".").addf(1, "the bank has no questions: add <topic>/<question-id>/question.yaml (see questions/FORMAT.md)")
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
}

func (l *loader) fileAt(rel string) *file {
	return &file{path: path.Join(l.display, rel), problems: &l.problems}
}

// read returns a language file's bytes, or reports it missing at the file
// that needs it.
func (l *loader) read(rel string, need *file, line int) ([]byte, bool) {
	return l.readText(rel, need, line, fmt.Sprintf("%s is missing: every question and lesson needs all of en, vi, pl and th", path.Base(rel)))
}

// MaxFileBytes is the largest bank file the loader reads; the longest
// question file today is a few kilobytes.
const MaxFileBytes = 1 << 20

// readText reads a bank file that must be a regular UTF-8 text file. A
// missing, irregular or oversized file is reported at need (the file that
// requires it), with missing as the message when it does not exist; bad
// bytes are reported at their own line of the file itself. The file is
// stat-ed first and opened only when regular, so a named pipe never blocks.
func (l *loader) readText(rel string, need *file, line int, missing string) ([]byte, bool) {
	info, err := fs.Stat(l.fsys, rel)
	switch {
	case err != nil:
		need.addf(line, "%s", missing)
		return nil, false
	case !info.Mode().IsRegular():
		need.addf(line, "%s is not a regular file (a named pipe, device or socket): replace it with a UTF-8 text file", path.Base(rel))
		return nil, false
	case info.Size() > MaxFileBytes:
		need.addf(line, "%s is %d bytes: a bank file may have at most %d; split the text", path.Base(rel), info.Size(), MaxFileBytes)
		return nil, false
	}
	data, err := fs.ReadFile(l.fsys, rel)
	if err != nil {
		need.addf(line, "cannot read %s: %v", path.Base(rel), err)
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
			f.addf(i+1, "the line is not valid UTF-8: save the file as UTF-8")
			ok = false
			continue
		}
		if j := bytes.IndexFunc(ln, func(r rune) bool { return (r < 0x20 && r != '\t') || r == 0x7f }); j >= 0 {
			r, _ := utf8.DecodeRune(ln[j:])
			f.addf(i+1, "the line holds the control character U+%04X: remove it", r)
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
		l.fileAt(rel).addf(1, "is a symbolic link: the bank does not follow links (go:embed would drop it); put the folder or file itself here instead")
		return false, false
	case t.IsDir():
		return true, true
	case !t.IsRegular():
		l.fileAt(rel).addf(1, "is not a folder or a regular file (a named pipe, device or socket): remove it")
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
	data, ok := l.readText(rel, f, 1, "missing: every topic folder needs a topic.yaml with its id and concepts")
	if !ok {
		return nil
	}
	var meta topicYAML
	root, ok := decodeYAML(f, data, 1, &meta)
	if !ok {
		return nil
	}
	if meta.ID != dir {
		f.addf(lineOf(root, 1, 1, "id"), "id %q must equal the folder name %q", meta.ID, dir)
	}
	if len(meta.Concepts) == 0 {
		f.addf(lineOf(root, 1, 1, "concepts"), "concepts: list at least one concept id")
	}
	seen := map[string]bool{}
	for i, c := range meta.Concepts {
		line := 1
		if n := lookup(root, "concepts"); n != nil && i < len(n.Content) {
			line = n.Content[i].Line
		}
		switch {
		case !idPattern.MatchString(c):
			f.addf(line, "concept id %q must be lowercase words joined by hyphens", c)
		case seen[c]:
			f.addf(line, "concept id %q is listed twice", c)
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
			f.addf(line, "objective id %q must be three or more numbers joined by dots, such as \"2.2.1\"", o.ID)
		case seenID[o.ID]:
			f.addf(line, "objective %s is listed twice", o.ID)
		}
		seenID[o.ID] = true
		if len(o.Concepts) == 0 {
			f.addf(line, "objective %s: list the concepts it covers under concepts:", o.ID)
		}
		for _, c := range o.Concepts {
			cl := lineOf(item, 1, line, "concepts")
			switch {
			case !slices.Contains(t.Concepts, c):
				f.addf(cl, "objective %s: concept %q is not in concepts:", o.ID, c)
			case owner[c] != "":
				f.addf(cl, "concept %q is in objectives %s and %s: every concept belongs to exactly one", c, owner[c], o.ID)
			default:
				owner[c] = o.ID
			}
		}
		weight := 1
		if o.Weight != nil {
			weight = *o.Weight
			if weight < 1 {
				f.addf(lineOf(item, 1, line, "weight"), "objective %s: weight %d must be a whole number of 1 or more (its share of a blueprint exam's questions)", o.ID, weight)
			}
		}
		t.Objectives = append(t.Objectives, Objective{ID: o.ID, Concepts: o.Concepts, Weight: weight})
	}
	if len(meta.Objectives) == 0 {
		return
	}
	for _, c := range t.Concepts {
		if owner[c] == "" {
			f.addf(lineOf(root, 1, 1, "objectives"), "concept %q is in no objective: once a topic has objectives, every concept belongs to one", c)
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
			w.addf(ls.revisionLine, "no source_revision: record the lesson.en.md revision (%d) this translation was made from", en.Revision)
		} else {
			w.addf(ls.revisionLine, "source_revision %d is below lesson.en.md's revision %d: the English changed since; re-sync this translation and raise source_revision", ls.SourceRevision, en.Revision)
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
		f.addf(lineOf(root, md.fmLine, 1, "title"), "title is empty: give the lesson a title")
	}
	body := strings.Join(md.body, "\n")
	for _, c := range t.Concepts {
		if strings.TrimSpace(meta.Concepts[c]) == "" {
			f.addf(lineOf(root, md.fmLine, 1, "concepts"), "concepts: give concept %q a display name", c)
		}
		if !strings.Contains(body, "{#"+c+"}") {
			f.addf(md.bodyLine, "no heading is anchored to concept %q: end one with {#%s}", c, c)
		}
	}
	for c := range meta.Concepts {
		if !slices.Contains(t.Concepts, c) {
			f.addf(lineOf(root, md.fmLine, 1, "concepts", c), "concept %q is not in topic.yaml", c)
		}
	}
	for _, o := range t.Objectives {
		if strings.TrimSpace(meta.Objectives[o.ID]) == "" {
			f.addf(lineOf(root, md.fmLine, 1, "objectives"), "objectives: give objective %s a display title", o.ID)
		}
	}
	for id := range meta.Objectives {
		if !slices.ContainsFunc(t.Objectives, func(o Objective) bool { return o.ID == id }) {
			f.addf(lineOf(root, md.fmLine, 1, "objectives", id), "objective %q is not in topic.yaml", id)
		}
	}
	lesson := &Lesson{Title: meta.Title, Summary: meta.Summary, ConceptNames: meta.Concepts, ObjectiveNames: meta.Objectives,
		Sections: sectionOrder(body, t.Concepts)}
	if lang == examsim.English {
		if meta.SourceRevision != nil {
			f.addf(lineOf(root, md.fmLine, 1, "source_revision"), "source_revision is for translations: the English lesson has revision")
		}
		if meta.Revision != nil {
			if lesson.Revision = *meta.Revision; lesson.Revision < 1 {
				f.addf(lineOf(root, md.fmLine, 1, "revision"), "revision %d must be a whole number from 1: raise it whenever the English changes", lesson.Revision)
			}
		}
	} else {
		if meta.Revision != nil {
			f.addf(lineOf(root, md.fmLine, 1, "revision"), "revision is for lesson.en.md: a translation records the English revision it was made from as source_revision")
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
				ql := &loader{fsys: l.fsys, display: l.display}
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
	data, ok := l.readText(rel, f, 1, "missing: every question folder needs a question.yaml (see questions/FORMAT.md)")
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
		f.addf(lines.of("answer"), "answer %q is not one of the options %s", meta.Answer, strings.Join(letters, ", "))
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
		f.addf(lines.of("id"), "id %q must equal the folder name %q", meta.ID, dir)
	}
	if meta.Topic != t.ID {
		f.addf(lines.of("topic"), "topic %q must equal the topic folder %q", meta.Topic, t.ID)
	}
	if len(meta.Concepts) == 0 {
		f.addf(lines.of("concepts"), "concepts: tag at least one concept of topic %s", t.ID)
	}
	for _, c := range meta.Concepts {
		if !slices.Contains(t.Concepts, c) {
			f.addf(lines.of("concepts"), "concept %q is not in %s/topic.yaml", c, t.ID)
		}
	}
	if !slices.Contains(Difficulties, Difficulty(meta.Difficulty)) {
		f.addf(lines.of("difficulty"), "difficulty %q must be easy, medium or hard", meta.Difficulty)
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
			f.addf(cl, "rubric concept %q: role %q must be decisive, supporting or conclusion", c.ID, c.Role)
		}
		if !idPattern.MatchString(c.ID) || seen[c.ID] {
			f.addf(cl, "rubric concept id %q must be unique lowercase words joined by hyphens", c.ID)
		}
		seen[c.ID] = true
		if role == scoring.Decisive {
			decisive++
		}
		w := role.DefaultWeight()
		if c.Weight != nil {
			w = *c.Weight
			if w < 1 || w > MaxConceptWeight {
				f.addf(wl, "rubric concept %q: weight %d must be a whole number from 1 to %d", c.ID, w, MaxConceptWeight)
			}
		}
		out = append(out, scoring.Concept{ID: c.ID, Role: role, Weight: w})
	}
	if decisive == 0 {
		f.addf(lines.of("rubric"), "rubric: mark at least one concept role: decisive")
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
			f.addf(ml, "rubric misconception id %q must be unique lowercase words joined by hyphens", m.ID)
		}
		seen[m.ID] = true
		p := scoring.DefaultPenalty
		if m.Penalty != nil {
			p = *m.Penalty
			if p < 1 || p > MaxPenalty {
				f.addf(pl, "rubric misconception %q: penalty %d must be a whole number from 1 to %d", m.ID, p, MaxPenalty)
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
			l.fileAt(path.Join(t.ID, dir, name)).addf(1, "options %s differ from %s in %s: every language needs the same option letters",
				strings.Join(txLetters, ","), strings.Join(letters, ","), lettersFrom)
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
			f.addf(1, "unexpected file %s: a question folder holds question.yaml and en.md, vi.md, pl.md, th.md", name)
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
	var tm textYAML
	root, ok := decodeYAML(f, md.frontMatter, md.fmLine, &tm)
	if !ok {
		return nil, nil
	}
	lines := yamlLines{root: root, first: md.fmLine}
	if strings.TrimSpace(tm.Title) == "" {
		f.addf(lines.of("title"), "title is empty: give the question a short title")
	}
	rubric := localRubric(f, lines, lang, neutral, &tm)
	checkUnknownRubricIDs(f, lines, neutral, &tm)
	checkSources(f, lines, t, tm.Sources)
	return buildText(f, md, &tm, rubric)
}

// localRubric completes the neutral rubric with this language's hints,
// whys and patterns.
func localRubric(f *file, lines yamlLines, lang examsim.Lang, neutral scoring.Rubric, tm *textYAML) *scoring.Rubric {
	rubric := &scoring.Rubric{Version: neutral.Version, Lang: lang, Answer: neutral.Answer}
	for _, c := range neutral.Concepts {
		lc, ok := tm.Rubric.Concepts[c.ID]
		if !ok {
			f.addf(lines.of("rubric"), "rubric concept %q from question.yaml has no hint and patterns here", c.ID)
			continue
		}
		if strings.TrimSpace(lc.Hint) == "" {
			f.addf(lines.of("rubric", "concepts", c.ID), "rubric concept %q needs a hint", c.ID)
		}
		c.Hint = lc.Hint
		c.Patterns = compilePatterns(f, lines, lang, "concept", c.ID, lc.Patterns, "rubric", "concepts", c.ID)
		rubric.Concepts = append(rubric.Concepts, c)
	}
	for _, m := range neutral.Misconceptions {
		lm, ok := tm.Rubric.Misconceptions[m.ID]
		if !ok {
			f.addf(lines.of("rubric"), "rubric misconception %q from question.yaml has no why and patterns here", m.ID)
			continue
		}
		if strings.TrimSpace(lm.Why) == "" {
			f.addf(lines.of("rubric", "misconceptions", m.ID), "rubric misconception %q needs a why", m.ID)
		}
		m.Why = lm.Why
		m.Patterns = compilePatterns(f, lines, lang, "misconception", m.ID, lm.Patterns, "rubric", "misconceptions", m.ID)
		rubric.Misconceptions = append(rubric.Misconceptions, m)
	}
	return rubric
}

// compilePatterns compiles the patterns of the rubric entry at keys,
// reporting each that does not compile on its own line.
func compilePatterns(f *file, lines yamlLines, lang examsim.Lang, kind, id string, sources []string, keys ...string) []*scoring.Pattern {
	var out []*scoring.Pattern
	if len(sources) == 0 {
		f.addf(lines.of(keys...), "rubric %s %q has no patterns in %s", kind, id, lang)
	}
	seq := lookup(lines.root, append(keys, "patterns")...)
	for i, src := range sources {
		pl := lines.of(keys...)
		if seq != nil && i < len(seq.Content) {
			pl = lines.first + seq.Content[i].Line - 1
		}
		p, err := scoring.CompilePattern(src)
		if err != nil {
			f.addf(pl, "%v", err)
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
			f.addf(lines.of("rubric", "concepts", id), "rubric concept %q is not in question.yaml", id)
		}
	}
	for id := range tm.Rubric.Misconceptions {
		if !slices.ContainsFunc(neutral.Misconceptions, func(m scoring.Misconception) bool { return m.ID == id }) {
			f.addf(lines.of("rubric", "misconceptions", id), "rubric misconception %q is not in question.yaml", id)
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
			f.addf(sl, "source %d: lesson %q is not a concept of %s/topic.yaml", i+1, s.Lesson, t.ID)
		case s.Lesson != "" && s.URL != "":
			f.addf(sl, "source %d: give lesson or url, not both; a lesson source links to /learn/%s#%s", i+1, t.ID, s.Lesson)
		case s.Lesson != "":
			s.URL = "/learn/" + t.ID + "#" + s.Lesson
		case strings.TrimSpace(s.Title) == "":
			f.addf(sl, "source %d needs a title", i+1)
		}
	}
}

// buildText parses the Markdown body into the stem and options, to be
// rendered on first view, returning the text and its option letters.
func buildText(f *file, md *markdownFile, tm *textYAML, rubric *scoring.Rubric) (*Text, []string) {
	var letters []string
	stem, options := parseBody(f, md)
	tx := &Text{Title: tm.Title, Rubric: rubric, Sources: tm.Sources, StemMarkdown: stem,
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
				f.addf(lineNo, "option heading %q: expected ## %s (options are ## A, ## B, … in order)", m[1], want)
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
		f.addf(md.bodyLine, "the scenario is empty: write it before the first ## A")
	}
	if len(options) < 2 || len(options) > 6 {
		f.addf(md.bodyLine, "found %d options: a question needs 2 to 6, as ## A, ## B, …", len(options))
	}
	for _, o := range options {
		if strings.TrimSpace(strings.Join(o.text, "\n")) == "" {
			f.addf(o.line, "option %s has no text", o.letter)
		}
		if strings.TrimSpace(strings.Join(o.explanation, "\n")) == "" {
			f.addf(o.line, "option %s has no explanation: add lines starting with > after its text", o.letter)
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
