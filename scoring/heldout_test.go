package scoring_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/examsim/examsim"
)

// The held-out writers (testdata/writers, README there): the figure that
// counts is QWK on the held-out writer × the held-out questions.

const writersDir = "testdata/writers"

// Floors of the held-out measure. They are never lowered; a figure short of
// them after real effort is recorded in shortfall.json, which then holds the
// gate at the recorded figure.
const (
	MinWriterQWK    = 0.80
	MaxWriterOffBy2 = 0.05
)

type writerItem struct {
	ID       string `json:"id"`
	Writer   string `json:"writer"`
	Question string `json:"question"`
	Lang     string `json:"lang"`
	Option   string `json:"option"`
	Text     string `json:"text"`
	band     int    // the primary grader's
	band2    int    // the second grader's, -1 when not double-graded
}

type writerSplit struct {
	HeldOutWriters   []string `json:"heldout_writers"`
	HeldOutQuestions []string `json:"heldout_questions"`
	TrainQuestions   []string `json:"train_questions"`
}

// writerShortfall records held-out figures below the floors, measured once
// after tuning (issue 20).
type writerShortfall struct {
	QWK      map[string]float64 `json:"qwk"`        // per language
	OffByTwo float64            `json:"off_by_two"` // share, 0-1
	Measured string             `json:"measured"`   // when and with what command
	Why      string             `json:"why"`        // what limits the figure
}

func readJSONLines[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// loadWriters returns every graded item and the split.
func loadWriters(t *testing.T) ([]writerItem, writerSplit) {
	t.Helper()
	var split writerSplit
	raw, err := os.ReadFile(filepath.Join(writersDir, "split.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &split); err != nil {
		t.Fatalf("split.json: %v", err)
	}
	type grade struct {
		ID   string `json:"id"`
		Band int    `json:"band"`
	}
	primary, second := map[string]int{}, map[string]int{}
	for _, g := range readJSONLines[grade](t, filepath.Join(writersDir, "grades/primary.jsonl")) {
		primary[g.ID] = g.Band
	}
	for _, g := range readJSONLines[grade](t, filepath.Join(writersDir, "grades/second.jsonl")) {
		second[g.ID] = g.Band
	}
	var items []writerItem
	for _, l := range examsim.Langs {
		for _, it := range readJSONLines[writerItem](t, filepath.Join(writersDir, "items", string(l)+".jsonl")) {
			b, ok := primary[it.ID]
			if !ok || b < 0 || b > 3 {
				t.Errorf("item %s: no primary band 0-3", it.ID)
				continue
			}
			it.band, it.band2 = b, -1
			if b2, ok := second[it.ID]; ok {
				it.band2 = b2
			}
			items = append(items, it)
		}
	}
	return items, split
}

// TestHeldOutWritersAreFrozen checks the split, items and grades against the
// digests recorded when they were copied in, before any tuning on them.
func TestHeldOutWritersAreFrozen(t *testing.T) {
	sums, err := os.ReadFile(filepath.Join(writersDir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(sums)), "\n") {
		want, name, ok := strings.Cut(line, "  ")
		if !ok {
			t.Fatalf("SHA256SUMS: bad line %q", line)
		}
		data, err := os.ReadFile(filepath.Join(writersDir, name))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != want {
			t.Errorf("%s changed since it was frozen: sha256 %s, recorded %s", name, got, want)
		}
		checked++
	}
	if checked < 7 || !strings.Contains(string(sums), "split.json") {
		t.Errorf("SHA256SUMS covers %d files; it must cover split.json, the four item files and both grade files", checked)
	}
}

// writerFigures are the agreement figures of a set of items.
type writerFigures struct {
	n             int
	qwk, lo, hi   float64
	offBy2        int
	human, scorer []int
}

func figuresOf(human, scorer []int) writerFigures {
	f := writerFigures{n: len(human), human: human, scorer: scorer}
	if f.n == 0 {
		return f
	}
	f.qwk = qwk(human, scorer, 4)
	f.lo, f.hi = bootstrapQWK(human, scorer)
	for i := range human {
		if d := human[i] - scorer[i]; d >= 2 || d <= -2 {
			f.offBy2++
		}
	}
	return f
}

func (f writerFigures) String() string {
	return fmt.Sprintf("n=%3d QWK=%.3f [95%% %.3f–%.3f] off-by-2=%d (%.1f%%)", f.n, f.qwk, f.lo, f.hi, f.offBy2, 100*float64(f.offBy2)/float64(max(f.n, 1)))
}

// TestHeldOutWriters scores the new writers' explanations with the learner's
// choice, as the app does, and reports aggregates only (never an item):
// per language, QWK with a bootstrap 95% interval on the held-out writer ×
// the held-out questions; per writer, the same on the held-out questions;
// the share off by two bands or more; the human–human QWK. It fails below
// MinWriterQWK in a language or above MaxWriterOffBy2 off by two, unless
// shortfall.json records the figure measured once after tuning, which then
// is the gate.
func TestHeldOutWriters(t *testing.T) {
	bank := loadBank(t)
	items, split := loadWriters(t)
	if len(split.HeldOutWriters) == 0 || len(split.HeldOutQuestions) < 10 {
		t.Fatalf("split.json holds out %d writers and %d questions: want a writer and at least 10 questions", len(split.HeldOutWriters), len(split.HeldOutQuestions))
	}
	heldQ := func(it writerItem) bool { return slices.Contains(split.HeldOutQuestions, it.Question) }
	type key struct{ writer, lang string }
	human, scorer := map[key][]int{}, map[key][]int{}
	var hh1, hh2 []int
	for _, it := range items {
		if !heldQ(it) {
			continue
		}
		q, ok := bank.Question(it.Question)
		lang, okLang := examsim.ParseLang(it.Lang)
		if !ok || !okLang || q.Text(lang) == nil {
			t.Errorf("item %s: no question %s in %q", it.ID, it.Question, it.Lang)
			continue
		}
		res, err := q.Text(lang).Rubric().ScoreChoice(it.Text, it.Option)
		if err != nil {
			t.Errorf("item %s: %v", it.ID, err)
			continue
		}
		for _, k := range []key{{it.Writer, it.Lang}, {it.Writer, ""}} {
			human[k], scorer[k] = append(human[k], it.band), append(scorer[k], res.Band)
		}
		if slices.Contains(split.HeldOutWriters, it.Writer) && it.band2 >= 0 {
			hh1, hh2 = append(hh1, it.band), append(hh2, it.band2)
		}
	}
	short := readShortfall(t)
	var report strings.Builder
	fmt.Fprintf(&report, "held-out questions (%d), scored with the learner's choice\n", len(split.HeldOutQuestions))
	var heldHuman, heldScorer []int
	for _, w := range split.HeldOutWriters {
		for _, l := range examsim.Langs {
			f := figuresOf(human[key{w, string(l)}], scorer[key{w, string(l)}])
			fmt.Fprintf(&report, "HELD-OUT writer %s × held-out questions, %s: %s\n", w, l, f)
			if f.n == 0 {
				t.Errorf("held-out writer %s: no graded items in %s", w, l)
				continue
			}
			heldHuman, heldScorer = append(heldHuman, f.human...), append(heldScorer, f.scorer...)
			floor := MinWriterQWK
			if rec, ok := short.QWK[string(l)]; ok && rec < floor {
				floor = rec
			}
			if f.qwk < floor-1e-9 {
				t.Errorf("held-out writer %s, %s: QWK %.3f is below %.3f (floor %.2f; shortfall.json records %v)", w, l, f.qwk, floor, MinWriterQWK, short.QWK[string(l)])
			}
		}
	}
	all := figuresOf(heldHuman, heldScorer)
	share := float64(all.offBy2) / float64(max(all.n, 1))
	fmt.Fprintf(&report, "HELD-OUT writer(s) × held-out questions, all languages: %s\n", all)
	ceiling := max(MaxWriterOffBy2, short.OffByTwo)
	if share > ceiling+1e-9 {
		t.Errorf("held-out writer × held-out questions: %.1f%% off by two bands or more, above %.1f%% (floor %.0f%%; shortfall.json records %.1f%%)", 100*share, 100*ceiling, 100*MaxWriterOffBy2, 100*short.OffByTwo)
	}
	writers := map[string]bool{}
	for k := range human {
		writers[k.writer] = true
	}
	var names []string
	for w := range writers {
		names = append(names, w)
	}
	slices.Sort(names)
	for _, w := range names {
		tag := "tuned on train questions only"
		if slices.Contains(split.HeldOutWriters, w) {
			tag = "held out"
		}
		fmt.Fprintf(&report, "writer %s (%s), held-out questions, all languages: %s\n", w, tag, figuresOf(human[key{w, ""}], scorer[key{w, ""}]))
		for _, l := range examsim.Langs {
			fmt.Fprintf(&report, "    %s: %s\n", l, figuresOf(human[key{w, string(l)}], scorer[key{w, string(l)}]))
		}
	}
	if len(hh1) > 0 {
		fmt.Fprintf(&report, "human–human QWK, held-out writer × held-out questions: %.3f (n=%d)\n", qwk(hh1, hh2, 4), len(hh1))
	}
	if short.Measured != "" {
		fmt.Fprintf(&report, "shortfall.json: measured %s; %s\n", short.Measured, short.Why)
	}
	t.Logf("agreement with rubric-blind graders on held-out writers:\n%s", report.String())
}

// readShortfall reads shortfall.json; without one, every floor holds.
func readShortfall(t *testing.T) writerShortfall {
	t.Helper()
	var s writerShortfall
	raw, err := os.ReadFile(filepath.Join(writersDir, "shortfall.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return s
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("shortfall.json: %v", err)
	}
	for l, v := range s.QWK {
		if v >= MinWriterQWK {
			t.Errorf("shortfall.json records %s QWK %.3f, which meets the floor %.2f: remove it", l, v, MinWriterQWK)
		}
	}
	return s
}
