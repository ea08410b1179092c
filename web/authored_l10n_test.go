package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/examsim/examsim"
	"github.com/examsim/examsim/web/webtest"
	"github.com/google/go-cmp/cmp"
)

// TestAuthoredEditorProblemsInTheTeachersLanguage: a teacher whose UI is
// in Polish or Thai saves a broken question and reads every problem the
// bank's checks find in that language, beside the field it concerns: an
// option without its explanation, a difficulty the bank does not know, and
// a rubric pattern that does not compile.
func TestAuthoredEditorProblemsInTheTeachersLanguage(t *testing.T) {
	a := &classApp{App: webtest.Start(t), t: t}
	ines := a.account("ines", examsim.RoleInstructor)
	for _, tc := range []struct {
		lang string
		want map[string]string
	}{
		{"pl", map[string]string{
			"error-option-B":   "odpowiedź B nie ma wyjaśnienia: napisz, dlaczego jest dobra albo zła",
			"error-difficulty": `poziom trudności "tricky" musi być jednym z: easy, medium, hard`,
			"error-rule-wait":  `wzorzec "retry||later": pusta alternatywa (dwa | pod rząd albo | na początku lub końcu)`,
		}},
		{"th", map[string]string{
			"error-option-B":   "ตัวเลือก B ยังไม่มีคำอธิบาย: เขียนว่าทำไมข้อนี้จึงถูกหรือผิด",
			"error-difficulty": `ระดับความยาก "tricky" ต้องเป็น easy, medium หรือ hard`,
			"error-rule-wait":  `แพตเทิร์น "retry||later": มีทางเลือกว่าง (| สองตัวติดกัน หรือ | อยู่ต้นหรือท้าย)`,
		}},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			ines.get("/?lang=" + tc.lang)
			bad := editorForm("A tool answers `429` with Retry-After: 30.")
			bad.Set("explanation-B", "")
			bad.Set("difficulty", "tricky")
			bad.Set("rules", "1")
			bad.Set("rule-kind-0", "concept")
			bad.Set("rule-id-0", "wait")
			bad.Set("rule-role-0", "decisive")
			bad.Set("rule-note-0", "Waiting is what the tool asked for.")
			bad.Set("rule-patterns-0", "retry||later")
			p := ines.post("/class/questions/new", "/class/questions", bad)
			if p.status != 422 {
				t.Fatalf("a broken question: %d, want 422", p.status)
			}
			if got, _ := p.doc.Find("html").Attr("lang"); got != tc.lang {
				t.Fatalf("the editor is in %q, want %q", got, tc.lang)
			}
			got := map[string]string{}
			p.doc.Find("[data-testid^=error-]").Each(func(_ int, s *goquery.Selection) {
				got[s.AttrOr("data-testid", "")] = strings.TrimSpace(s.Text())
			})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("problems beside fields (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAuthoredEditorCueWarnings: a teacher whose UI is in Polish saves a
// Polish question whose key is by far the longest option and alone names a field
// as code. The save goes through (cues warn, they do not block) and the
// editor shows both cues in Polish beside the options, marked as warnings
// and not as errors. A question with options of like length and no field
// names shows none.
func TestAuthoredEditorCueWarnings(t *testing.T) {
	a := &classApp{App: webtest.Start(t), t: t}
	ines := a.account("ines", examsim.RoleInstructor)
	ines.get("/?lang=pl")
	for _, tc := range []struct {
		name    string
		id      string
		options map[string]string
		want    []string
	}{
		{"the key gives itself away", "cued-lookup", map[string]string{
			"option-A": "Odczekaj 30 sekund, o które prosi narzędzie, bo `isRetryable` ma wartość true, a potem wywołaj wyszukiwanie ponownie",
			"option-B": "Powiedz użytkownikowi, że wyszukiwanie nie działa",
			"option-C": "Wywołuj je od razu w pętli",
		}, []string{
			"pl: poprawna odpowiedź jest najdłuższa, o 209% dłuższa niż przeciętny dystraktor (zostań poniżej 50%): skróć poprawną odpowiedź albo wydłuż dystraktory",
			"pl: tylko poprawna odpowiedź zawiera nazwę pola jako kod (isRetryable): użyj nazwy pola także w dystraktorze albo usuń ją z poprawnej odpowiedzi",
		}},
		{"no cue", "plain-lookup", map[string]string{
			"option-A": "Odczekaj 30 sekund, a potem wywołaj je ponownie",
			"option-B": "Powiedz użytkownikowi, że narzędzie jest zepsute",
			"option-C": "Wywołuj narzędzie od razu, w ciasnej pętli",
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			form := editorForm("Narzędzie odpowiada `429` z Retry-After: 30.")
			form.Set("lang", "pl")
			form.Set("title", "Wyszukiwanie z limitem zapytań")
			form.Set("id", tc.id)
			for k, v := range tc.options {
				form.Set(k, v)
			}
			p := ines.post("/class/questions/new", "/class/questions", form)
			if p.status != http.StatusSeeOther {
				t.Fatalf("saving: %d, want 303 (cues must not block a save): %s", p.status, p.text("[data-testid=form-error]"))
			}
			p = ines.get("/class/questions/" + tc.id + "?lang=pl&saved=1")
			if p.status != http.StatusOK {
				t.Fatalf("the editor after saving: %d", p.status)
			}
			var got []string
			p.doc.Find("[data-testid=cue-warning]").Each(func(_ int, s *goquery.Selection) {
				got = append(got, strings.TrimSpace(s.Text()))
			})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("cue warnings (-want +got):\n%s", diff)
			}
			if tc.want == nil {
				return
			}
			box := p.doc.Find("fieldset:has([data-testid=option-edit-A]) > [data-testid=cue-warnings]")
			if box.Length() != 1 {
				t.Errorf("the cue warnings are not beside the options")
			}
			if head := strings.TrimSpace(box.Find("strong").Text()); !strings.HasPrefix(head, "Możliwe podpowiedzi") {
				t.Errorf("the warnings' heading %q is not the Polish one", head)
			}
			if n := p.doc.Find("[data-testid^=error-], [data-testid=form-error]").Length(); n != 0 {
				t.Errorf("%d errors shown: cues are warnings, not errors", n)
			}
		})
	}
}

// TestEditingAnotherLanguageKeepsTheInterface: a teacher whose interface
// is in Polish writes and opens a question's English and Thai texts; the
// editor works on that text and the interface stays Polish, after a save
// and through the language tabs alike.
func TestEditingAnotherLanguageKeepsTheInterface(t *testing.T) {
	a := &classApp{App: webtest.Start(t), t: t}
	ines := a.account("ines", examsim.RoleInstructor)
	ines.get("/?lang=pl")
	p := ines.post("/class/questions/new", "/class/questions", editorForm("A tool answers `429` with Retry-After: 30."))
	if p.status != http.StatusSeeOther {
		t.Fatalf("saving the English text: %d, want 303", p.status)
	}
	editing := func(path, wantText string) *page {
		t.Helper()
		p := ines.get(path)
		if p.status != http.StatusOK {
			t.Fatalf("%s: %d", path, p.status)
		}
		if got, _ := p.doc.Find("html").Attr("lang"); got != "pl" {
			t.Errorf("%s: the interface is in %q, want pl", path, got)
		}
		if got, _ := p.doc.Find(`[data-testid=editor-form] input[name=lang]`).Attr("value"); got != wantText {
			t.Errorf("%s: editing the %q text, want %q", path, got, wantText)
		}
		return p
	}
	p = editing(p.header.Get("Location"), "en")
	th, ok := p.doc.Find("[data-testid=lang-tab-th]").Attr("href")
	if !ok {
		t.Fatal("the editor has no Thai tab")
	}
	editing(th, "th")
	if p := ines.get("/"); p.status != http.StatusOK || p.doc.Find("html").AttrOr("lang", "") != "pl" {
		t.Errorf("after editing other languages the interface is %q, want pl", p.doc.Find("html").AttrOr("lang", ""))
	}
}
