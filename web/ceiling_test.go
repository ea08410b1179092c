package web_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/examsim/examsim/i18n"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/web"
)

// The load run's fixed-bytes ceiling exists only when asked for.
func TestCeilingIsMountedOnlyForBenchmarks(t *testing.T) {
	fsys, name := questions.Embedded()
	bank, _ := questions.Load(fsys, name)
	catalog, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, on := range []bool{false, true} {
		srv := web.New(web.Config{Bank: bank, Catalog: catalog, CookieKey: []byte("k"), BenchCeiling: on})
		get := func() *httptest.ResponseRecorder {
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/_ceiling", nil))
			return rec
		}
		first, second := get(), get()
		if !on {
			if first.Code != http.StatusNotFound {
				t.Errorf("without BenchCeiling: status %d, want 404", first.Code)
			}
			continue
		}
		if first.Code != http.StatusOK || first.Body.Len() != 4096 || !bytes.Equal(first.Body.Bytes(), second.Body.Bytes()) {
			t.Errorf("with BenchCeiling: status %d, %d bytes, same both times: %v",
				first.Code, first.Body.Len(), bytes.Equal(first.Body.Bytes(), second.Body.Bytes()))
		}
		if first.Header().Get("Content-Security-Policy") == "" {
			t.Error("the ceiling skips the global middleware, so it is no fair ceiling")
		}
	}
}
