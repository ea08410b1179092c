package scoring

// The rubric-blind labelled corpus (testdata/corpus, README there says how it
// was made): explanations written and graded by people who never saw a rubric
// or the scorer's output, split by whole question into train and test.

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const corpusDir = "testdata/corpus"

// corpusItem is one labelled explanation.
type corpusItem struct {
	ID       string `json:"id"`
	Question string `json:"question"`
	Lang     string `json:"lang"`
	Option   string `json:"option"` // the letter the learner picked
	Text     string `json:"text"`
	Kind     string `json:"kind"` // how it was written: refutation, bare, hedge, typo, ...

	Band  int    `json:"-"` // the first grader's band, 0-3
	Band2 int    `json:"-"` // the second grader's band, or -1 when not double-graded
	Split string `json:"-"` // "train" or "test"
}

// minimalPair is two explanations of one question that differ in polarity,
// refutation or supposition: the scorer must band Higher above Lower.
type minimalPair struct {
	ID       string `json:"id"`
	Question string `json:"question"`
	Lang     string `json:"lang"`
	Option   string `json:"option"`
	Higher   string `json:"higher"`
	Lower    string `json:"lower"`
	Kind     string `json:"kind"`
}

type corpusSplit struct {
	Test  []string `json:"test"`
	Train []string `json:"train"`
}

type grade struct {
	ID   string `json:"id"`
	Band int    `json:"band"`
}

// readJSONL decodes every non-empty line of path into a T, failing the test
// with path:line on a bad line.
func readJSONL[T any](tb testing.TB, path string) []T {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var v T
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			tb.Fatalf("%s:%d: %v", path, n, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

func loadSplit(tb testing.TB) corpusSplit {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(corpusDir, "split.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var s corpusSplit
	if err := json.Unmarshal(b, &s); err != nil {
		tb.Fatal(err)
	}
	return s
}

// loadCorpus returns every graded explanation with its bands and split.
// Items the first grader has not graded are left out.
func loadCorpus(tb testing.TB) []corpusItem {
	tb.Helper()
	split := loadSplit(tb)
	bands := map[string]int{}
	for _, g := range readJSONL[grade](tb, filepath.Join(corpusDir, "grades", "g1.jsonl")) {
		bands[g.ID] = g.Band
	}
	second := map[string]int{}
	if _, err := os.Stat(filepath.Join(corpusDir, "grades", "g2.jsonl")); err == nil {
		for _, g := range readJSONL[grade](tb, filepath.Join(corpusDir, "grades", "g2.jsonl")) {
			second[g.ID] = g.Band
		}
	}
	files, err := filepath.Glob(filepath.Join(corpusDir, "items", "*.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	var out []corpusItem
	for _, f := range files {
		for _, it := range readJSONL[corpusItem](tb, f) {
			b, ok := bands[it.ID]
			if !ok {
				continue
			}
			it.Band = b
			it.Band2 = -1
			if b2, ok := second[it.ID]; ok {
				it.Band2 = b2
			}
			switch {
			case slices.Contains(split.Test, it.Question):
				it.Split = "test"
			case slices.Contains(split.Train, it.Question):
				it.Split = "train"
			default:
				tb.Fatalf("%s: item %s is of question %s, which is in neither split", f, it.ID, it.Question)
			}
			out = append(out, it)
		}
	}
	return out
}

// loadPairs returns every minimal pair.
func loadPairs(tb testing.TB) []minimalPair {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(corpusDir, "pairs", "*.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	var out []minimalPair
	for _, f := range files {
		out = append(out, readJSONL[minimalPair](tb, f)...)
	}
	return out
}

// testSplitDigest hashes the test split's questions, items and grades in a
// fixed order, so any change to what the test split holds changes it.
func testSplitDigest(tb testing.TB) string {
	tb.Helper()
	split := loadSplit(tb)
	var lines []string
	lines = append(lines, "questions:"+strings.Join(split.Test, ","))
	for _, it := range loadCorpus(tb) {
		if it.Split != "test" {
			continue
		}
		b, _ := json.Marshal(struct {
			ID, Question, Lang, Option, Text, Kind string
			Band, Band2                            int
		}{it.ID, it.Question, it.Lang, it.Option, it.Text, it.Kind, it.Band, it.Band2})
		lines = append(lines, string(b))
	}
	slices.Sort(lines)
	h := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(h[:])
}

// TestTestSplitIsFrozen fails when the test split's content differs from the
// digest committed when it was frozen: items are never moved, added or
// regraded there after tuning began.
func TestTestSplitIsFrozen(t *testing.T) {
	want, err := os.ReadFile(filepath.Join(corpusDir, "test-split.sha256"))
	if err != nil {
		t.Fatal(err)
	}
	if got := testSplitDigest(t); got != strings.TrimSpace(string(want)) {
		t.Fatalf("test split changed: digest %s, frozen %s. The test split is frozen; restore it rather than update the digest.", got, strings.TrimSpace(string(want)))
	}
}
