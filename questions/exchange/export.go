package exchange

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing/fstest"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
	"go.yaml.in/yaml/v3"
)

// ErrNothingToExport is Export's answer when no question can join the
// bank: a zip of lessons alone is no bank.
var ErrNothingToExport = errors.New("exchange: no question can join the bank")

// Skip is an authored question Export left out, and why.
type Skip struct {
	ID     string
	Reason Note
}

// Export writes a zip of the bank's folder layout (questions/FORMAT.md):
// for each topic of qs, the bank's topic.yaml and lessons, the bank's own
// questions of that topic when withBank is set (the cue check then weighs
// the new questions among the old, as it will once they join), and every
// question of qs that the bank would accept. The zip is loaded and checked
// before it is returned; a question the bank refuses, lacks a language or a
// rubric is left out and listed in the skips with why. The zip passes
// `examsim questions check` once unpacked and loads with --questions.
func Export(w io.Writer, bank fs.FS, qs []*examsim.AuthoredQuestion, withBank bool) ([]Skip, error) {
	var skips []Skip
	var keep []*examsim.AuthoredQuestion
	for _, q := range qs {
		switch {
		case !ValidID(q.ID) || !ValidID(q.Topic):
			skips = append(skips, Skip{q.ID, note("export_bad_id", "ID", q.ID)})
		case len(q.Langs()) < len(examsim.Langs):
			skips = append(skips, Skip{q.ID, note("export_langs", "Langs", langList(q.Langs()))})
		case q.Rubric == nil:
			skips = append(skips, Skip{q.ID, note("export_rubric")})
		case bankHas(bank, q.Topic, q.ID):
			skips = append(skips, Skip{q.ID, note("export_id_taken", "ID", q.ID)})
		default:
			keep = append(keep, q)
		}
	}
	for {
		if len(keep) == 0 {
			return skips, ErrNothingToExport
		}
		files, err := bankFiles(bank, keep, withBank)
		if err != nil {
			return skips, err
		}
		data, err := zipFiles(files)
		if err != nil {
			return skips, err
		}
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return skips, err
		}
		_, problems := questions.Load(zr, "")
		bad := refused(problems, keep)
		if len(bad) == 0 {
			if len(problems) > 0 {
				return skips, fmt.Errorf("the bank's own files do not load: %v", problems)
			}
			_, err := w.Write(data)
			return skips, err
		}
		var still []*examsim.AuthoredQuestion
		for _, q := range keep {
			if p, ok := bad[q.ID]; ok {
				skips = append(skips, Skip{q.ID, note("export_check", "Problem", p)})
			} else {
				still = append(still, q)
			}
		}
		keep = still
	}
}

// refused maps each question of qs with a problem to its first problem.
func refused(problems questions.Problems, qs []*examsim.AuthoredQuestion) map[string]questions.Problem {
	bad := map[string]questions.Problem{}
	for _, p := range problems {
		for _, q := range qs {
			if _, seen := bad[q.ID]; !seen && strings.HasPrefix(p.Path, q.Topic+"/"+q.ID+"/") {
				bad[q.ID] = p
			}
		}
	}
	return bad
}

func bankHas(bank fs.FS, topic, id string) bool {
	_, err := fs.Stat(bank, path.Join(topic, id, "question.yaml"))
	return err == nil
}

func langList(ls []examsim.Lang) string {
	var s []string
	for _, l := range ls {
		s = append(s, string(l))
	}
	return strings.Join(s, " ")
}

// bankFiles lays out the files of the zip, path -> content.
func bankFiles(bank fs.FS, qs []*examsim.AuthoredQuestion, withBank bool) (map[string][]byte, error) {
	files := map[string][]byte{}
	topics := map[string]bool{}
	for _, q := range qs {
		if !topics[q.Topic] {
			topics[q.Topic] = true
			if err := copyTopic(bank, q.Topic, withBank, files); err != nil {
				return nil, err
			}
		}
		for name, data := range QuestionFiles(q) {
			files[path.Join(q.Topic, name)] = data
		}
	}
	return files, nil
}

// copyTopic copies a topic's topic.yaml and lessons, and with questions its
// question folders, from the bank.
func copyTopic(bank fs.FS, topic string, withQuestions bool, files map[string][]byte) error {
	return fs.WalkDir(bank, topic, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("topic %s is not in the bank: %w", topic, err)
		}
		depth := strings.Count(p, "/")
		if d.IsDir() {
			if depth == 1 && !withQuestions {
				return fs.SkipDir
			}
			return nil
		}
		data, err := fs.ReadFile(bank, p)
		files[p] = data
		return err
	})
}

func zipFiles(files map[string][]byte) ([]byte, error) {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range names {
		// A fixed time: the same questions give the same zip.
		f, err := zw.CreateHeader(&zip.FileHeader{Name: n, Method: zip.Deflate, Modified: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			return nil, err
		}
		if _, err := f.Write(files[n]); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

type questionYAML struct {
	ID         string      `yaml:"id"`
	Topic      string      `yaml:"topic"`
	Concepts   []string    `yaml:"concepts,flow"`
	Difficulty string      `yaml:"difficulty"`
	Answer     string      `yaml:"answer"`
	Rubric     *rubricYAML `yaml:"rubric,omitempty"`
}

type rubricYAML struct {
	Version        int `yaml:"version"`
	Concepts       []conceptYAML
	Misconceptions []misconceptionYAML `yaml:",omitempty"`
}

type conceptYAML struct {
	ID     string `yaml:"id"`
	Role   string `yaml:"role"`
	Weight int    `yaml:"weight,omitempty"`
}

type misconceptionYAML struct {
	ID      string `yaml:"id"`
	Penalty int    `yaml:"penalty,omitempty"`
}

type textYAML struct {
	Title  string `yaml:"title"`
	Rubric *struct {
		Concepts       map[string]ruleText `yaml:"concepts"`
		Misconceptions map[string]ruleText `yaml:"misconceptions,omitempty"`
	} `yaml:"rubric,omitempty"`
	Sources []map[string]string `yaml:"sources,omitempty"`
}

type ruleText struct {
	Hint     string   `yaml:"hint,omitempty"`
	Why      string   `yaml:"why,omitempty"`
	Patterns []string `yaml:"patterns"`
}

// QuestionFiles writes q in the bank's format: "<id>/question.yaml" and
// "<id>/<lang>.md" for each language it has. The rubric's version is the
// question's version, the one its answers are stored with.
func QuestionFiles(q *examsim.AuthoredQuestion) map[string][]byte {
	meta := questionYAML{ID: q.ID, Topic: q.Topic, Concepts: q.Concepts, Difficulty: q.Difficulty, Answer: q.Answer}
	if q.Rubric != nil {
		r := &rubricYAML{Version: max(q.Version, 1)}
		for _, c := range q.Rubric.Concepts {
			r.Concepts = append(r.Concepts, conceptYAML{c.ID, c.Role, c.Weight})
		}
		for _, m := range q.Rubric.Misconceptions {
			r.Misconceptions = append(r.Misconceptions, misconceptionYAML{m.ID, m.Penalty})
		}
		meta.Rubric = r
	}
	files := map[string][]byte{path.Join(q.ID, "question.yaml"): mustYAML(meta)}
	for _, lang := range q.Langs() {
		files[path.Join(q.ID, string(lang)+".md")] = languageFile(q, lang)
	}
	return files
}

func languageFile(q *examsim.AuthoredQuestion, lang examsim.Lang) []byte {
	tx := q.Texts[lang]
	tm := textYAML{Title: strings.TrimSpace(tx.Title)}
	if q.Rubric != nil {
		tm.Rubric = &struct {
			Concepts       map[string]ruleText `yaml:"concepts"`
			Misconceptions map[string]ruleText `yaml:"misconceptions,omitempty"`
		}{Concepts: map[string]ruleText{}, Misconceptions: map[string]ruleText{}}
		for _, c := range q.Rubric.Concepts {
			tm.Rubric.Concepts[c.ID] = ruleText{Hint: c.Notes[lang], Patterns: c.Patterns[lang]}
		}
		for _, m := range q.Rubric.Misconceptions {
			tm.Rubric.Misconceptions[m.ID] = ruleText{Why: m.Notes[lang], Patterns: m.Patterns[lang]}
		}
	}
	if q.LessonSource != "" {
		tm.Sources = []map[string]string{{"lesson": q.LessonSource}}
	}
	var b bytes.Buffer
	b.WriteString("---\n")
	b.Write(mustYAML(tm))
	b.WriteString("---\n\n")
	b.WriteString(escapeBody(tx.Stem, false))
	for _, o := range tx.Options {
		fmt.Fprintf(&b, "\n\n## %s\n\n%s\n", o.Letter, escapeBody(o.Text, true))
		for _, ln := range strings.Split(strings.TrimSpace(o.Explanation), "\n") {
			b.WriteString("\n" + strings.TrimRight("> "+ln, " "))
		}
	}
	b.WriteString("\n")
	return b.Bytes()
}

var headingLike = regexp.MustCompile(`^##\s+\S+\s*$`)

// escapeBody keeps text from being read as the bank's structure: outside
// code fences, a line that looks like an option heading, or (in an
// option's text) like an explanation line, is escaped with a backslash,
// which Markdown drops when it renders.
func escapeBody(s string, option bool) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	inFence := false
	for i, ln := range lines {
		trimmed := strings.TrimSpace(ln)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		if headingLike.MatchString(ln) || (option && strings.HasPrefix(trimmed, ">")) {
			lines[i] = `\` + trimmed
		}
	}
	return strings.Join(lines, "\n")
}

// mustYAML writes v as the bank does, indented by two spaces.
func mustYAML(v any) []byte {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		panic(err) // plain structs of strings and ints always marshal
	}
	return b.Bytes()
}

// Compile loads q through the bank's own loader, with its topic from bank:
// the one path that renders question text (sanitised, no raw HTML),
// compiles the rubric's patterns and runs `questions check`'s rules. The
// problems are the question's own, paths relative to its folder, without
// those an authored question is allowed: languages it does not have, and
// no rubric at all. q is usable when there are none. Without a rubric,
// each text's Rubric has no concepts: nothing is scored.
func Compile(bank fs.FS, q *examsim.AuthoredQuestion) (*questions.Question, questions.Problems) {
	if !ValidID(q.ID) || !ValidID(q.Topic) {
		return nil, questions.Problems{questions.NewProblem("question.yaml", 1, "check.authored_id", "ID", strconv.Quote(q.ID))}
	}
	files := fstest.MapFS{}
	add := map[string][]byte{}
	if err := copyTopic(bank, q.Topic, false, add); err != nil {
		return nil, questions.Problems{questions.NewProblem("question.yaml", 1, "check.authored_topic", "Topic", strconv.Quote(q.Topic))}
	}
	for name, data := range QuestionFiles(q) {
		add[path.Join(q.Topic, name)] = data
	}
	for name, data := range add {
		files[name] = &fstest.MapFile{Data: data}
	}
	loaded, problems := questions.Load(files, "")
	var own questions.Problems
	prefix := q.Topic + "/" + q.ID + "/"
	for _, p := range problems {
		rel, ok := strings.CutPrefix(p.Path, prefix)
		if !ok {
			if strings.HasPrefix(p.Path, q.Topic+"/") && !strings.Contains(strings.TrimPrefix(p.Path, q.Topic+"/"), "/") {
				continue // the bank's own topic files
			}
			rel = p.Path
		}
		if allowed(q, p) {
			continue
		}
		p.Path = rel
		own = append(own, p)
	}
	var out *questions.Question
	if loaded != nil {
		out, _ = loaded.Question(q.ID)
	}
	return out, own
}

// allowed says whether a problem is one an authored question may have.
func allowed(q *examsim.AuthoredQuestion, p questions.Problem) bool {
	switch p.Key {
	case "check.lang_missing":
		l, ok := examsim.ParseLang(strings.TrimSuffix(fmt.Sprint(p.Args["File"]), ".md"))
		return ok && q.Texts[l] == nil
	case "check.rubric_no_decisive":
		return q.Rubric == nil
	}
	return false
}
