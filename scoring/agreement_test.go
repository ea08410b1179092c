package scoring_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/scoring"
)

// The agreement test on the rubric-blind corpus (testdata/corpus): the
// headline measure of the scorer. The old set in testdata/labelled is kept
// by TestAgreementWithHumanGrader.

// MaxBand3Misconceptions is the share of human band-3 explanations on which
// the scorer may find a misconception: a correct learner told they hold a
// misconception is the worst failure.
const MaxBand3Misconceptions = 0.03

// bootstrapRounds and bootstrapSeed fix the bootstrap, so the interval is the
// same on every run.
const (
	bootstrapRounds = 2000
	bootstrapSeed   = 12
)

// agreementSplits returns the splits to measure. EXAMSIM_AGREEMENT_SPLIT=train
// measures the train split alone: tuning must never look at the test split.
func agreementSplits() []string {
	if s := os.Getenv("EXAMSIM_AGREEMENT_SPLIT"); s == "train" {
		return []string{"train"}
	}
	return []string{"train", "test"}
}

// inTrainHalf reports whether a train question belongs to the half of train
// that EXAMSIM_AGREEMENT_HALF names ("a": the 1st, 3rd, ... train question in
// name order; "b": the 2nd, 4th, ...), so a rule developed on one half can be
// confirmed on the other. With the variable unset every question belongs.
func inTrainHalf(trainQuestions []string, question string) bool {
	half := os.Getenv("EXAMSIM_AGREEMENT_HALF")
	if half != "a" && half != "b" {
		return true
	}
	i := slices.Index(trainQuestions, question)
	return i >= 0 && (i%2 == 0) == (half == "a")
}

type scored struct {
	item    scoring.CorpusItem
	band    int
	unsure  bool
	miscons []string
}

// TestAgreement scores every graded explanation of the corpus and reports,
// per split and language, QWK with a bootstrap 95% interval, exact agreement,
// the confusion matrix, the human–human QWK, and how accurate sure and unsure
// results are. It fails when the test split's QWK is below MinHeldOutQWK in
// any language, when a minimal pair does not move the band the right way, or
// when more than MaxBand3Misconceptions of band-3 explanations get a
// misconception. Per-item lines are printed for the train split only: its
// disagreements with EXAMSIM_AGREEMENT_ITEMS=1, every item with what the
// scorer noticed with EXAMSIM_AGREEMENT_ITEMS=all.
func TestAgreement(t *testing.T) {
	bank := loadBank(t)
	items := scoring.LoadCorpus(t)
	if g1, err := os.ReadFile("testdata/corpus/grades/g1.jsonl"); err == nil && len(strings.TrimSpace(string(g1))) > 0 && len(items) == 0 {
		t.Fatal("grades/g1.jsonl has grades but no corpus item matches them: check testdata/corpus/items")
	}
	if len(items) == 0 {
		t.Skip("the corpus has no graded explanations yet (testdata/corpus/grades/g1.jsonl is empty): nothing to measure; the test runs as soon as grades land")
	}
	splits := agreementSplits()
	showItems := os.Getenv("EXAMSIM_AGREEMENT_ITEMS") == "1"
	showAll := os.Getenv("EXAMSIM_AGREEMENT_ITEMS") == "all" // every train item, with the scorer's signals
	var trainQuestions []string
	for _, it := range items {
		if it.Split == "train" && !slices.Contains(trainQuestions, it.Question) {
			trainQuestions = append(trainQuestions, it.Question)
		}
	}
	slices.Sort(trainQuestions)
	var results []scored
	for _, it := range items {
		if !slices.Contains(splits, it.Split) || (it.Split == "train" && !inTrainHalf(trainQuestions, it.Question)) {
			continue
		}
		q, ok := bank.Question(it.Question)
		lang, okLang := examsim.ParseLang(it.Lang)
		if !ok || !okLang || q.Text(lang) == nil {
			t.Errorf("item %s: no question %s in language %q", it.ID, it.Question, it.Lang)
			continue
		}
		if it.Band < 0 || it.Band > 3 {
			t.Errorf("item %s: band %d is not 0-3", it.ID, it.Band)
			continue
		}
		res, err := q.Text(lang).Rubric().Score(it.Text)
		if err != nil {
			t.Errorf("item %s: %v", it.ID, err)
			continue
		}
		results = append(results, scored{it, res.Band, res.Unsure(), res.MisconceptionIDs()})
		if (showItems && res.Band != it.Band || showAll) && it.Split == "train" {
			t.Logf("train %s %s %s (%s): human %d, scorer %d %v: %q", it.ID, it.Lang, it.Question, it.Kind, it.Band, res.Band, res.MisconceptionIDs(), it.Text)
			if showAll {
				t.Logf("  %s", scoring.Signals(q.Text(lang).Rubric(), it.Text))
			}
		}
	}

	var report strings.Builder
	fmt.Fprintf(&report, "rubric-blind corpus, %d graded explanations measured (splits: %s)\n", len(results), strings.Join(splits, ", "))
	fmt.Fprintf(&report, "concept precision/recall: the corpus has no concept labels (graders gave bands only); see TestAgreementWithHumanGrader for concept figures on testdata/labelled\n")
	band3, band3Wrong := 0, 0
	for _, split := range splits {
		for _, lang := range examsim.Langs {
			var human, machine, h1, h2 []int
			var sure, sureRight, unsure, unsureRight int
			for _, r := range results {
				if r.item.Split != split || r.item.Lang != string(lang) {
					continue
				}
				human, machine = append(human, r.item.Band), append(machine, r.band)
				if r.item.Band2 >= 0 {
					h1, h2 = append(h1, r.item.Band), append(h2, r.item.Band2)
				}
				if r.unsure {
					unsure++
					if r.band == r.item.Band {
						unsureRight++
					}
				} else {
					sure++
					if r.band == r.item.Band {
						sureRight++
					}
				}
				if r.item.Band == 3 {
					band3++
					if len(r.miscons) > 0 {
						band3Wrong++
						if showItems && split == "train" {
							t.Logf("train %s: band 3 by the grader, scorer finds %v", r.item.ID, r.miscons)
						}
					}
				}
			}
			if len(human) == 0 {
				fmt.Fprintf(&report, "%-5s %s: no graded explanations\n", split, lang)
				if split == "test" {
					t.Errorf("test split: no graded explanations in %s", lang)
				}
				continue
			}
			k := qwk(human, machine, 4)
			lo, hi := bootstrapQWK(human, machine)
			exact := 0
			for i := range human {
				if human[i] == machine[i] {
					exact++
				}
			}
			fmt.Fprintf(&report, "%-5s %s n=%4d QWK=%.3f [95%% %.3f–%.3f] exact=%.2f", split, lang, len(human), k, lo, hi, float64(exact)/float64(len(human)))
			if len(h1) > 0 {
				fmt.Fprintf(&report, " human-human QWK=%.3f (n=%d)", qwk(h1, h2, 4), len(h1))
			} else {
				fmt.Fprintf(&report, " human-human: no double grades")
			}
			fmt.Fprintf(&report, " sure=%d (exact %.2f) unsure=%d (exact %.2f)\n", sure, ratio(sureRight, sure), unsure, ratio(unsureRight, unsure))
			report.WriteString(confusion(human, machine))
			if split == "test" && k < MinHeldOutQWK {
				t.Errorf("test split, %s: QWK %.3f is below the floor %.2f", lang, k, MinHeldOutQWK)
			}
		}
	}
	if band3 > 0 {
		share := float64(band3Wrong) / float64(band3)
		fmt.Fprintf(&report, "band-3 explanations with a misconception found: %d of %d (%.1f%%, at most %.0f%% allowed)\n", band3Wrong, band3, 100*share, 100*MaxBand3Misconceptions)
		if share > MaxBand3Misconceptions {
			t.Errorf("%d of %d band-3 explanations get a misconception (%.1f%%), more than %.0f%%", band3Wrong, band3, 100*share, 100*MaxBand3Misconceptions)
		}
	}
	t.Logf("agreement on the rubric-blind corpus:\n%s", report.String())
}

// TestMinimalPairs scores each minimal pair: the higher explanation must get
// a strictly higher band than its negated, refuted or supposed twin.
func TestMinimalPairs(t *testing.T) {
	bank := loadBank(t)
	pairs := scoring.LoadPairs(t)
	if len(pairs) == 0 {
		t.Skip("the corpus has no minimal pairs yet (testdata/corpus/pairs/*.jsonl): nothing to check; the test runs as soon as they land")
	}
	perLang := map[string][2]int{}
	for _, p := range pairs {
		q, ok := bank.Question(p.Question)
		lang, okLang := examsim.ParseLang(p.Lang)
		if !ok || !okLang || q.Text(lang) == nil {
			t.Errorf("pair %s: no question %s in language %q", p.ID, p.Question, p.Lang)
			continue
		}
		hi, err1 := q.Text(lang).Rubric().Score(p.Higher)
		lo, err2 := q.Text(lang).Rubric().Score(p.Lower)
		if err1 != nil || err2 != nil {
			t.Errorf("pair %s: %v %v", p.ID, err1, err2)
			continue
		}
		c := perLang[p.Lang]
		c[0]++
		moves := hi.Band > lo.Band
		if moves {
			c[1]++
		}
		if !moves {
			t.Errorf("pair %s (%s, %s, %s): band %d for %q is not above band %d for %q (found %v / %v)",
				p.ID, p.Lang, p.Question, p.Kind, hi.Band, p.Higher, lo.Band, p.Lower, found(hi), found(lo))
		}
		perLang[p.Lang] = c
	}
	for _, lang := range examsim.Langs {
		c := perLang[string(lang)]
		t.Logf("minimal pairs %s: %d of %d move the band the right way", lang, c[1], c[0])
	}
}

// found lists the concepts hit and the misconceptions (marked !) found.
func found(r scoring.Result) []string {
	var out []string
	for _, c := range r.Concepts {
		if c.Hit {
			out = append(out, c.ID)
		}
	}
	for _, m := range r.Misconceptions {
		out = append(out, "!"+m.ID)
	}
	return out
}

// bootstrapQWK returns a 95% percentile interval for QWK by resampling the
// explanations with replacement, with a fixed seed.
func bootstrapQWK(human, machine []int) (lo, hi float64) {
	rng := rand.New(rand.NewPCG(bootstrapSeed, uint64(len(human))))
	ks := make([]float64, bootstrapRounds)
	a, b := make([]int, len(human)), make([]int, len(human))
	for r := range ks {
		for i := range a {
			j := rng.IntN(len(human))
			a[i], b[i] = human[j], machine[j]
		}
		ks[r] = qwk(a, b, 4)
	}
	sort.Float64s(ks)
	return ks[bootstrapRounds*25/1000], ks[bootstrapRounds*975/1000-1]
}

// confusion renders the confusion matrix: rows are the human band, columns
// the scorer's.
func confusion(human, machine []int) string {
	var m [4][4]int
	for i := range human {
		m[human[i]][machine[i]]++
	}
	var b strings.Builder
	b.WriteString("        scorer:  0    1    2    3\n")
	for h := range m {
		fmt.Fprintf(&b, "        human %d: %-4d %-4d %-4d %-4d\n", h, m[h][0], m[h][1], m[h][2], m[h][3])
	}
	return b.String()
}

func TestBootstrapIntervalHoldsTheEstimate(t *testing.T) {
	human := []int{0, 1, 2, 3, 3, 1, 0, 2, 2, 3, 1, 0}
	machine := []int{0, 1, 2, 3, 2, 1, 1, 2, 3, 3, 1, 0}
	lo, hi := bootstrapQWK(human, machine)
	k := qwk(human, machine, 4)
	if !(lo <= k && k <= hi && lo < hi) {
		t.Errorf("interval [%.3f, %.3f] does not hold QWK %.3f", lo, hi, k)
	}
	if lo2, hi2 := bootstrapQWK(human, machine); lo2 != lo || hi2 != hi {
		t.Errorf("bootstrap is not fixed: [%.3f, %.3f] then [%.3f, %.3f]", lo, hi, lo2, hi2)
	}
}
