package scoring_test

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/scoring"
)

// oneWordTexts are scored between the corpus's texts: the shortest paths
// through the reader, where state left by the previous text shows first.
var oneWordTexts = []string{"", " ", "C", "B", "retry", "không", "nie", "ไม่", "ok.", "?", "isError"}

// TestScoringInSequenceEqualsFreshIndex scores every text of the labelled
// corpus, its minimal pairs, the empty text and one-word texts, shuffled,
// one after another in one process (as a server does), and requires each
// result to equal the one a newly built index gives: nothing a text leaves
// in the pooled index may change the next text's result.
func TestScoringInSequenceEqualsFreshIndex(t *testing.T) {
	bank := loadBank(t)
	type job struct{ question, lang, text string }
	var jobs []job
	for _, it := range scoring.LoadCorpus(t) {
		jobs = append(jobs, job{it.Question, it.Lang, it.Text})
	}
	for _, p := range scoring.LoadPairs(t) {
		jobs = append(jobs, job{p.Question, p.Lang, p.Higher}, job{p.Question, p.Lang, p.Lower})
	}
	if len(jobs) == 0 {
		t.Fatal("no corpus texts: check testdata/corpus")
	}
	rng := rand.New(rand.NewPCG(20, 1))
	n := len(jobs)
	for i := 0; i < n; i += 3 {
		for _, w := range oneWordTexts {
			jobs = append(jobs, job{jobs[i].question, jobs[i].lang, w})
		}
	}
	rng.Shuffle(len(jobs), func(i, j int) { jobs[i], jobs[j] = jobs[j], jobs[i] })
	for i, j := range jobs {
		q, ok := bank.Question(j.question)
		lang, okLang := examsim.ParseLang(j.lang)
		if !ok || !okLang || q.Text(lang) == nil {
			t.Fatalf("no question %s in %q", j.question, j.lang)
		}
		r := q.Text(lang).Rubric()
		got, err := r.Score(j.text)
		if err != nil {
			t.Fatalf("text %d (%s %s, after %q): %v", i, j.lang, j.question, previous(jobs, i), err)
		}
		want, err := scoring.ScoreFresh(r, j.text)
		if err != nil {
			t.Fatalf("fresh index, %s %s %q: %v", j.lang, j.question, j.text, err)
		}
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("text %d (%s %s) %q after %q: pooled differs from fresh (-fresh +pooled):\n%s", i, j.lang, j.question, j.text, previous(jobs, i), diff)
		}
	}
}

func previous[T any](jobs []T, i int) any {
	if i == 0 {
		return nil
	}
	return jobs[i-1]
}

// FuzzScorePairs scores two texts one after the other with one rubric and
// requires the second's result to equal a fresh index's: the first text must
// leave nothing behind. `go test` runs the seeds; run
// `go test -fuzz FuzzScorePairs ./scoring` to search further.
func FuzzScorePairs(f *testing.F) {
	seeds := [][2]string{
		{"C is the best one because it is more correct.", ""},
		{"B is fine, retrying is a good shortcut.", " "},
		{"Chọn B cũng được, thử lại là cách gọn nhất.", "B"},
		{"Opcja B też jest ok, ponawianie wystarczy.", "nie"},
		{"แบบข้อ B ก็โอเค retry ก็ได้", "ไม่"},
		{"If it were transient, a retry would work; instead of retrying, escalate.", "retry"},
		{"", "A is fine."},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	bank := loadBank(f)
	var rubrics []*scoring.Rubric
	for _, id := range []string{"empty-result-retry-loop", "refund-over-limit-retries"} {
		q, ok := bank.Question(id)
		if !ok {
			f.Fatalf("no question %s in the bank", id)
		}
		for _, l := range examsim.Langs {
			rubrics = append(rubrics, q.Text(l).Rubric())
		}
	}
	f.Fuzz(func(t *testing.T, first, second string) {
		for _, r := range rubrics {
			_, _ = r.Score(first) // its result is checked by FuzzScore; only what it leaves matters here
			got, err := r.Score(second)
			want, errFresh := scoring.ScoreFresh(r, second)
			if (err == nil) != (errFresh == nil) {
				t.Fatalf("[%s] after %q, %q: err %v, fresh index err %v", r.Lang, first, second, err, errFresh)
			}
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("[%s] %q after %q: pooled differs from fresh (-fresh +pooled):\n%s", r.Lang, second, first, diff)
			}
		}
	})
}
