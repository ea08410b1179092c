package scoring

import (
	"strings"
	"testing"

	"github.com/examsim/examsim"
)

// conceptHit scores text against a one-concept rubric in lang and reports
// whether the concept was found.
func conceptHit(t *testing.T, lang examsim.Lang, pattern, text string) bool {
	t.Helper()
	r := &Rubric{Version: 2, Lang: lang, Concepts: []Concept{{ID: "c", Role: Decisive, Weight: 3, Patterns: []*Pattern{mustPattern(t, pattern)}}}}
	res, err := r.Score(text)
	if err != nil {
		t.Fatal(err)
	}
	return res.Concepts[0].Hit
}

func TestPolishConceptWordsMatchByLemma(t *testing.T) {
	tests := []struct {
		pattern, text string
		want          bool
	}{
		// The stem changes, so neither a prefix nor one typo reaches these.
		{"blad", "to kwestia błędu uprawnień", true},
		{"błąd", "skończy się tym samym błędem", true},
		{"błąd", "to bledy dostepu", true}, // typed without diacritics
		{"ponowić", "ponów to wywołanie", true},
		{"ponowić", "ponowienie pomoże", true}, // the gerund is the verb's
		{"{neg} ponowić", "ponowienie nic nie da", true},
		{"uprawnienie", "brak uprawnień", true},
		{"eskalować", "eskaluj do koordynatora", true},
		{"zapytanie", "koordynator dostaje treść zapytań", true},
		// A prefix matches the forms of the lemmas it starts.
		{"źródł* pad*", "dwa ze źródeł padły", true},
		// A pattern word that is a lemma stands for that lemma alone:
		// "dane" (data) is also a form of "dać" (give).
		{"dane", "agent dał odpowiedź", false},
		{"dane", "brak danych", true},
		// Function words and negated forms get no lemma: "to" is a form of
		// "ten", "nieponawianie" of "ponawiać".
		{"to", "tego nie wiadomo", false},
		{"ponawiać", "nieponawianie", false},
		// Words the table does not know keep prefixes and typos.
		{"koordynator", "kordynator wie", true},
		{"ponaw*", "agent ponawia", true},
		{"xyzzy", "qwerty", false},
	}
	for _, tt := range tests {
		if got := conceptHit(t, examsim.Polish, tt.pattern, tt.text); got != tt.want {
			t.Errorf("pl %q in %q: hit %v, want %v", tt.pattern, tt.text, got, tt.want)
		}
	}
}

func TestLemmasAreForPolishConceptsOnly(t *testing.T) {
	// Other languages match as written.
	if conceptHit(t, examsim.English, "blad", "to kwestia błędu") {
		t.Errorf("an English rubric matched Polish lemmas")
	}
	// Misconceptions match as written: "czego próbowano" (what was tried)
	// must not read as "probowac" (keep trying).
	r := &Rubric{Version: 2, Lang: examsim.Polish,
		Concepts:       []Concept{{ID: "c", Role: Decisive, Weight: 3, Patterns: []*Pattern{mustPattern(t, "eskal*")}}},
		Misconceptions: []Misconception{{ID: "m", Penalty: 40, Patterns: []*Pattern{mustPattern(t, "dalej probowac")}}},
	}
	res, err := r.Score("Eskaluje gałąź z informacją, czego próbowano, a reszta idzie dalej.")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Misconceptions) > 0 {
		t.Errorf("misconception found by lemma: %+v", res.Misconceptions)
	}
	// The same word as a concept in one rubric and a misconception in
	// another is two vocabulary entries: one text may meet both.
	r.Concepts[0].Patterns = []*Pattern{mustPattern(t, "probowac")}
	res, err = r.Score("czego próbowano, a reszta idzie dalej")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Concepts[0].Hit || len(res.Misconceptions) > 0 {
		t.Errorf("concept hit %v (want true), misconceptions %+v (want none)", res.Concepts[0].Hit, res.Misconceptions)
	}
}

// Polish rubrics compile their lemmas on first use, which requests may
// share (run with -race).
func TestPolishLemmasScoreAlikeWhenFirstUsedConcurrently(t *testing.T) {
	rubric := func() *Rubric {
		return &Rubric{Version: 2, Lang: examsim.Polish, Concepts: []Concept{
			{ID: "perm", Role: Decisive, Weight: 3, Patterns: []*Pattern{mustPattern(t, "błąd uprawnienie")}},
			{ID: "retry", Role: Supporting, Weight: 2, Patterns: []*Pattern{mustPattern(t, "{neg} ponowić")}},
		}}
	}
	scoresAlikeWhenFirstUsedConcurrently(t, rubric, "To błąd uprawnień, więc ponowienie nie pomoże: trzeba eskalować.", 2)
}

// BenchmarkLemmatize is what noting the lemmas of a 500-character Polish
// explanation adds to scoring it (BenchmarkScore/pl).
func BenchmarkLemmatize(b *testing.B) {
	text := strings.Repeat("Narzędzie połączyło się z bazą i zapytanie wykonało się poprawnie, po prostu nie znalazło klienta z tym adresem, więc pusta tablica to prawidłowy pusty wynik, a nie błąd dostępu. ", 3)[:500]
	x := indexText(text)
	defer x.release()
	x.lemmatize(examsim.Polish)
	if len(x.lemmaPairs) == 0 {
		b.Fatal("no word of the text has a lemma")
	}
	b.ReportAllocs()
	for b.Loop() {
		x.lemmatize(examsim.Polish)
	}
}
