package web

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/i18n"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/scoring"
)

// The scorer's evidence and confidence are built by hand here: these tests
// are about showing them, whatever the scorer of the day fills in.

// textWithRubric is a question text that has only a rubric.
func textWithRubric(r *scoring.Rubric) *questions.Text {
	tx := &questions.Text{}
	tx.SetRubric(r)
	return tx
}

var feedbackRubric = &scoring.Rubric{Version: 1,
	Concepts: []scoring.Concept{
		{ID: "validation", Role: scoring.Decisive, Hint: "Name it a validation error"},
		{ID: "no-retry", Role: scoring.Supporting, Hint: "Say why the same input fails again"},
	},
	Misconceptions: []scoring.Misconception{{ID: "agent-can-fix", Why: "The agent cannot invent the missing digit"}},
}

func span(text, words string) scoring.Span {
	i := strings.Index(text, words)
	if i < 0 {
		panic("no " + words + " in " + text)
	}
	return scoring.Span{Start: i, End: i + len(words)}
}

// renderFeedback renders the feedback of an explanation scored as res, in
// lang, and parses it.
func renderFeedback(t *testing.T, lang examsim.Lang, text string, res scoring.Result, human *examsim.HumanGrade) *goquery.Document {
	t.Helper()
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	v := res.Verdict(1)
	v.Human = human
	se := scoredExplanation{Lang: lang, Explanation: text, Verdict: v}
	f := buildFeedback(textWithRubric(feedbackRubric), se)
	f.ID = "-1"
	f.Flag = flagView{Action: "/attempts/1/flag"}
	var b bytes.Buffer
	ctx := context.WithValue(context.Background(), pageKey{}, &Page{Lang: lang, Catalog: cat, CSRF: "tok"})
	if err := explanationFeedback(f).Render(ctx, &b); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(&b)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func catalogText(t *testing.T, lang examsim.Lang, id string, kv ...any) string {
	t.Helper()
	cat, _ := i18n.Load()
	return cat.T(lang, id, kv...)
}

func TestEvidenceIsHighlightedAndEscaped(t *testing.T) {
	text := `It's a <b>validation</b> error & retrying the same <script>id</script> fails again; the agent can fix it`
	res := scoring.Result{Score: 40, Band: 0, Confidence: 0.9,
		Concepts: []scoring.ConceptResult{
			{ID: "validation", Hit: true, Evidence: []scoring.Span{span(text, "<b>validation</b> error")}},
			{ID: "no-retry", Hit: false},
		},
		Misconceptions: []scoring.MisconceptionResult{{ID: "agent-can-fix", Evidence: []scoring.Span{span(text, "the agent can fix it")}}},
	}
	doc := renderFeedback(t, examsim.English, text, res, nil)
	if doc.Find("b, script").Length() != 0 {
		t.Fatal("the learner's markup was rendered as HTML")
	}
	if got := doc.Find("[data-testid=learner-explanation]").Text(); got != text {
		t.Errorf("the explanation reads %q, want the learner's text unchanged %q", got, text)
	}
	marks := doc.Find("mark[data-testid=evidence]")
	if marks.Length() != 2 || marks.Eq(0).Text() != "<b>validation</b> error" || marks.Eq(0).AttrOr("data-kind", "") != evidenceConcept ||
		marks.Eq(1).Text() != "the agent can fix it" || marks.Eq(1).AttrOr("data-kind", "") != evidenceMisconception {
		t.Errorf("marks: %d, %q %q", marks.Length(), marks.Eq(0).Text(), marks.Eq(1).Text())
	}
	if q := doc.Find("[data-testid=concept-evidence]").Text(); q != "<b>validation</b> error" {
		t.Errorf("the concept's quote is %q", q)
	}
	if q := doc.Find("[data-testid=misconception-evidence]").Text(); q != "the agent can fix it" {
		t.Errorf("the misconception's quote is %q", q)
	}
	if h := doc.Find("[data-testid=concept-miss] [data-testid=hint]").Text(); h != "Say why the same input fails again" {
		t.Errorf("the missed concept's hint is %q", h)
	}
	if m := doc.Find("[data-testid=misconception]").Text(); !strings.Contains(m, "The agent cannot invent the missing digit") {
		t.Errorf("the misconception's reason is missing: %q", m)
	}
	if c := doc.Find("[data-testid=confidence]").AttrOr("data-confidence", ""); c != "high" {
		t.Errorf("confidence %q, want high", c)
	}
	if doc.Find("[data-testid=unsure]").Length() != 0 {
		t.Error("a confident result says it is unsure")
	}
}

func TestBrokenSpansAreIgnored(t *testing.T) {
	text := "ไม่ควร retry เพราะ id ผิด" // Thai: multi-byte characters
	bad := []scoring.Span{{Start: 1, End: 5}, {Start: -3, End: 2}, {Start: 4, End: 4}, {Start: 0, End: len(text) + 9}, {Start: 9, End: 3}}
	res := scoring.Result{Band: 1, Confidence: 1, Concepts: []scoring.ConceptResult{
		{ID: "validation", Hit: true, Evidence: append(bad, span(text, "id ผิด"))}, {ID: "no-retry"}}}
	doc := renderFeedback(t, examsim.Thai, text, res, nil)
	marks := doc.Find("mark[data-testid=evidence]")
	if marks.Length() != 1 || marks.Text() != "id ผิด" {
		t.Errorf("marks %d %q: only the one valid span should show", marks.Length(), marks.Text())
	}
	if got := doc.Find("[data-testid=learner-explanation]").Text(); got != text {
		t.Errorf("the explanation reads %q", got)
	}
}

func TestOverlappingEvidenceMerges(t *testing.T) {
	text := "abcdefghij"
	got := markEvidence(text, []markedSpan{
		{scoring.Span{Start: 1, End: 5}, evidenceConcept},
		{scoring.Span{Start: 3, End: 7}, evidenceMisconception},
		{scoring.Span{Start: 6, End: 9}, evidenceConcept},
	})
	want := []textSegment{{"a", ""}, {"bc", evidenceConcept}, {"defg", evidenceMisconception}, {"hi", evidenceConcept}, {"j", ""}}
	if len(got) != len(want) {
		t.Fatalf("segments %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("segment %d = %v, want %v", i, got[i], want[i])
		}
	}
}

func TestUnsureResultSaysSoInEveryLanguage(t *testing.T) {
	text := "Może to walidacja, może nie; agent sam poprawi id"
	res := scoring.Result{Band: 0, Confidence: 0.3,
		Concepts:       []scoring.ConceptResult{{ID: "validation", Hit: true, Evidence: []scoring.Span{span(text, "walidacja")}}, {ID: "no-retry"}},
		Misconceptions: []scoring.MisconceptionResult{{ID: "agent-can-fix", Evidence: []scoring.Span{span(text, "agent sam poprawi id")}}},
	}
	seen := map[string]bool{}
	for _, lang := range examsim.Langs {
		doc := renderFeedback(t, lang, text, res, nil)
		box := doc.Find("[data-testid=unsure]")
		want := catalogText(t, lang, "feedback.unsure")
		if box.Length() != 1 || !strings.Contains(box.Text(), want) {
			t.Errorf("%s: the unsure box %q lacks %q", lang, box.Text(), want)
		}
		seen[want] = true
		if n := doc.Find("[data-testid=looked-for]").Length(); n != 2 {
			t.Errorf("%s: %d things looked for, want both concepts", lang, n)
		}
		// No confident verdict: no "watch out", the misconception only as a maybe.
		if doc.Find("[data-testid=concept-hit], [data-testid=concept-miss]").Length() != 0 {
			t.Errorf("%s: an unsure result lists verdicts", lang)
		}
		if m := doc.Find("[data-testid=misconception]"); !m.HasClass("maybe") || !strings.Contains(m.Text(), catalogText(t, lang, "feedback.maybe_misconception")) {
			t.Errorf("%s: the misconception is not worded as a maybe: %q", lang, m.Text())
		}
		if doc.Find("mark[data-testid=evidence]").Length() != 2 {
			t.Errorf("%s: the evidence is not highlighted", lang)
		}
		if doc.Find("[data-testid=flag-form] textarea[name=comment]").Length() != 1 {
			t.Errorf("%s: no flag form under an unsure score", lang)
		}
	}
	if len(seen) != len(examsim.Langs) {
		t.Errorf("the unsure wording is not translated: %v", seen)
	}
}

func TestHumanBandReplacesTheAutomaticOne(t *testing.T) {
	text := "Validation error: fix the input first."
	res := scoring.Result{Band: 0, Confidence: 0.2, Concepts: []scoring.ConceptResult{{ID: "validation"}, {ID: "no-retry"}}}
	human := &examsim.HumanGrade{Band: 3, Concepts: []examsim.ConceptHit{{ID: "validation", Hit: true}, {ID: "no-retry", Hit: true}}, GradedAt: time.Now()}
	for _, lang := range examsim.Langs {
		doc := renderFeedback(t, lang, text, res, human)
		band := doc.Find("[data-testid=band]")
		if band.AttrOr("data-band", "") != "3" || band.AttrOr("data-human", "") != "true" {
			t.Errorf("%s: band %q human %q, want the teacher's 3", lang, band.AttrOr("data-band", ""), band.AttrOr("data-human", ""))
		}
		if note := doc.Find("[data-testid=human-grade]").Text(); !strings.Contains(note, catalogText(t, lang, "feedback.regraded", "Band", 3, "Auto", 0)) {
			t.Errorf("%s: the regrade note reads %q", lang, note)
		}
		if doc.Find("[data-testid=unsure], [data-testid=confidence]").Length() != 0 {
			t.Errorf("%s: a teacher's band is shown with the scorer's doubts", lang)
		}
		if n := doc.Find("[data-testid=concept-hit]").Length(); n != 2 {
			t.Errorf("%s: %d ticks shown, want the teacher's 2", lang, n)
		}
		if doc.Find("[data-testid=flag-form]").Length() != 1 {
			t.Errorf("%s: no way to flag a regraded score again", lang)
		}
	}
}

// TestVerdictWithoutStoredEvidenceShowsNone: a verdict stored before
// evidence was kept shows its band and ticks, and neither quotes nor a
// confidence it never had; nothing is scored again on read.
func TestVerdictWithoutStoredEvidenceShowsNone(t *testing.T) {
	text := "It is a validation error, the agent can fix it"
	se := scoredExplanation{Lang: examsim.English, Explanation: text, Verdict: examsim.Verdict{Band: 2, RubricVersion: 1,
		Concepts: []examsim.ConceptHit{{ID: "validation", Hit: true}, {ID: "no-retry"}}, Misconceptions: []string{"agent-can-fix"}}}
	f := buildFeedback(textWithRubric(feedbackRubric), se)
	if f.Known || f.Unsure() {
		t.Errorf("known %v unsure %v, want neither for a verdict without stored evidence", f.Known, f.Unsure())
	}
	for _, seg := range f.Segments {
		if seg.Kind != "" {
			t.Errorf("evidence %q shown without stored evidence", seg.Text)
		}
	}
	if f.Score != examsim.BandScore(2) || f.Band != 2 {
		t.Errorf("score %d band %d, want %d and 2", f.Score, f.Band, examsim.BandScore(2))
	}
}

// TestPendingScoreIsShownAsPending: an answer whose explanation could not be
// scored says so in every language, with no score or band.
func TestPendingScoreIsShownAsPending(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range examsim.Langs {
		se := scoredExplanation{Lang: lang, Explanation: "C is right.", Verdict: scoring.Pending(1)}
		f := buildFeedback(textWithRubric(feedbackRubric), se)
		var b bytes.Buffer
		ctx := context.WithValue(context.Background(), pageKey{}, &Page{Lang: lang, Catalog: cat, CSRF: "tok"})
		if err := explanationFeedback(f).Render(ctx, &b); err != nil {
			t.Fatal(err)
		}
		doc, err := goquery.NewDocumentFromReader(&b)
		if err != nil {
			t.Fatal(err)
		}
		if got := doc.Find("[data-testid=score-pending]").Text(); got != cat.T(lang, "feedback.score_pending") {
			t.Errorf("%s: pending note %q", lang, got)
		}
		if doc.Find("[data-testid=score-value], [data-testid=band], [data-testid=concept-miss]").Length() != 0 {
			t.Errorf("%s: a pending score shows a score, band or missed concept", lang)
		}
		if got := doc.Find("[data-testid=learner-explanation]").Text(); got != "C is right." {
			t.Errorf("%s: the kept answer reads %q", lang, got)
		}
	}
}

func TestWhatWaitsInTheQueue(t *testing.T) {
	open := &examsim.Flag{CreatedAt: time.Now()}
	resolved := &examsim.Flag{CreatedAt: time.Now(), ResolvedAt: time.Now()}
	human := &examsim.HumanGrade{Band: 2}
	unsure := &examsim.Evidence{Confidence: 0.3}
	sure := &examsim.Evidence{Confidence: 0.9}
	tests := []struct {
		name            string
		g               examsim.Gradable
		flagged, unsure bool
	}{
		{"an open flag", examsim.Gradable{Flag: open, Answer: examsim.Answer{Verdict: examsim.Verdict{Evidence: sure}}}, true, false},
		{"an open flag after a regrade", examsim.Gradable{Flag: open, Answer: examsim.Answer{Verdict: examsim.Verdict{Human: human, Evidence: unsure}}}, true, false},
		{"a resolved flag", examsim.Gradable{Flag: resolved, Answer: examsim.Answer{Verdict: examsim.Verdict{Human: human}}}, false, false},
		{"unsure, never regraded", examsim.Gradable{Answer: examsim.Answer{Verdict: examsim.Verdict{Evidence: unsure}}}, false, true},
		{"unsure but regraded", examsim.Gradable{Answer: examsim.Answer{Verdict: examsim.Verdict{Human: human, Evidence: unsure}}}, false, false},
		{"sure and unflagged", examsim.Gradable{Answer: examsim.Answer{Verdict: examsim.Verdict{Evidence: sure}}}, false, false},
		{"confidence unknown (stored before it was kept)", examsim.Gradable{}, false, false},
	}
	for _, tc := range tests {
		if flagged, unsure := tc.g.Flag.Open(), tc.g.Unsure(); flagged != tc.flagged || unsure != tc.unsure {
			t.Errorf("%s: flagged %v unsure %v, want %v %v", tc.name, flagged, unsure, tc.flagged, tc.unsure)
		}
	}
}
