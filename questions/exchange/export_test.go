package exchange

import (
	"archive/zip"
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/questions/exchange/exchangetest"
	"github.com/google/go-cmp/cmp"
)

func TestExportLoadsAsABank(t *testing.T) {
	bankFS, _ := questions.Embedded()
	good := exchangetest.Question()
	good.Texts[examsim.English].Stem += "\n\n## B\n\nA line that looks like an option heading, and <script>alert(1)</script>."
	good.Texts[examsim.English].Options[1].Text = "Retry the call\n> after a backoff, in case the calendar answers later"
	partial := exchangetest.Question()
	partial.ID, partial.Texts = "only-english", map[examsim.Lang]*examsim.AuthoredText{examsim.English: partial.Texts[examsim.English]}
	unscored := exchangetest.Question()
	unscored.ID, unscored.Rubric = "no-rubric", nil
	broken := exchangetest.Question()
	broken.ID = "broken"
	broken.Texts[examsim.Polish].Options[1].Explanation = ""
	taken := exchangetest.Question()
	taken.ID = "empty-result-retry-loop"

	for _, withBank := range []bool{false, true} {
		var buf bytes.Buffer
		skips, err := Export(&buf, bankFS, []*examsim.AuthoredQuestion{good, partial, unscored, broken, taken}, withBank)
		if err != nil {
			t.Fatal(err)
		}
		var gotSkips []string
		for _, s := range skips {
			gotSkips = append(gotSkips, s.ID+": "+s.Reason.String())
		}
		wantSkips := []string{
			"only-english: written in en only: the bank needs every question in en, vi, pl and th",
			"no-rubric: no rubric: the bank scores every explanation, so write one in the workbench first",
			"empty-result-retry-loop: the bank already has a question empty-result-retry-loop",
			"broken: the bank's check refuses it: structured-errors/broken/pl.md:28: option B has no explanation: add lines starting with > after its text",
		}
		if diff := cmp.Diff(wantSkips, gotSkips); diff != "" {
			t.Errorf("skips (-want +got):\n%s", diff)
		}
		zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		bank, problems := questions.Load(zr, "export.zip")
		if len(problems) > 0 {
			t.Fatalf("the exported zip does not load:\n%v", problems)
		}
		wantCount := 1
		if withBank {
			full, _ := questions.Load(bankFS, "bank")
			wantCount += len(full.Questions)
			for _, c := range questions.Cues(bank) {
				if f := c.Failures(); len(f) > 0 {
					t.Errorf("cue check fails in %s: %v", c.Lang, f)
				}
			}
		}
		if len(bank.Questions) != wantCount {
			t.Errorf("the zip holds %d questions, want %d", len(bank.Questions), wantCount)
		}
		q, ok := bank.Question("locked-calendar")
		if !ok {
			t.Fatal("the exported question is not in the zip")
		}
		tx := q.Text(examsim.English)
		if len(tx.Options) != 2 || !strings.Contains(tx.StemHTML(), "## B") || strings.Contains(tx.StemHTML(), "<script") {
			t.Errorf("stem not kept as written and sanitised: %d options, stem %q", len(tx.Options), tx.StemHTML())
		}
		if !strings.Contains(tx.Options[1].HTML(), "&gt; after a backoff") {
			t.Errorf("option B's quoted line became an explanation: %q", tx.Options[1].HTML())
		}
		if tx.Rubric().Version != 2 || len(tx.Rubric().Concepts) != 1 {
			t.Errorf("rubric %+v: want version 2 with one concept", tx.Rubric())
		}
	}
}

func TestCompile(t *testing.T) {
	bankFS, _ := questions.Embedded()
	partial := exchangetest.Question()
	partial.Texts = map[examsim.Lang]*examsim.AuthoredText{examsim.Thai: partial.Texts[examsim.Thai]}
	partial.Rubric = nil
	noTitle := exchangetest.Question()
	noTitle.Texts[examsim.Vietnamese].Title = " "
	noTitle.Concepts = []string{"not-a-concept"}
	badPattern := exchangetest.Question()
	badPattern.Rubric.Concepts[0].Patterns[examsim.English] = []string{"{neg}"}
	tests := []struct {
		name  string
		q     *examsim.AuthoredQuestion
		langs []examsim.Lang
		want  []string
	}{
		{"one language, no rubric", partial, []examsim.Lang{examsim.Thai}, nil},
		{"bank rules", noTitle, []examsim.Lang{examsim.Polish, examsim.Thai, examsim.English}, []string{
			`question.yaml:3: concept "not-a-concept" is not in structured-errors/topic.yaml`,
			"vi.md:2: title is empty: give the question a short title",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, problems := Compile(bankFS, tt.q)
			var got []string
			for _, p := range problems {
				got = append(got, p.String())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			var langs []examsim.Lang
			for _, l := range examsim.Langs {
				if q.Text(l) != nil {
					langs = append(langs, l)
				}
			}
			if diff := cmp.Diff(tt.langs, langs); diff != "" {
				t.Errorf("languages (-want +got):\n%s", diff)
			}
		})
	}
	_, problems := Compile(bankFS, badPattern)
	if len(problems) != 1 || problems[0].Path != "en.md" {
		t.Errorf("a bad pattern gives %v, want one problem in en.md", problems)
	}
}

// Each problem the bank's loader finds lands beside the field it concerns.
func TestFieldOf(t *testing.T) {
	bankFS, _ := questions.Embedded()
	q := exchangetest.Question()
	q.Texts[examsim.Vietnamese].Title = ""
	q.Texts[examsim.Polish].Options[1].Explanation = ""
	q.Texts[examsim.Thai].Stem = ""
	q.Difficulty = "tricky"
	q.Rubric.Concepts[0].Patterns[examsim.English] = []string{"{neg}"}
	q.Rubric.Misconceptions[0].Notes[examsim.Polish] = ""
	q.Rubric.Concepts[0].Weight = 11
	_, problems := Compile(bankFS, q)
	got := map[string]string{}
	for _, p := range problems {
		got[p.Path+": "+p.Msg] = FieldOf(q, p)
	}
	want := map[string]string{
		`question.yaml: difficulty "tricky" must be easy, medium or hard`:                          FieldDifficulty,
		`question.yaml: rubric concept "no-access": weight 11 must be a whole number from 1 to 10`: FieldRule + "no-access",
		"vi.md: title is empty: give the question a short title":                                   FieldTitle,
		"pl.md: option B has no explanation: add lines starting with > after its text":             FieldOption + "B",
		`pl.md: rubric misconception "retry-fixes-it" needs a why`:                                 FieldRule + "retry-fixes-it",
		"th.md: the scenario is empty: write it before the first ## A":                             FieldStem,
	}
	for k := range got {
		if _, ok := want[k]; !ok && strings.HasPrefix(k, "en.md") {
			want[k] = FieldRule + "no-access" // the bad pattern's message is the pattern compiler's own
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}
}

// An id is a folder name in the zip: one that is not the bank's id form
// (a path, capitals) is refused before any file is written.
func TestBadIDsNeverBecomePaths(t *testing.T) {
	bankFS, _ := questions.Embedded()
	for _, id := range []string{"../../etc/evil", "Evil", "a/b", ""} {
		q := exchangetest.Question()
		q.ID = id
		if cq, problems := Compile(bankFS, q); cq != nil || len(problems) != 1 || FieldOf(q, problems[0]) != FieldID {
			t.Errorf("Compile(%q) = %v, %v; want one problem beside the id", id, cq, problems)
		}
		var buf bytes.Buffer
		skips, err := Export(&buf, bankFS, []*examsim.AuthoredQuestion{q}, false)
		if !errors.Is(err, ErrNothingToExport) || len(skips) != 1 || skips[0].Reason.ID != "export_bad_id" || buf.Len() != 0 {
			t.Errorf("Export(%q) = %v, %v, %d bytes; want it skipped and nothing written", id, skips, err, buf.Len())
		}
	}
}
