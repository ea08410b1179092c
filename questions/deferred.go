package questions

import (
	"bytes"
	"io/fs"
	"runtime"
	"slices"
	"sync"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/scoring"
)

// LoadDeferred is Load for serve: it checks everything a page needs at
// once, but parses each language file's rubric block (most of a bank's
// YAML) on the first use of Text.Rubric, or in Bank.Complete, which serve
// runs as soon as it listens. A file whose rubric cannot be split off for
// certain is parsed whole, as Load parses it. A bank with any problem at
// load is loaded again by Load, so the problems are Load's to the letter:
// Load leaves out a text whose rubric fails, which changes the checks
// across a question's files (its option letters).
func LoadDeferred(fsys fs.FS, display string) (*Bank, Problems) {
	bank, problems := load(&loader{fsys: fsys, display: display, deferRubrics: true})
	if len(problems) > 0 {
		return Load(fsys, display)
	}
	return bank, nil
}

// Complete parses every rubric LoadDeferred left for first use and returns
// the problems, nil when there are none (and always for a bank from Load).
// It uses GOMAXPROCS-1 cores (at least one), leaving one to the requests
// served meanwhile. The problems are Load's (`questions check`'s): each is
// from Load's parse of the file, and the texts these files had were clean
// at load, so the checks across files were the same as Load's.
func (b *Bank) Complete() Problems {
	var pending []*Text
	for _, q := range b.Questions {
		for _, l := range examsim.Langs {
			if tx := q.Texts[l]; tx != nil && tx.deferred != nil {
				pending = append(pending, tx)
			}
		}
	}
	next := make(chan *Text)
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0)-1, len(pending))) {
		wg.Go(func() {
			for tx := range next {
				tx.Rubric()
			}
		})
	}
	for _, tx := range pending {
		next <- tx
	}
	close(next)
	wg.Wait()
	var problems Problems
	for _, tx := range pending {
		problems = append(problems, tx.deferred.problems...)
	}
	problems.sort()
	return problems
}

// deferredRubric is what parsing a language file's rubric on first use
// needs: its front matter (dropped once parsed) and where it came from.
type deferredRubric struct {
	once        sync.Once
	frontMatter []byte
	fmLine      int
	path        string
	topic       *Topic
	lang        examsim.Lang
	neutral     scoring.Rubric
	problems    Problems // set by parse
}

// parse is Load's parse of the whole front matter, which must give the
// title and sources the head gave tx. With problems, the rubric is the
// neutral one without hints or patterns, which scores nothing.
func (d *deferredRubric) parse(tx *Text) *scoring.Rubric {
	f := &file{path: d.path, problems: &d.problems}
	frontMatter := d.frontMatter
	d.frontMatter = nil
	tm, rubric, ok := parseFrontMatter(f, frontMatter, d.fmLine, d.topic, d.lang, d.neutral)
	if ok && (tm.Title != tx.Title || !slices.Equal(tm.Sources, tx.Sources)) {
		f.add(d.fmLine, "check.error", "Err", "read without its rubric block, the front matter gives another title or sources than read whole; "+
			"this is a bug in examsim's loader: please report it (`examsim questions check` reads the file whole)")
	}
	if len(d.problems) > 0 {
		return &scoring.Rubric{Version: d.neutral.Version, Lang: d.lang, Answer: d.neutral.Answer,
			Concepts: slices.Clone(d.neutral.Concepts), Misconceptions: slices.Clone(d.neutral.Misconceptions)}
	}
	return rubric
}

// loadTextHead loads a language file with its rubric block left for first
// use, when the block can be split off for certain and the rest has no
// problem; otherwise it reports nothing and returns false, and the caller
// parses the file whole, so every problem is worded and placed by Load's
// parse.
func (l *loader) loadTextHead(t *Topic, f *file, md *markdownFile, lang examsim.Lang, neutral scoring.Rubric) (*Text, []string, bool) {
	head, ok := withoutRubric(md.frontMatter)
	if !ok {
		return nil, nil, false
	}
	before := len(l.problems)
	var tm textYAML
	root, ok := decodeYAML(f, head, md.fmLine, &tm)
	var tx *Text
	var letters []string
	if ok {
		lines := yamlLines{root: root, first: md.fmLine}
		checkTitle(f, lines, &tm)
		checkSources(f, lines, t, tm.Sources)
		tx, letters = buildText(f, md, &tm, nil)
	}
	if !ok || len(l.problems) > before {
		l.problems = l.problems[:before]
		return nil, nil, false
	}
	// Not a copy: the front matter keeps the file's bytes, body too, until
	// the rubric is parsed (about 21 MB for 1,000 questions rather than
	// 11 MB, for the half second until Complete), which spares copying
	// every front matter at load.
	tx.deferred = &deferredRubric{frontMatter: md.frontMatter, fmLine: md.fmLine, path: f.path,
		topic: t, lang: lang, neutral: neutral}
	return tx, letters, true
}

// withoutRubric returns the front matter with its top-level rubric block
// blanked, each line kept empty so that every line keeps its number. The
// block is the `rubric:` line at column 0 and the lines up to the next one
// that starts at column 0 with neither a space nor `#`. It returns false
// when that split is not certain: no rubric key or more than one, a key
// written another way, tabs, document markers or directives, or an anchor,
// alias or merge key outside the block.
func withoutRubric(frontMatter []byte) ([]byte, bool) {
	if bytes.IndexByte(frontMatter, '\t') >= 0 {
		return nil, false
	}
	var head []byte // about a tenth of the front matter: grown, not sized to it
	found, inBlock := false, false
	for ln := range bytes.Lines(frontMatter) {
		if len(ln) > 0 && ln[0] != ' ' && ln[0] != '#' && ln[0] != '\n' {
			inBlock = false
		}
		switch {
		case bytes.HasPrefix(ln, []byte("---")), bytes.HasPrefix(ln, []byte("...")), bytes.HasPrefix(ln, []byte("%")):
			return nil, false
		case bytes.HasPrefix(ln, []byte("rubric")), bytes.HasPrefix(ln, []byte(`"rubric`)), bytes.HasPrefix(ln, []byte("'rubric")):
			rest := bytes.TrimPrefix(ln, []byte("rubric:"))
			if found || len(rest) == len(ln) || (len(rest) > 0 && rest[0] != ' ' && rest[0] != '\n') {
				return nil, false
			}
			found, inBlock = true, true
		}
		switch {
		case inBlock:
			if ln[len(ln)-1] == '\n' {
				head = append(head, '\n')
			}
		case bytes.ContainsAny(ln, "&*") || bytes.Contains(ln, []byte("<<")):
			return nil, false
		default:
			head = append(head, ln...)
		}
	}
	return head, found
}
