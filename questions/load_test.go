package questions

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim"
)

const topicYAMLText = `id: t
order: 1
concepts: [alpha, beta]
`

func lessonText(lang string) string {
	return `---
title: Lesson ` + lang + `
summary: S
concepts:
  alpha: Alpha
  beta: Beta
---
## Alpha {#alpha}

Text.

## Beta {#beta}
`
}

const questionYAMLText = `id: q1
topic: t
concepts: [alpha]
difficulty: easy
answer: B
rubric:
  version: 2
  concepts:
    - id: key
      role: decisive
    - id: why
      role: supporting
  misconceptions:
    - id: wrong
`

func textFile(lang string) string {
	return `---
title: Title ` + lang + `
rubric:
  concepts:
    key:
      hint: Say the key thing.
      patterns:
        - "valid empty"
    why:
      hint: Say why.
      patterns:
        - "{neg} retr*"
  misconceptions:
    wrong:
      why: Because.
      patterns:
        - "{!neg} more retr*"
sources:
  - title: Spec
    url: https://example.org/spec
---
The stem with ` + "`code`" + ` and <script>alert(1)</script>.

## A

First.

> Wrong because.

## B

Second.

> Right because.
`
}

// goodBank returns a small valid bank that tests break one file at a time.
func goodBank() fstest.MapFS {
	fsys := fstest.MapFS{
		"t/topic.yaml":       {Data: []byte(topicYAMLText)},
		"t/q1/question.yaml": {Data: []byte(questionYAMLText)},
	}
	for _, l := range examsim.Langs {
		fsys["t/lesson."+string(l)+".md"] = &fstest.MapFile{Data: []byte(lessonText(string(l)))}
		fsys["t/q1/"+string(l)+".md"] = &fstest.MapFile{Data: []byte(textFile(string(l)))}
	}
	return fsys
}

func TestLoadGoodBank(t *testing.T) {
	bank, problems := Load(goodBank(), "bank")
	if len(problems) > 0 {
		t.Fatalf("problems in a good bank:\n%s", problems.Error())
	}
	q, ok := bank.Question("q1")
	if !ok {
		t.Fatal("q1 missing")
	}
	tx := q.Text(examsim.Polish)
	if tx.Title != "Title pl" || len(tx.Options) != 2 || tx.Options[1].Letter != "B" {
		t.Fatalf("text = %+v", tx)
	}
	if strings.Contains(tx.StemHTML(), "<script>") {
		t.Errorf("raw HTML must be dropped from bank Markdown: %s", tx.StemHTML())
	}
	if !strings.Contains(tx.Options[0].ExplanationHTML(), "Wrong because.") || strings.Contains(tx.Options[0].HTML(), "Wrong because") {
		t.Errorf("option text and explanation are mixed up: %+v", tx.Options[0])
	}
	if tx.Rubric().Version != 2 || tx.Rubric().Concepts[0].Weight != 3 || tx.Rubric().Misconceptions[0].Penalty != 40 {
		t.Errorf("rubric = %+v", tx.Rubric())
	}
	if diff := cmp.Diff([]examsim.Lang{"en", "pl", "th", "vi"}, bank.Langs()); diff != "" {
		t.Errorf("langs: %s", diff)
	}
	lesson := bank.Topics[0].Lessons[examsim.Thai]
	if !strings.Contains(lesson.HTML(), `id="alpha"`) {
		t.Errorf("lesson anchors missing: %s", lesson.HTML())
	}
}

func TestLoadReportsEveryProblemWithItsLine(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(fstest.MapFS)
		want   []string
	}{
		{"missing language", func(f fstest.MapFS) { delete(f, "t/q1/th.md") },
			[]string{"bank/t/q1/question.yaml:1: th.md is missing: every question and lesson needs all of en, vi, pl and th"}},
		{"yaml syntax", func(f fstest.MapFS) {
			f["t/q1/vi.md"].Data = []byte(strings.Replace(textFile("vi"), "title: Title vi", "title: [unclosed", 1))
		}, []string{"bank/t/q1/vi.md:2: did not find expected ',' or ']'"}},
		{"no front matter", func(f fstest.MapFS) { f["t/q1/en.md"].Data = []byte("just text\n") },
			[]string{"bank/t/q1/en.md:1: the file must start with a --- line that opens the front matter"}},
		{"two correct answers impossible, unknown answer", func(f fstest.MapFS) {
			f["t/q1/question.yaml"].Data = []byte(strings.Replace(questionYAMLText, "answer: B", "answer: E", 1))
		}, []string{`bank/t/q1/question.yaml:5: answer "E" is not one of the options A, B`}},
		{"option letters differ", func(f fstest.MapFS) {
			f["t/q1/pl.md"].Data = []byte(textFile("pl") + "\n## C\n\nThird.\n\n> Why.\n")
		}, []string{"bank/t/q1/pl.md:1: options A,B,C differ from A,B in vi.md: every language needs the same option letters"}},
		{"option without explanation", func(f fstest.MapFS) {
			f["t/q1/en.md"].Data = []byte(strings.Replace(textFile("en"), "> Right because.\n", "", 1))
		}, []string{"bank/t/q1/en.md:30: option B has no explanation: add lines starting with > after its text"}},
		{"bad pattern and missing hint", func(f fstest.MapFS) {
			s := strings.Replace(textFile("en"), `"{neg} retr*"`, `"{neg} {!neg} retr*"`, 1)
			s = strings.Replace(s, "hint: Say the key thing.", "hint: \"\"", 1)
			f["t/q1/en.md"].Data = []byte(s)
		}, []string{
			`bank/t/q1/en.md:5: rubric concept "key" needs a hint`,
			`bank/t/q1/en.md:12: pattern "{neg} {!neg} retr*": only one {neg} or {!neg} is allowed`,
		}},
		{"rubric concept missing in a language", func(f fstest.MapFS) {
			f["t/q1/th.md"].Data = []byte(strings.Replace(textFile("th"), "    why:\n      hint: Say why.\n      patterns:\n        - \"{neg} retr*\"\n", "", 1))
		}, []string{`bank/t/q1/th.md:3: rubric concept "why" from question.yaml has no hint and patterns here`}},
		{"unknown field", func(f fstest.MapFS) {
			f["t/q1/question.yaml"].Data = []byte(questionYAMLText + "colour: blue\n")
		}, []string{"bank/t/q1/question.yaml:15: field colour not found in type questions.questionYAML"}},
		{"unknown nested field", func(f fstest.MapFS) {
			f["t/q1/en.md"].Data = []byte(strings.Replace(textFile("en"), "hint: Say why.", "hnit: Say why.", 1))
		}, []string{`bank/t/q1/en.md:10: field hnit not found in type struct { Hint string "yaml:\"hint\""; Patterns []string "yaml:\"patterns\"" }`}},
		{"wrong type", func(f fstest.MapFS) {
			f["t/q1/question.yaml"].Data = []byte(strings.Replace(questionYAMLText, "concepts: [alpha]", "concepts: {a: b}", 1))
		}, []string{"bank/t/q1/question.yaml:3: cannot unmarshal !!map into []string"}},
		{"wrong id, unknown concept, bad difficulty", func(f fstest.MapFS) {
			s := strings.Replace(questionYAMLText, "id: q1", "id: q2", 1)
			s = strings.Replace(s, "concepts: [alpha]", "concepts: [gamma]", 1)
			s = strings.Replace(s, "difficulty: easy", "difficulty: brutal", 1)
			f["t/q1/question.yaml"].Data = []byte(s)
		}, []string{
			`bank/t/q1/question.yaml:1: id "q2" must equal the folder name "q1"`,
			`bank/t/q1/question.yaml:3: concept "gamma" is not in t/topic.yaml`,
			`bank/t/q1/question.yaml:4: difficulty "brutal" must be easy, medium or hard`,
		}},
		{"lesson lacks an anchor", func(f fstest.MapFS) {
			f["t/lesson.vi.md"].Data = []byte(strings.Replace(lessonText("vi"), "{#beta}", "", 1))
		}, []string{`bank/t/lesson.vi.md:8: no heading is anchored to concept "beta": end one with {#beta}`}},
		{"stray file", func(f fstest.MapFS) { f["t/q1/fr.md"] = &fstest.MapFile{Data: []byte("x")} },
			[]string{"bank/t/q1/question.yaml:1: unexpected file fr.md: a question folder holds question.yaml and en.md, vi.md, pl.md, th.md"}},
		{"binary garbage never panics", func(f fstest.MapFS) { f["t/q1/en.md"].Data = []byte("---\n\x00\xff\xfe: [\n---\n") },
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := goodBank()
			tt.break_(fsys)
			_, problems := Load(fsys, "bank")
			if len(problems) == 0 {
				t.Fatal("no problems reported")
			}
			if tt.want == nil {
				return // only that it is reported, without a panic
			}
			var got []string
			for _, p := range problems {
				got = append(got, p.String())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEmbeddedBankIsValid(t *testing.T) {
	fsys, name := Embedded()
	bank, problems := Load(fsys, name)
	if len(problems) > 0 {
		t.Fatalf("the embedded bank has problems:\n%s", problems.Error())
	}
	if len(bank.Questions) < 6 {
		t.Fatalf("only %d questions", len(bank.Questions))
	}
	for _, id := range []string{"empty-result-retry-loop", "refund-over-limit-retries", "error-metadata-fields",
		"partial-source-timeouts", "malformed-order-id", "rate-limited-research"} {
		if _, ok := bank.Question(id); !ok {
			t.Errorf("seeded question %s is missing", id)
		}
	}
}

// TestEveryConceptIsTaughtEverywhere holds the bank to its coverage promise:
// every concept of every topic has at least three questions in every language.
func TestEveryConceptIsTaughtEverywhere(t *testing.T) {
	fsys, name := Embedded()
	bank, problems := Load(fsys, name)
	if len(problems) > 0 {
		t.Fatalf("the embedded bank has problems:\n%s", problems.Error())
	}
	for _, topic := range bank.Topics {
		cov := Coverage(bank, topic)
		for _, c := range topic.Concepts {
			for _, l := range examsim.Langs {
				if cov[c][l] < 3 {
					t.Errorf("%s/%s: %d questions in %s, want at least 3", topic.ID, c, cov[c][l], l)
				}
			}
		}
	}
	for _, q := range bank.Questions {
		for _, l := range examsim.Langs {
			if q.Text(l) == nil {
				t.Errorf("%s lacks %s", q.ID, l)
			}
		}
	}
}
