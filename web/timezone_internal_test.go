package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestZoneCacheHoldsOnlyCanonicalNames sends many spellings of one zone, as
// an anonymous client can, and checks the server keeps only the zone's
// canonical name: the cache must not grow with what clients send.
func TestZoneCacheHoldsOnlyCanonicalNames(t *testing.T) {
	var spellings []string
	for i := 1; i <= 20; i++ {
		for j := 0; j <= 8; j++ {
			spellings = append(spellings, "America"+strings.Repeat("/", i)+strings.Repeat("./", j)+"New_York")
		}
	}
	spellings = append(spellings, "America/New_York", "America%2FNew_York", "Asia%2FHo_Chi_Minh", "Local")
	for _, s := range spellings {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.AddCookie(&http.Cookie{Name: tzCookie, Value: s})
		z := zoneOf(r)
		if canonical := z.String(); strings.Contains(canonical, "//") || strings.Contains(canonical, "./") {
			t.Errorf("%q gave the zone %q; want a canonical name or UTC", s, canonical)
		}
	}
	if n := zones.len(); n > 2 {
		t.Errorf("after %d spellings of two zones the cache holds %d entries; want at most 2", len(spellings), n)
	}
}

// TestZoneCacheIsBounded fills the cache past its bound with real zone names
// and checks it stops growing, while a zone past the bound still shows.
func TestZoneCacheIsBounded(t *testing.T) {
	c := zoneCache{max: 3}
	for _, name := range []string{"Asia/Bangkok", "Europe/Warsaw", "Asia/Ho_Chi_Minh", "Europe/London", "America/New_York"} {
		if z := c.get(name); z.String() != name {
			t.Errorf("get(%q) = %v", name, z)
		}
	}
	if n := c.len(); n != 3 {
		t.Errorf("cache holds %d zones; want its bound, 3", n)
	}
}
