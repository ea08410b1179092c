package web_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/examsim/examsim/web/webtest"
)

// BenchmarkPages renders each main page through the real router, middleware
// and handlers (httptest.NewRecorder, no network), as an anonymous visitor
// and as a learner with answers on record, in every language. The wrk run in
// BENCHMARKS.md measures the same pages over HTTP.
func BenchmarkPages(b *testing.B) {
	app := webtest.Start(b)
	handler := app.Config.Handler
	c := newClient(b, app.Server)

	// A learner with progress: one answer to each of five questions.
	qs := app.Bank.Questions
	var attempt string
	for _, q := range qs[:5] {
		p := c.post("/practice/"+q.ID, "/practice/"+q.ID, url.Values{"choice": {q.Answer},
			"explanation": {"The tool should return a structured error with isError true, an error category and whether a retry can help."}})
		if p.status != http.StatusSeeOther {
			b.Fatalf("answering %s: status %d", q.ID, p.status)
		}
		attempt = p.header.Get("Location")
	}
	base, _ := url.Parse(app.URL)
	learner := c.http.Jar.Cookies(base)
	if len(learner) == 0 {
		b.Fatal("answering left no identity cookie")
	}
	topic := app.Bank.Topics[0].ID
	pages := []struct {
		name, path string
		learner    bool // needs the learner's cookies
	}{
		{"home", "/", false},
		{"learn", "/learn/" + topic, false},
		{"practice-list", "/practice", false},
		{"question", "/practice/" + qs[0].ID, false},
		{"attempt", attempt, true},
		{"me", "/me", true},
		{"exam-setup", "/exam", false},
		{"sandbox", "/sandbox", false},
		{"join", "/join", false},
	}
	for _, pg := range pages {
		for _, lang := range []string{"en", "vi", "pl", "th"} {
			b.Run(pg.name+"/"+lang, func(b *testing.B) {
				req := httptest.NewRequest(http.MethodGet, pg.path, nil)
				req.AddCookie(&http.Cookie{Name: "examsim_lang", Value: lang})
				if pg.learner {
					for _, ck := range learner {
						req.AddCookie(ck)
					}
				}
				// Check once that the page renders in full, then time it.
				rec := httptest.NewRecorder()
				handler.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `lang="`+lang+`"`) {
					b.Fatalf("GET %s in %s: status %d\n%.300s", pg.path, lang, rec.Code, rec.Body.String())
				}
				b.SetBytes(int64(rec.Body.Len()))
				b.ReportAllocs()
				for b.Loop() {
					rec := httptest.NewRecorder()
					handler.ServeHTTP(rec, req)
					if rec.Code != http.StatusOK {
						b.Fatalf("GET %s: status %d", pg.path, rec.Code)
					}
				}
			})
		}
	}
}
