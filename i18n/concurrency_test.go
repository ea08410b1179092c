package i18n

import (
	"sync"
	"testing"

	"github.com/examsim/examsim"
)

// TestCatalogConcurrent: pages in four languages translate at once, filling
// the catalog's cache of counted messages as they go. Each translation must
// equal the one made alone, and -race (make test) checks the cache's guard.
func TestCatalogConcurrent(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	const id = "security.login_rate_limited" // a counted message, remembered per count
	want := map[examsim.Lang][]string{}
	fresh, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range examsim.Langs {
		for n := 0; n < 30; n++ {
			want[lang] = append(want[lang], fresh.N(lang, id, n))
		}
	}
	var wg sync.WaitGroup
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 300; i++ {
				lang := examsim.Langs[(g+i)%len(examsim.Langs)]
				n := (g * i) % 30
				if got := c.N(lang, id, n); got != want[lang][n] {
					t.Errorf("%s %d: %q, want %q", lang, n, got, want[lang][n])
					return
				}
				if got := c.T(lang, "error.unknown_language", "Lang", "xx"); got == "error.unknown_language" {
					t.Errorf("%s: error.unknown_language untranslated", lang)
					return
				}
			}
		}()
	}
	wg.Wait()
}
