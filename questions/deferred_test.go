package questions

import (
	"io/fs"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions/banktest"
	"github.com/examsim/examsim/scoring"
)

// textOptions compare two loaded texts by what they say: a pattern by its
// source, and options by letter and Markdown (rendering is tested apart).
var textOptions = cmp.Options{
	cmp.Comparer(func(a, b *scoring.Pattern) bool { return a.String() == b.String() }),
	cmpopts.IgnoreUnexported(Option{}),
}

// textView is what a page and a scorer read of a text.
type textView struct {
	Title   string
	Sources []Source
	Stem    string
	Options []Option
	Rubric  *scoring.Rubric
}

func viewOf(tx *Text) textView {
	return textView{Title: tx.Title, Sources: tx.Sources, Stem: tx.StemMarkdown, Options: tx.Options, Rubric: tx.Rubric()}
}

// bankView is every text of bank, keyed by question and language.
func bankView(bank *Bank) map[string]textView {
	out := map[string]textView{}
	for _, q := range bank.Questions {
		for l, tx := range q.Texts {
			out[q.ID+"/"+string(l)] = viewOf(tx)
		}
	}
	return out
}

func replicatedBank(t testing.TB, n int) fs.FS {
	t.Helper()
	src, _ := Embedded()
	fsys, err := banktest.Replicate(src, n)
	if err != nil {
		t.Fatal(err)
	}
	return fsys
}

// TestDeferredEqualsEager: a bank from LoadDeferred, once Complete has run,
// holds texts equal to Load's, rubrics included, and every rubric of these
// clean banks was in fact left for first use.
func TestDeferredEqualsEager(t *testing.T) {
	embedded, _ := Embedded()
	for name, fsys := range map[string]fs.FS{"embedded": embedded, "replicated": replicatedBank(t, 200), "good": goodBank()} {
		t.Run(name, func(t *testing.T) {
			eager, problems := Load(fsys, name)
			if len(problems) > 0 {
				t.Fatal(problems.Error())
			}
			deferred, problems := LoadDeferred(fsys, name)
			if len(problems) > 0 {
				t.Fatal(problems.Error())
			}
			texts := 0
			for _, q := range deferred.Questions {
				for l, tx := range q.Texts {
					texts++
					if tx.deferred == nil {
						t.Errorf("%s/%s: rubric parsed at load, want left for first use", q.ID, l)
					}
				}
			}
			if texts == 0 {
				t.Fatal("no texts")
			}
			if problems := deferred.Complete(); len(problems) > 0 {
				t.Fatalf("Complete: %s", problems.Error())
			}
			if diff := cmp.Diff(bankView(eager), bankView(deferred), textOptions); diff != "" {
				t.Errorf("deferred differs from eager (-eager +deferred):\n%s", diff)
			}
			if diff := cmp.Diff(eager.Warnings, deferred.Warnings); diff != "" {
				t.Errorf("warnings differ (-eager +deferred):\n%s", diff)
			}
		})
	}
}

// TestDeferredReportsLoadsProblems: whatever a language file's front matter
// holds, LoadDeferred (at load) or Complete (after) reports exactly the
// problems Load reports, at the same path:line; a front matter whose split
// is not certain is parsed whole at load.
func TestDeferredReportsLoadsProblems(t *testing.T) {
	for _, tc := range []struct {
		name        string
		edits       []string // old, new, …: replaced in en.md
		wantProblem bool
		wantDefer   bool // en.md's rubric is left for first use
	}{
		{name: "clean", wantDefer: true},
		{name: "bad pattern", edits: []string{`"valid empty"`, `"{neg} {!neg} x"`}, wantProblem: true, wantDefer: true},
		{name: "unknown rubric field", edits: []string{"  misconceptions:\n", "  colour: blue\n  misconceptions:\n"}, wantProblem: true, wantDefer: true},
		{name: "anchor used in the rubric", edits: []string{"title: Title en", "title: &t Title en"}, wantDefer: false},
		{name: "anchor inside the rubric", edits: []string{"      why: Because.", "      why: &w Because.\n      patterns: *w"},
			wantProblem: true, wantDefer: true},
		{name: "alias of a rubric anchor in the sources", edits: []string{"  - title: Spec", "  - title: *w", "      why: Because.", "      why: &w Because."}},
		{name: "merge key", edits: []string{"sources:\n  - title: Spec", "sources:\n  - <<: {title: Spec}"}, wantProblem: false},
		{name: "duplicate rubric key", edits: []string{"sources:", "rubric:\n  concepts: {}\nsources:"}, wantProblem: true},
		{name: "column-0 continuation", edits: []string{"      why: Because.", "      why: \"Because\n  and more.\"\n\"x\": 1"}, wantProblem: true},
		{name: "column-0 flow continuation", edits: []string{"rubric:\n", "rubric: {concepts: {},\nmisconceptions: {}}\nx:\n"}, wantProblem: true},
		{name: "tab", edits: []string{"      why: Because.", "      why:\tBecause."}, wantDefer: false},
		{name: "tab in a rubric scalar", edits: []string{"      why: Because.", "      why: \"Because\tso.\""}},
		{name: "empty rubric", edits: []string{"rubric:\n  concepts:\n", "rubric:\nrubric_old:\n  concepts:\n"}, wantProblem: true},
		{name: "rubric with no value", edits: []string{"rubric:\n  concepts:\n", "rubric:\n\ntitle2:\n  concepts:\n"}, wantProblem: true},
		{name: "document end", edits: []string{"sources:", "...\nsources:"}},
		{name: "quoted rubric key", edits: []string{"rubric:\n", "\"rubric\":\n"}, wantDefer: false},
		{name: "rubric key with a space", edits: []string{"rubric:\n", "rubric :\n"}, wantDefer: false},
		{name: "title problem and rubric problem", edits: []string{"title: Title en", "title: \"\"\ncolour: x"},
			wantProblem: true},
		{name: "rubric problem beside an option letter problem", edits: []string{`"valid empty"`, `"{neg} {!neg} x"`}, wantProblem: true, wantDefer: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := goodBank()
			for i := 0; i+1 < len(tc.edits); i += 2 {
				replaceIn(fsys, "t/q1/en.md", tc.edits[i], tc.edits[i+1])
			}
			if tc.name == "rubric problem beside an option letter problem" {
				replaceIn(fsys, "t/q1/pl.md", "## B\n", "## B\n\nSecond.\n\n> Why.\n\n## C\n")
			}
			_, want := Load(fsys, "bank")
			if (len(want) > 0) != tc.wantProblem {
				t.Fatalf("Load reports %d problems, want problems %v:\n%s", len(want), tc.wantProblem, want.Error())
			}
			bank, got := LoadDeferred(fsys, "bank")
			if len(got) == 0 {
				q, _ := bank.Question("q1")
				if tx := q.Text(examsim.English); tx != nil && (tx.deferred != nil) != tc.wantDefer {
					t.Errorf("rubric left for first use: %v, want %v", tx.deferred != nil, tc.wantDefer)
				}
				got = bank.Complete()
			}
			if diff := cmp.Diff(want.Error(), got.Error()); diff != "" {
				t.Errorf("problems differ (-Load +LoadDeferred/Complete):\n%s", diff)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("problems differ (-Load +LoadDeferred/Complete):\n%s", diff)
			}
		})
	}
}

// TestDeferredRubricAfterAProblem: a text whose deferred parse fails still
// gives a rubric, the neutral one without patterns, and the parse's
// problems are those Complete reports.
func TestDeferredRubricAfterAProblem(t *testing.T) {
	fsys := goodBank()
	replaceIn(fsys, "t/q1/th.md", `"valid empty"`, `"{neg} {!neg} x"`)
	bank, problems := LoadDeferred(fsys, "bank")
	if len(problems) > 0 {
		t.Fatalf("problems at load, want them at Complete: %s", problems.Error())
	}
	q, _ := bank.Question("q1")
	r := q.Text(examsim.Thai).Rubric()
	if r == nil || r.Lang != examsim.Thai || len(r.Concepts) != 2 || len(r.Misconceptions) != 1 {
		t.Fatalf("rubric after a failed parse = %+v, want the neutral one in Thai", r)
	}
	for _, c := range r.Concepts {
		if len(c.Patterns) > 0 || c.Hint != "" {
			t.Errorf("concept %s has a hint or patterns after a failed parse: %+v", c.ID, c)
		}
	}
	got := bank.Complete()
	if len(got) != 1 || got[0].Path != "bank/t/q1/th.md" || !strings.Contains(got[0].Msg, "{neg}") {
		t.Errorf("Complete = %v, want the bad pattern of th.md", got)
	}
}

// TestRubricDuringComplete: Rubric called from many goroutines while
// Complete runs (run it with -race) gives every caller the one rubric each
// text ends with.
func TestRubricDuringComplete(t *testing.T) {
	bank, problems := LoadDeferred(replicatedBank(t, 60), "bank")
	if len(problems) > 0 {
		t.Fatal(problems.Error())
	}
	var texts []*Text
	for _, q := range bank.Questions {
		for _, l := range examsim.Langs {
			if tx := q.Texts[l]; tx != nil {
				texts = append(texts, tx)
			}
		}
	}
	seen := make([][]*scoring.Rubric, 8)
	var wg sync.WaitGroup
	wg.Go(func() {
		if problems := bank.Complete(); len(problems) > 0 {
			t.Error(problems.Error())
		}
	})
	for g := range seen {
		wg.Go(func() {
			got := make([]*scoring.Rubric, len(texts))
			for k := range texts {
				i := (k + g*len(texts)/len(seen)) % len(texts)
				got[i] = texts[i].Rubric()
			}
			seen[g] = got
		})
	}
	wg.Wait()
	for g, got := range seen {
		for i, tx := range texts {
			if r := tx.Rubric(); got[i] != r || r == nil || len(r.Concepts) == 0 || len(r.Concepts[0].Patterns) == 0 {
				t.Fatalf("goroutine %d, text %d: got rubric %p, the text ends with %p (%+v)", g, i, got[i], r, r)
			}
		}
	}
}

// BenchmarkComplete is the work LoadDeferred leaves to Bank.Complete for a
// bank of 1,000 questions: every language file's rubric.
func BenchmarkComplete(b *testing.B) {
	fsys := replicatedBank(b, 1000)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		bank, problems := LoadDeferred(fsys, "bank")
		if len(problems) > 0 {
			b.Fatal(problems.Error())
		}
		b.StartTimer()
		if problems := bank.Complete(); len(problems) > 0 {
			b.Fatal(problems.Error())
		}
	}
}
