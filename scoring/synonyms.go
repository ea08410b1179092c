package scoring

import "strings"

// Everyday ways of saying "escalate", in the four languages. A pattern slot
// that names escalation (escalat*, eskal*, escalate) also matches these, so
// "loop in a supervisor", "hand it to a person", "chuyển cho quản lý",
// "przekaż człowiekowi" and "ส่งต่อให้หัวหน้า" count as escalating.
var escalatePhrases = []string{
	// English
	"loop_in", "looping_in", "loops_in", "looped_in", "bring_in", "bringing_in", "call_in", "kick_it_up", "bump_it_up",
	"push_it_up", "human_in_the_loop", "human_review", "manual_review", "human_approval", "human_sign_off",
	// Vietnamese
	"leo_thang", "báo_cáo_lên", "chuyển_lên", "đẩy_lên", "xin_ý_kiến", "xin_phê_duyệt", "người_duyệt",
	// Polish
	"przekazać_dalej", "przekaż_dalej", "przekazanie_dalej", "do_przełożonego", "do_kierownika", "do_człowieka",
	// Thai
	"ยกระดับ", "ส่งเรื่องต่อ", "ส่งต่อให้", "ส่งให้คน", "ให้คนตัดสิน", "ให้มนุษย์", "ส่งขึ้นไป",
}

var escalateVerbs = []string{
	"hand*", "pass*", "turn*", "refer*", "send*", "forward*", "route*", "give*", "involv*", "ask*", "contact*",
	"notify*", "alert*", "get", "fetch*", "call", "calling", "bring*", "loop*", "flag*",
	"chuyển", "giao", "báo", "nhờ", "hỏi", "đưa", "gửi", "để",
	"przekaz*", "przekaż*", "oddaj*", "odda*", "zgłoś*", "zgłos*", "zgłasza*", "poproś*", "popros*", "zapytaj*",
	"zapyta*", "wezwij*", "wezwa*", "zaangażuj*", "angażuj*", "włącz*", "wlacz*", "skonsultuj*", "konsult*",
	"ส่ง", "แจ้ง", "ปรึกษา", "ถาม", "ขอ", "เรียก", "โยน",
}

var escalatePeople = []string{
	"human", "humans", "person", "people", "supervisor*", "manager*", "staff", "operator*", "reviewer*",
	"someone", "somebody", "team_lead", "approver*", "agent_supervisor",
	"người", "con_người", "quản_lý", "cấp_trên", "nhân_viên", "supervisor", "manager", "người_phụ_trách",
	"człowiek*", "osob*", "przełożon*", "kierownik*", "menedżer*", "menadżer*", "manager*", "supervisor*",
	"konsultant*", "operator*", "pracownik*", "szef*",
	"คน", "มนุษย์", "หัวหน้า", "ผู้จัดการ", "เจ้าหน้าที่", "พนักงาน", "ผู้ดูแล", "ผู้อนุมัติ",
}

// escalateWindow is how far the person may follow the verb: "hand the
// case over to a person".
const escalateWindow = 5 * wordUnits

var escalateSynonyms = func() []term {
	compile := func(words []string) []term {
		var out []term
		for _, w := range words {
			t, err := compileTerm(w)
			if err != nil {
				panic("scoring: bad synonym " + w + ": " + err.Error())
			}
			// Exact: dozens of synonyms would otherwise each scan the
			// text for typos, and everyday verbs are typed right.
			t.exact = true
			t.number()
			out = append(out, t)
		}
		return out
	}
	out := compile(escalatePhrases)
	verbs, people := compile(escalateVerbs), compile(escalatePeople)
	pair := term{toks: verbs[0].toks, ids: verbs[0].ids, pair: &pairTerm{verbs, people, escalateWindow}}
	return append(out, pair)
}()

// isEscalate reports whether a pattern word names escalation.
func isEscalate(t *term) bool {
	if t.pair != nil || len(t.toks) == 0 {
		return false
	}
	f := t.toks[0].fold
	if t.toks[0].thai {
		var b strings.Builder
		for _, tk := range t.toks {
			b.WriteString(tk.norm)
		}
		return b.String() == "ยกระดับ"
	}
	return len(t.toks) == 1 && (strings.HasPrefix(f, "escalat") || strings.HasPrefix(f, "eskal"))
}
