package pllemma

import (
	"bytes"
	"compress/gzip"
	"slices"
	"strings"
	"testing"
)

func lemmasOf(t *Table, form string) []string {
	var out []string
	for _, id := range t.Lemmas(form) {
		out = append(out, t.Lemma(id))
	}
	slices.Sort(out)
	return out
}

func TestEmbeddedTableMapsKnownForms(t *testing.T) {
	tbl := Load()
	if tbl.NumLemmas() < 1000 || tbl.NumForms() < 10000 {
		t.Fatalf("table has %d lemmas and %d forms: the embedded file looks truncated", tbl.NumLemmas(), tbl.NumForms())
	}
	tests := []struct {
		form string
		want string // a lemma the form must map to
	}{
		{"bledu", "blad"},
		{"bledem", "blad"},
		{"blad", "blad"},
		{"ponow", "ponowic"},
		{"ponowienie", "ponowic"}, // the gerund belongs to its verb
		{"ponowi", "ponowic"},
		{"ponawiac", "ponawiac"},
		{"ponawianie", "ponawiac"},
		{"uprawnien", "uprawnienie"},
		{"uprawnieniami", "uprawnienie"},
		{"eskaluj", "eskalowac"},
		{"eskalowal", "eskalowac"},
		{"zrodel", "zrodlo"},
	}
	for _, tt := range tests {
		if got := lemmasOf(tbl, tt.form); !slices.Contains(got, tt.want) {
			t.Errorf("Lemmas(%q) = %v, want it to include %q", tt.form, got, tt.want)
		}
	}
}

func TestTableLeavesFunctionWordsAndNegationsAlone(t *testing.T) {
	tbl := Load()
	// "nie" is also a form of the pronoun "on", "to" of "ten", "tak" of a
	// rare noun: function words get no lemma, or "to" would match "tego".
	// A negated gerund is not its verb: "nieponawianie" is not retrying.
	for _, form := range []string{"nie", "to", "tego", "tak", "sie", "jak", "nieponawianie", "xyzzy", ""} {
		if got := lemmasOf(tbl, form); len(got) > 0 {
			t.Errorf("Lemmas(%q) = %v, want none", form, got)
		}
	}
}

// A word's rare homographs are left out unless examsim's text attests them:
// "musi" (must) is also a form of "music" (to force), "uda" (succeeds) the
// plural of "udo" (thigh), "tracę" (I lose) a form of "trzeć" (to rub).
func TestTableLeavesOutUnattestedHomographs(t *testing.T) {
	tbl := Load()
	for _, tt := range []struct{ form, want, rare string }{
		{"musi", "musiec", "music"},
		{"uda", "udac", "udo"},
		{"trace", "", "trzec"},
	} {
		got := lemmasOf(tbl, tt.form)
		if slices.Contains(got, tt.rare) || tt.want != "" && !slices.Contains(got, tt.want) {
			t.Errorf("Lemmas(%q) = %v, want %q and not %q", tt.form, got, tt.want, tt.rare)
		}
	}
}

func TestPrefixRangeHoldsTheLemmasThatStartWithIt(t *testing.T) {
	tbl := Load()
	lo, hi := tbl.PrefixRange("ponaw")
	if lo >= hi {
		t.Fatalf("PrefixRange(ponaw) is empty")
	}
	for id := lo; id < hi; id++ {
		if l := tbl.Lemma(id); !strings.HasPrefix(l, "ponaw") {
			t.Errorf("lemma %d %q in the range of ponaw", id, l)
		}
	}
	if lo > 0 && strings.HasPrefix(tbl.Lemma(lo-1), "ponaw") || int(hi) < tbl.NumLemmas() && strings.HasPrefix(tbl.Lemma(hi), "ponaw") {
		t.Errorf("the range [%d, %d) of ponaw misses a neighbour", lo, hi)
	}
	if lo, hi := tbl.PrefixRange("qqqq"); lo != hi {
		t.Errorf("PrefixRange(qqqq) = [%d, %d), want empty", lo, hi)
	}
}

func gz(tb testing.TB, text string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write([]byte(text)); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

func TestParseReadsSharedPrefixesAndRejectsBrokenTables(t *testing.T) {
	tbl, err := parse(gz(t, "# comment\nblad\t4 2edu 5m\nmiec\t0mam 3y\n"))
	if err != nil {
		t.Fatal(err)
	}
	for form, want := range map[string]string{"blad": "blad", "bledu": "blad", "bledum": "blad", "mam": "miec", "mamy": "miec"} {
		if got := lemmasOf(tbl, form); !slices.Equal(got, []string{want}) {
			t.Errorf("Lemmas(%q) = %v, want [%s]", form, got, want)
		}
	}
	for name, text := range map[string]string{
		"no tab":        "blad 4\n",
		"out of order":  "miec\t4\nblad\t4\n",
		"bad count":     "blad\tx\n",
		"count too big": "ab\t5c\n",
		"empty":         "# nothing\n",
	} {
		if _, err := parse(gz(t, text)); err == nil {
			t.Errorf("%s: parse accepted %q", name, text)
		}
	}
}

// BenchmarkParse is the one-off cost of the first Polish score in a process.
func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parse(tableGz); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLemmas(b *testing.B) {
	tbl := Load()
	words := strings.Fields("narzedzie polaczylo sie z baza zapytanie wykonalo poprawnie znalazlo klienta adresem pusta tablica prawidlowy wynik bledu dostepu")
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		tbl.Lemmas(words[i%len(words)])
	}
}
