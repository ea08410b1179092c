package i18n

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"

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

// The looked-up-once messages read exactly as go-i18n renders them, in every
// language (English for the ones a language lacks), and messages with
// placeholders are still filled in.
func TestFixedMessagesMatchTheCatalog(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, lang := range examsim.Langs {
		for _, id := range c.Keys(examsim.English) {
			s, ok := c.fixed[lang][id]
			if !ok {
				continue
			}
			n++
			if want := c.localize(lang, &goi18n.LocalizeConfig{MessageID: id}); s != want {
				t.Errorf("%s %s = %q, go-i18n gives %q", lang, id, s, want)
			}
			if strings.Contains(s, "{{") {
				t.Errorf("%s %s has a placeholder but was fixed: %q", lang, id, s)
			}
		}
	}
	if n < 4*50 {
		t.Errorf("only %d fixed messages: is the fast path in use?", n)
	}
	if got := c.N(examsim.English, "home.question_count", 3); !strings.Contains(got, "3") {
		t.Errorf("a plural message lost its count: %q", got)
	}
}

// Messages filled in without text/template read exactly as go-i18n fills
// them, with text and with numbers, and a missing value still goes the slow
// way.
func TestFilledMessagesMatchTheCatalog(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, lang := range examsim.Langs {
		for id, segs := range c.filled[lang] {
			for _, value := range []any{"<b>x & y</b>", 42, int64(-7)} {
				var kv []any
				data := map[string]any{}
				for _, sg := range segs {
					if sg.key != "" {
						kv = append(kv, sg.key, value)
						data[sg.key] = value
					}
				}
				got, ok := fill(segs, kv)
				if !ok {
					t.Fatalf("%s %s: fill declined %v", lang, id, kv)
				}
				n++
				if want := c.localize(lang, &goi18n.LocalizeConfig{MessageID: id, TemplateData: data}); got != want {
					t.Errorf("%s %s = %q, go-i18n gives %q", lang, id, got, want)
				}
				if got != c.T(lang, id, kv...) {
					t.Errorf("%s %s: T does not use the filled message", lang, id)
				}
			}
			if _, ok := fill(segs, nil); ok {
				t.Errorf("%s %s: filled without its values", lang, id)
			}
		}
	}
	if n < 4*10 {
		t.Errorf("only %d filled messages checked: is the fast path in use?", n)
	}
	if _, ok := segments("{{if .X}}a{{end}}"); ok {
		t.Error("a template with actions was taken for plain placeholders")
	}
}

// A remembered count message is the one go-i18n makes, in every plural form.
func TestRememberedCountsMatchTheCatalog(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range examsim.Langs {
		for _, n := range []int{0, 1, 2, 5, 22, 25, 101, 999, 1000, -1} {
			want := c.localize(lang, &goi18n.LocalizeConfig{MessageID: "home.question_count", PluralCount: n,
				TemplateData: map[string]any{"Count": n}})
			for range 2 { // made, then remembered
				if got := c.N(lang, "home.question_count", n); got != want {
					t.Errorf("%s %d = %q, want %q", lang, n, got, want)
				}
			}
		}
	}
	if _, ok := c.counted.Load(countedKey{examsim.Polish, "home.question_count", 22}); !ok {
		t.Error("counts are not remembered")
	}
	c.N(examsim.English, "no.such.id", 3)
	if _, ok := c.counted.Load(countedKey{examsim.English, "no.such.id", 3}); ok {
		t.Error("an unknown id was remembered: the cache is unbounded")
	}
}
