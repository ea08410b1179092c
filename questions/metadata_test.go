package questions

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim"
)

const objectivesYAML = `objectives:
  - id: "2.2.1"
    concepts: [alpha]
  - id: "2.2.2"
    concepts: [beta]
    weight: 3
`

// withObjectives gives goodBank's topic two objectives and every lesson
// their titles.
func withObjectives(f fstest.MapFS) {
	f["t/topic.yaml"].Data = []byte(topicYAMLText + objectivesYAML)
	for _, l := range examsim.Langs {
		f["t/lesson."+string(l)+".md"].Data = []byte(strings.Replace(lessonText(string(l)), "  beta: Beta\n",
			"  beta: Beta\nobjectives:\n  \"2.2.1\": Signal failure ("+string(l)+")\n  \"2.2.2\": Classify failure\n", 1))
	}
}

func TestObjectivesLoad(t *testing.T) {
	fsys := goodBank()
	withObjectives(fsys)
	bank, problems := Load(fsys, "bank")
	if len(problems) > 0 {
		t.Fatalf("problems:\n%s", problems.Error())
	}
	tp := bank.Topics[0]
	if diff := cmp.Diff([]Objective{{ID: "2.2.1", Concepts: []string{"alpha"}, Weight: 1}, {ID: "2.2.2", Concepts: []string{"beta"}, Weight: 3}}, tp.Objectives); diff != "" {
		t.Errorf("objectives: %s", diff)
	}
	if tp.ObjectiveOf("beta") != "2.2.2" || tp.ObjectiveOf("gamma") != "" {
		t.Errorf("ObjectiveOf: %q %q", tp.ObjectiveOf("beta"), tp.ObjectiveOf("gamma"))
	}
	if got := tp.Lessons[examsim.Thai].ObjectiveNames["2.2.1"]; got != "Signal failure (th)" {
		t.Errorf("Thai objective title %q", got)
	}
}

func TestMetadataProblems(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(fstest.MapFS)
		want   []string
	}{
		{"a concept in no objective", func(f fstest.MapFS) {
			withObjectives(f)
			f["t/topic.yaml"].Data = []byte(topicYAMLText + "objectives:\n  - id: \"2.2.1\"\n    concepts: [alpha]\n")
			for _, l := range examsim.Langs {
				f["t/lesson."+string(l)+".md"].Data = []byte(strings.Replace(string(f["t/lesson."+string(l)+".md"].Data), "  \"2.2.2\": Classify failure\n", "", 1))
			}
		}, []string{`bank/t/topic.yaml:4: concept "beta" is in no objective: once a topic has objectives, every concept belongs to one`}},
		{"a concept in two objectives, a bad id", func(f fstest.MapFS) {
			withObjectives(f)
			f["t/topic.yaml"].Data = []byte(strings.Replace(string(f["t/topic.yaml"].Data), "concepts: [beta]", "concepts: [beta, alpha]", 1))
			f["t/topic.yaml"].Data = []byte(strings.Replace(string(f["t/topic.yaml"].Data), `id: "2.2.1"`, `id: "2.2"`, 1))
		}, []string{
			`bank/t/lesson.en.md:7: objectives: give objective 2.2 a display title`,
			`bank/t/lesson.en.md:8: objective "2.2.1" is not in topic.yaml`,
			`bank/t/lesson.pl.md:7: objectives: give objective 2.2 a display title`,
			`bank/t/lesson.pl.md:8: objective "2.2.1" is not in topic.yaml`,
			`bank/t/lesson.th.md:7: objectives: give objective 2.2 a display title`,
			`bank/t/lesson.th.md:8: objective "2.2.1" is not in topic.yaml`,
			`bank/t/lesson.vi.md:7: objectives: give objective 2.2 a display title`,
			`bank/t/lesson.vi.md:8: objective "2.2.1" is not in topic.yaml`,
			`bank/t/topic.yaml:5: objective id "2.2" must be three or more numbers joined by dots, such as "2.2.1"`,
			`bank/t/topic.yaml:8: concept "alpha" is in objectives 2.2 and 2.2.2: every concept belongs to exactly one`,
		}},
		{"a weight below 1", func(f fstest.MapFS) {
			withObjectives(f)
			f["t/topic.yaml"].Data = []byte(strings.Replace(string(f["t/topic.yaml"].Data), "weight: 3", "weight: 0", 1))
		}, []string{`bank/t/topic.yaml:9: objective 2.2.2: weight 0 must be a whole number of 1 or more (its share of a blueprint exam's questions)`}},
		{"a lesson names an objective the topic lacks", func(f fstest.MapFS) {
			f["t/lesson.pl.md"].Data = []byte(strings.Replace(lessonText("pl"), "  beta: Beta\n", "  beta: Beta\nobjectives:\n  \"9.9.9\": Nothing\n", 1))
		}, []string{`bank/t/lesson.pl.md:8: objective "9.9.9" is not in topic.yaml`}},
		{"a lesson source names an unknown concept", func(f fstest.MapFS) {
			f["t/q1/vi.md"].Data = []byte(strings.Replace(textFile("vi"), "sources:\n", "sources:\n  - lesson: gamma\n", 1))
		}, []string{`bank/t/q1/vi.md:19: source 1: lesson "gamma" is not a concept of t/topic.yaml`}},
		{"revision in a translation, source_revision in English", func(f fstest.MapFS) {
			f["t/lesson.en.md"].Data = []byte(strings.Replace(lessonText("en"), "summary: S\n", "summary: S\nsource_revision: 1\n", 1))
			f["t/lesson.th.md"].Data = []byte(strings.Replace(lessonText("th"), "summary: S\n", "summary: S\nrevision: 1\n", 1))
		}, []string{
			`bank/t/lesson.en.md:4: source_revision is for translations: the English lesson has revision`,
			`bank/t/lesson.th.md:4: revision is for lesson.en.md: a translation records the English revision it was made from as source_revision`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := goodBank()
			tt.break_(fsys)
			if diff := cmp.Diff(tt.want, problemStrings(fsys, "bank")); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLessonSourcesAndRevisionWarnings(t *testing.T) {
	fsys := goodBank()
	f := fsys["t/q1/pl.md"]
	f.Data = []byte(strings.Replace(textFile("pl"), "sources:\n", "sources:\n  - lesson: beta\n", 1))
	fsys["t/lesson.en.md"].Data = []byte(strings.Replace(lessonText("en"), "summary: S\n", "summary: S\nrevision: 3\n", 1))
	fsys["t/lesson.vi.md"].Data = []byte(strings.Replace(lessonText("vi"), "summary: S\n", "summary: S\nsource_revision: 2\n", 1))
	fsys["t/lesson.th.md"].Data = []byte(strings.Replace(lessonText("th"), "summary: S\n", "summary: S\nsource_revision: 3\n", 1))
	bank, problems := Load(fsys, "bank")
	if len(problems) > 0 {
		t.Fatalf("warnings must not be problems:\n%s", problems.Error())
	}
	src := bank.Questions[0].Text(examsim.Polish).Sources[0]
	if src.Lesson != "beta" || src.URL != "/learn/t#beta" {
		t.Errorf("lesson source = %+v", src)
	}
	var got []string
	for _, w := range bank.Warnings {
		got = append(got, w.String())
	}
	want := []string{
		`bank/t/lesson.pl.md:1: no source_revision: record the lesson.en.md revision (3) this translation was made from`,
		`bank/t/lesson.vi.md:4: source_revision 2 is below lesson.en.md's revision 3: the English changed since; re-sync this translation and raise source_revision`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	// Without the lesson source, the one question counts as lacking one.
	plain, _ := Load(goodBank(), "bank")
	if len(plain.Warnings) != 1 || plain.Warnings[0].String() != "bank:1: 1 of 1 questions have no source `lesson: <concept-id>` pointing at the lesson section that supports the key" {
		t.Errorf("warnings = %v", plain.Warnings)
	}
}

// TestLessonSectionsInPageOrder: a lesson's contents follow its headings,
// not topic.yaml's concept list, in every language of the real bank too.
func TestLessonSectionsInPageOrder(t *testing.T) {
	fsys := goodBank()
	fsys["t/lesson.pl.md"].Data = []byte(strings.Replace(lessonText("pl"), "## Alpha {#alpha}\n\nText.\n\n## Beta {#beta}\n", "## Beta {#beta}\n\nText.\n\n## Alpha {#alpha}\n", 1))
	bank, problems := Load(fsys, "bank")
	if len(problems) > 0 {
		t.Fatalf("problems:\n%s", problems.Error())
	}
	tp := bank.Topics[0]
	if got := tp.Lessons[examsim.Polish].Sections; !cmp.Equal(got, []string{"beta", "alpha"}) {
		t.Errorf("Polish sections %v, want beta, alpha as the page has them", got)
	}
	if got := tp.Lessons[examsim.English].Sections; !cmp.Equal(got, []string{"alpha", "beta"}) {
		t.Errorf("English sections %v", got)
	}

	real, problems := Load(Embedded())
	if len(problems) > 0 {
		t.Fatalf("embedded bank: %s", problems.Error())
	}
	for _, tp := range real.Topics {
		for lang, ls := range tp.Lessons {
			last := -1
			for _, c := range ls.Sections {
				i := strings.Index(ls.HTML(), `id="`+c+`"`)
				if i < last {
					t.Errorf("%s %s: %s comes before the section above it in the contents", tp.ID, lang, c)
				}
				last = i
			}
			if len(ls.Sections) != len(tp.Concepts) {
				t.Errorf("%s %s: %d sections for %d concepts", tp.ID, lang, len(ls.Sections), len(tp.Concepts))
			}
		}
	}
}
