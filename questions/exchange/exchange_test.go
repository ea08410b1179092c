package exchange

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"github.com/xuri/excelize/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/i18n"
	"github.com/google/go-cmp/cmp"
)

var topicConcepts = []string{"is-retryable", "permission-errors", "empty-vs-failure"}

func opts(file string) Options {
	return Options{File: file, Lang: examsim.English, Topic: "structured-errors", Concepts: topicConcepts}
}

// line is one report item in short: where, name, the reason's id or the
// imported question's id and key, and the ids of what was dropped.
type line struct {
	Where, Name, Reason, ID, Answer string
	Dropped                         []string
}

func summary(r *Report) []line {
	var out []line
	for _, it := range r.Items {
		l := line{Where: it.Where, Name: it.Name}
		if it.Reason != nil {
			l.Reason = it.Reason.ID
		}
		if it.Question != nil {
			l.ID, l.Answer = it.Question.ID, it.Question.Answer
		}
		for _, d := range it.Dropped {
			l.Dropped = append(l.Dropped, d.ID)
		}
		out = append(out, l)
	}
	return out
}

func read(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestImportReports(t *testing.T) {
	tests := []struct {
		file  string
		parse func([]byte, Options) *Report
		want  []line
	}{
		{"mixed.gift", GIFT, []line{
			{Where: "mixed.gift:2", Name: "$course$/Error handling", Reason: "category"},
			{Where: "mixed.gift:4", Name: "Empty lookup", ID: "empty-lookup", Answer: "A"},
			{Where: "mixed.gift:10", Name: "Weighted", ID: "weighted", Answer: "A", Dropped: []string{"general_feedback", "partial_credit", "no_feedback"}},
			{Where: "mixed.gift:17", Name: "Escaped", ID: "escaped", Answer: "A"},
			{Where: "mixed.gift:19", Name: "TF", Reason: "truefalse"},
			{Where: "mixed.gift:21", Name: "Essay", Reason: "essay"},
			{Where: "mixed.gift:23", Name: "Short", Reason: "shortanswer"},
			{Where: "mixed.gift:25", Name: "Numeric", Reason: "numeric"},
			{Where: "mixed.gift:27", Name: "Match", Reason: "matching"},
			{Where: "mixed.gift:29", Name: "Missing word", Reason: "missingword"},
			{Where: "mixed.gift:31", Name: "Two keys", Reason: "many_keys"},
			{Where: "mixed.gift:33", Name: "Description only, no braces.", Reason: "description"},
			{Where: "mixed.gift:35", Name: "Unclosed", Reason: "unclosed"},
		}},
		{"mixed.xml", MoodleXML, []line{
			{Where: "mixed.xml:3", Name: "$course$/top/Error handling", Reason: "category"},
			{Where: "mixed.xml:6", Name: "Rate limit", ID: "rate-limit", Answer: "A", Dropped: []string{"image", "general_feedback", "unknown_tag"}},
			{Where: "mixed.xml:27", Name: "True or false", Reason: "qtype"},
			{Where: "mixed.xml:33", Name: "Half marks", Reason: "no_key", Dropped: []string{"partial_credit", "partial_credit"}},
			{Where: "mixed.xml:41", Name: "One option", Reason: "option_count"},
		}},
		{"broken.xml", MoodleXML, []line{
			{Where: "broken.xml:3", Name: "Fine", ID: "fine", Answer: "A"},
			{Where: "broken.xml:11", Reason: "xml_syntax"},
		}},
		{"mixed.csv", CSV, []line{
			{Where: "mixed.csv:2", Name: "permission-denied", ID: "permission-denied", Answer: "B", Dropped: []string{"csv_concept"}},
			{Where: "mixed.csv:4", Name: "permission-denied", Reason: "csv_same_lang"},
			{Where: "mixed.csv:5", Name: "no-key", Reason: "answer_letter"},
			{Where: "mixed.csv:6", Name: "bad-lang", Reason: "csv_lang"},
			{Where: "mixed.csv:7", Name: "A stem without an id", ID: "a-stem-without-an-id", Answer: "A", Dropped: []string{"csv_difficulty"}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got := summary(tt.parse(read(t, tt.file), opts(tt.file)))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("report (-want +got):\n%s", diff)
			}
		})
	}
}

// imported returns the imported question named name.
func imported(t *testing.T, r *Report, name string) *examsim.AuthoredQuestion {
	t.Helper()
	for _, it := range r.Items {
		if it.Name == name && it.Question != nil {
			return it.Question
		}
	}
	t.Fatalf("no imported question %q", name)
	return nil
}

func en(tx *examsim.AuthoredText) map[examsim.Lang]*examsim.AuthoredText {
	return map[examsim.Lang]*examsim.AuthoredText{examsim.English: tx}
}

func TestImportedContent(t *testing.T) {
	gift := GIFT(read(t, "mixed.gift"), opts("mixed.gift"))
	xml := MoodleXML(read(t, "mixed.xml"), opts("mixed.xml"))
	csv := CSV(read(t, "mixed.csv"), opts("mixed.csv"))
	tests := []struct {
		name string
		got  *examsim.AuthoredQuestion
		want *examsim.AuthoredQuestion
	}{
		{"gift", imported(t, gift, "Empty lookup"), &examsim.AuthoredQuestion{
			ID: "empty-lookup", Version: 1, Topic: "structured-errors", Difficulty: "medium", Answer: "A",
			Texts: en(&examsim.AuthoredText{Title: "Empty lookup",
				Stem: "An agent's customer lookup returns an empty list. What should it do?",
				Options: []examsim.AuthoredOption{
					{Letter: "A", Text: "Tell the user that no customer matched.", Explanation: "Right: an empty result is a valid answer."},
					{Letter: "B", Text: "Retry the lookup three times.", Explanation: "Retrying returns the same empty list."},
					{Letter: "C", Text: "Escalate to a human.", Explanation: "Nothing failed, so there is nothing to escalate."},
				}}),
		}},
		{"gift escapes", imported(t, gift, "Escaped"), &examsim.AuthoredQuestion{
			ID: "escaped", Version: 1, Topic: "structured-errors", Difficulty: "medium", Answer: "A",
			Texts: en(&examsim.AuthoredText{Title: "Escaped", Stem: "What does a=b mean: equal?",
				Options: []examsim.AuthoredOption{
					{Letter: "A", Text: "Equals {sign}", Explanation: "right"},
					{Letter: "B", Text: "Other", Explanation: "wrong"},
				}}),
		}},
		{"xml html to markdown", imported(t, xml, "Rate limit"), &examsim.AuthoredQuestion{
			ID: "rate-limit", Version: 1, Topic: "structured-errors", Difficulty: "medium", Answer: "A",
			Concepts: []string{"is-retryable"},
			Texts: en(&examsim.AuthoredText{Title: "Rate limit",
				Stem: "A tool answers `429` with **Retry-After: 30**.\n\nWhat should the agent do?",
				Options: []examsim.AuthoredOption{
					{Letter: "A", Text: "Wait 30 seconds, then retry", Explanation: "Right: the limit is *transient*."},
					{Letter: "B", Text: "Give up and tell the user", Explanation: "A rate limit passes; giving up wastes the request."},
					{Letter: "C", Text: "Retry at once, in a loop", Explanation: "- It hits the same limit.\n- See [429](https://example.com/429)."},
				}}),
		}},
		{"csv two languages", imported(t, csv, "permission-denied"), &examsim.AuthoredQuestion{
			ID: "permission-denied", Version: 1, Topic: "structured-errors", Difficulty: "hard", Answer: "B",
			Concepts: []string{"permission-errors"}, LessonSource: "permission-errors",
			Texts: map[examsim.Lang]*examsim.AuthoredText{
				examsim.English: {Title: "Permission denied", Stem: `A tool says "permission denied" for a file the user owns. What now?`,
					Options: []examsim.AuthoredOption{
						{Letter: "A", Text: "Retry until it works", Explanation: "A permission error does not pass by itself."},
						{Letter: "B", Text: "Tell the user which permission is missing", Explanation: "Right: only the user can grant it."},
						{Letter: "C", Text: "Escalate at once", Explanation: "Say what is missing first."},
					}},
				examsim.Polish: {Title: "Brak uprawnień", Stem: `Narzędzie zwraca "permission denied". Co teraz?`,
					Options: []examsim.AuthoredOption{
						{Letter: "A", Text: "Ponawiaj do skutku", Explanation: "Błąd uprawnień nie minie sam."},
						{Letter: "B", Text: "Powiedz użytkownikowi, jakiego uprawnienia brakuje", Explanation: "Dobrze: tylko użytkownik może je nadać."},
						{Letter: "C", Text: "Eskaluj od razu", Explanation: "Najpierw powiedz, czego brakuje."},
					}},
			},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.got); diff != "" {
				t.Errorf("question (-want +got):\n%s", diff)
			}
		})
	}
}

func TestImportLimits(t *testing.T) {
	one := "::Q%d::Pick.{=yes #right ~no #wrong}\n\n"
	var many []byte
	for i := range MaxImportQuestions + 2 {
		many = append(many, fmt.Sprintf(one, i)...)
	}
	tests := []struct {
		name   string
		data   []byte
		want   int // questions imported
		reason string
	}{
		{"too large", make([]byte, MaxImportBytes+1), 0, "too_large"},
		{"not utf-8", []byte("::Q::Pick.{=\xff ~no}"), 0, "not_utf8"},
		{"too many", many, MaxImportQuestions, "too_many"},
		{"field too long", []byte("::Q::" + strings.Repeat("x", MaxFieldBytes+1) + "{=yes #r ~no #w}"), 0, "field_too_long"},
		{"control character", []byte("::Q::Pick\x01.{=yes #r ~no #w}"), 0, "control_char"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, parse := range []func([]byte, Options) *Report{GIFT, MoodleXML, CSV} {
				r := parse(tt.data, opts("f"))
				if tt.reason == "too_many" || tt.reason == "field_too_long" || tt.reason == "control_char" {
					r = GIFT(tt.data, opts("f"))
				}
				if n := len(r.Imported()); n != tt.want {
					t.Errorf("imported %d questions, want %d", n, tt.want)
				}
				last := r.Items[len(r.Items)-1]
				if last.Reason == nil || last.Reason.ID != tt.reason {
					t.Errorf("last item %+v, want reason %s", last, tt.reason)
				}
			}
		})
	}
}

func TestNoteEnglish(t *testing.T) {
	got := note("option_count", "Count", 7, "Min", 2, "Max", 6).String()
	if want := "7 options: a question needs 2 to 6"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := (Note{ID: "no_such_note"}).String(); got != "import.no_such_note" {
		t.Errorf("an unknown note says %q, want its id", got)
	}
}

// The XLSX import reads the same rows as the CSV one: a workbook written
// from mixed.csv gives the same report, rows for lines.
func TestXLSXMatchesCSV(t *testing.T) {
	records, err := csv.NewReader(bytes.NewReader(read(t, "mixed.csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	wb := excelize.NewFile()
	for i, rec := range records {
		for j, v := range rec {
			cell, _ := excelize.CoordinatesToCellName(j+1, i+1)
			if err := wb.SetCellStr("Sheet1", cell, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	var buf bytes.Buffer
	if err := wb.Write(&buf); err != nil {
		t.Fatal(err)
	}
	want := summary(CSV(read(t, "mixed.csv"), opts("q")))
	got := summary(XLSX(buf.Bytes(), opts("q")))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("XLSX report differs from CSV's (-csv +xlsx):\n%s", diff)
	}
	if r := XLSX([]byte("not a zip"), opts("q")); r.Items[0].Reason == nil || r.Items[0].Reason.ID != "xlsx" {
		t.Errorf("a broken workbook gives %+v, want the xlsx reason", r.Items)
	}
}

// Every note the package writes has its text in the catalog, which is
// where String and the web both read it from.
func TestEveryNoteHasItsText(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, k := range cat.Keys(examsim.English) {
		known[k] = true
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	literal := regexp.MustCompile(`\bnotep?\("([A-Za-z0-9_]+)"`)
	seen := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range literal.FindAllSubmatch(src, -1) {
			seen++
			if !known["import."+string(m[1])] {
				t.Errorf("%s: note %q has no import.%s in i18n/locales/en.json", f, m[1], m[1])
			}
		}
	}
	if seen == 0 {
		t.Fatal("found no note in the package's source: the pattern is out of date")
	}
}
