package i18n

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim"
)

func TestEveryLocaleHasEveryEnglishKey(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	english := c.Keys(examsim.English)
	if len(english) < 50 {
		t.Fatalf("only %d English keys: is the catalog loading?", len(english))
	}
	for _, lang := range examsim.Langs {
		have := map[string]bool{}
		for _, k := range c.Keys(lang) {
			have[k] = true
		}
		for _, k := range english {
			if !have[k] {
				t.Errorf("%s.json lacks %q", lang, k)
			}
		}
		if extra := len(c.Keys(lang)) - len(english); extra > 0 {
			t.Errorf("%s.json has %d keys English lacks", lang, extra)
		}
	}
}

func TestPolishPluralForms(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	// CLDR: 1 one; 2-4 (not 12-14) few; 0, 5-21, 25… many.
	forms := map[int]string{}
	for _, n := range []int{1, 2, 3, 4, 5, 12, 22, 25} {
		forms[n] = c.N(examsim.Polish, "home.question_count", n)
	}
	for _, same := range [][]int{{2, 3, 4, 22}, {5, 12, 25}} {
		for _, n := range same[1:] {
			a := strings.Replace(forms[same[0]], strconv.Itoa(same[0]), "N", 1)
			b := strings.Replace(forms[n], strconv.Itoa(n), "N", 1)
			if a != b {
				t.Errorf("Polish %d and %d should share a form: %q vs %q", same[0], n, forms[same[0]], forms[n])
			}
		}
	}
	if strings.Replace(forms[2], "2", "N", 1) == strings.Replace(forms[5], "5", "N", 1) {
		t.Errorf("Polish few and many forms are the same: %q, %q", forms[2], forms[5])
	}
	if strings.Replace(forms[1], "1", "N", 1) == strings.Replace(forms[2], "2", "N", 1) {
		t.Errorf("Polish one and few forms are the same: %q, %q", forms[1], forms[2])
	}
}

func TestTemplateDataAndFallback(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if got := c.T(examsim.English, "nav.logout", "Name", "minh"); got != "Log out (minh)" {
		t.Errorf("nav.logout = %q", got)
	}
	if got := c.T(examsim.Thai, "no.such.key"); got != "no.such.key" {
		t.Errorf("missing key = %q, want the id", got)
	}
}

func TestNegotiate(t *testing.T) {
	tests := map[string]examsim.Lang{
		"":                        examsim.English,
		"vi-VN,vi;q=0.9,en;q=0.8": examsim.Vietnamese,
		"pl":                      examsim.Polish,
		"th-TH":                   examsim.Thai,
		"fr-FR,de;q=0.5":          examsim.English,
		"de;q=0.9, pl;q=0.8":      examsim.Polish,
		"garbage;;;q=x":           examsim.English,
	}
	got := map[string]examsim.Lang{}
	for h := range tests {
		got[h] = Negotiate(h)
	}
	if diff := cmp.Diff(tests, got); diff != "" {
		t.Errorf("Negotiate (-want +got):\n%s", diff)
	}
}
