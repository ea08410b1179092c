package web_test

import (
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
