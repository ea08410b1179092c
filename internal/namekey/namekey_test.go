package namekey_test

import (
	"testing"

	"github.com/examsim/examsim/internal/namekey"
)

func TestOf(t *testing.T) {
	same := [][]string{
		{"Alice", "alice", "ALICE", "Аlice" /* Cyrillic А */, "Ａｌｉｃｅ" /* full-width */, "Αlice" /* Greek Alpha */, "A l i c e", "Al\u200bice", "Al\u00adice", "АLІСЕ" /* Cyrillic А, І, С, Е */},
		{"Anh Minh", "anhminh", "ANH MINH", "Anh\tMinh", "Аnh Мinh"},
		{"Łukasz", "ŁUKASZ", "łukasz"},
		{"Ánh", "A\u0301nh" /* decomposed */, "ÁNH", "\u0430\u0301nh" /* Cyrillic а + combining acute */},
		{"Oskar", "Оskar", "Оѕkаr" /* Cyrillic О, ѕ, а */},
		{"สมชาย", "สม ชาย"},
		// TR39 before case folding: capital I is drawn like l.
		{"Alice", "AIice", "ᴀlice" /* small capital */, "Ꭺlice" /* Cherokee */, "A\u034flice" /* grapheme joiner */, "Al\u3164ice" /* Hangul filler */, "A1ice", "ALICE", "alice"},
		{"maria", "rnaria", "Maria", "RNARIA"},
		{"Bob", "B0b", "BOB", "b0b"},
	}
	for _, group := range same {
		want := namekey.Of(group[0])
		for _, name := range group[1:] {
			if got := namekey.Of(name); got != want {
				t.Errorf("namekey.Of(%q) = %q, want %q as for %q", name, got, want, group[0])
			}
		}
	}
	different := [][2]string{
		{"Anh", "Ánh"}, {"Minh", "Mình"}, {"Lucja", "Łucja"}, {"Ala", "Ola"}, {"สมชาย", "สมหญิง"}, {"Zosia", "Żosia"}, {"Student1", "Student2"},
	}
	for _, d := range different {
		if namekey.Of(d[0]) == namekey.Of(d[1]) {
			t.Errorf("%q and %q fold alike (%q), but are different names", d[0], d[1], namekey.Of(d[0]))
		}
	}
}
