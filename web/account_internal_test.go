package web

import (
	"testing"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/i18n"
)

func TestDeleteConfirmationWord(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		lang  examsim.Lang
		typed string
		want  bool
	}{
		{examsim.Vietnamese, "XÓA", true},
		{examsim.Vietnamese, " xóa ", true},
		{examsim.Vietnamese, "XO\u0301A", true}, // decomposed accent, as some keyboards type it
		{examsim.Vietnamese, "delete", true},
		{examsim.Vietnamese, "XOA", false},
		{examsim.Polish, "usuń", true},
		{examsim.Thai, "ลบ", true},
		{examsim.English, "DELETE", true},
		{examsim.English, "", false},
		{examsim.English, "yes", false},
	}
	for _, tt := range tests {
		if got := confirmed(&Page{Lang: tt.lang, Catalog: cat}, tt.typed); got != tt.want {
			t.Errorf("%s %q: confirmed = %v, want %v", tt.lang, tt.typed, got, tt.want)
		}
	}
}
