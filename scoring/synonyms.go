package scoring

import "strings"

// The shared lexicon: everyday ways of saying the domain's recurring ideas,
// in the four languages. A pattern slot with a word that names one of these
// ideas (its trigger: escalat*, backoff/wait*, empty, partial* and their
// Vietnamese, Polish and Thai words) also matches the idea's everyday
// phrases, so every question's rubric reads "loop in a supervisor", "hold
// off", "nothing found" and "the results so far" as its own words.
//
// Retry, permission and alternatives were tried as groups too and left out
// (issue 12, third pass): their rubric words are chosen narrowly ("retr*" for
// resending unchanged, "permission" beside quoted payloads), and the everyday
// phrases lowered the older labelled set and the self-consistency checks.
//
// A Vietnamese phrase typed without diacritics matches its accented form, so
// none may fold to an everyday word: "chờ" (wait) is "cho" (for), "trống"
// (empty) is "trong" (in).
type synonymGroup struct {
	name     string
	triggers []string // pattern words naming the idea; a trailing * matches any ending
	phrases  []string // everyday ways of saying it, any language
	// verbs and objects, when set, also match a verb followed within
	// pairWindow by an object: "hand the case over to a person".
	verbs, objects []string

	trig  []term
	terms []term
}

// pairWindow is how far the object may follow the verb.
const pairWindow = 5 * wordUnits

var synonymGroups = []*synonymGroup{
	{
		name:     "escalate",
		triggers: []string{"escalat*", "eskal*", "ยกระดับ"},
		phrases: []string{
			// English
			"loop_in", "looping_in", "loops_in", "looped_in", "bring_in", "bringing_in", "call_in", "kick_it_up", "bump_it_up",
			"push_it_up", "human_in_the_loop", "human_review", "manual_review", "human_approval", "human_sign_off",
			// Vietnamese
			"leo_thang", "báo_cáo_lên", "chuyển_lên", "đẩy_lên", "xin_ý_kiến", "xin_phê_duyệt", "người_duyệt",
			// Polish
			"przekazać_dalej", "przekaż_dalej", "przekazanie_dalej", "do_przełożonego", "do_kierownika", "do_człowieka",
			// Thai
			"ยกระดับ", "ส่งเรื่องต่อ", "ส่งต่อให้", "ส่งให้คน", "ให้คนตัดสิน", "ให้มนุษย์", "ส่งขึ้นไป",
		},
		verbs: []string{
			"hand*", "pass*", "turn*", "refer*", "send*", "forward*", "route*", "give*", "involv*", "ask*", "contact*",
			"notify*", "alert*", "get", "fetch*", "call", "calling", "bring*", "loop*", "flag*",
			"chuyển", "giao", "báo", "nhờ", "hỏi", "đưa", "gửi", "để",
			"przekaz*", "przekaż*", "oddaj*", "odda*", "zgłoś*", "zgłos*", "zgłasza*", "poproś*", "popros*", "zapytaj*",
			"zapyta*", "wezwij*", "wezwa*", "zaangażuj*", "angażuj*", "włącz*", "wlacz*", "skonsultuj*", "konsult*",
			"ส่ง", "แจ้ง", "ปรึกษา", "ถาม", "ขอ", "เรียก", "โยน",
		},
		objects: []string{
			"human", "humans", "person", "people", "supervisor*", "manager*", "staff", "operator*", "reviewer*",
			"someone", "somebody", "team_lead", "approver*", "agent_supervisor",
			"người", "con_người", "quản_lý", "cấp_trên", "nhân_viên", "supervisor", "manager", "người_phụ_trách",
			"człowiek*", "osob*", "przełożon*", "kierownik*", "menedżer*", "menadżer*", "manager*", "supervisor*",
			"konsultant*", "operator*", "pracownik*", "szef*",
			"คน", "มนุษย์", "หัวหน้า", "ผู้จัดการ", "เจ้าหน้าที่", "พนักงาน", "ผู้ดูแล", "ผู้อนุมัติ",
		},
	},
	{
		name:     "wait",
		triggers: []string{"backoff", "back_off", "wait*", "czeka*", "odczeka*", "poczeka*", "chờ", "đợi", "รอสักพัก"},
		phrases: []string{
			"back_off", "backoff", "wait*", "pause*", "hold_off", "holding_off", "after_a_while", "a_bit_later",
			"give_it_time", "cool_down", "cooldown",
			"tạm_dừng", "lát_nữa", "giãn_cách", "chờ_một_lúc", "đợi_một_lúc", "chờ_một_chút", "đợi_một_chút",
			"odczeka*", "poczeka*", "czeka*", "przerw*", "za_chwilę", "odstęp*", "backoff*",
			"รอสักพัก", "รอแป๊บ", "รอก่อน", "เว้นระยะ", "หน่วงเวลา", "พักก่อน",
		},
	},
	{
		name:     "empty",
		triggers: []string{"empty", "pust*", "rỗng", "ว่าง"},
		phrases: []string{
			"empty", "nothing_found", "found_nothing", "no_matches", "no_match", "zero_results", "no_results",
			"zero_matches", "returned_nothing", "came_back_empty", "no_hits",
			"rỗng", "không_tìm_thấy", "không_có_kết_quả", "không_khớp",
			"pust*", "nic_nie_znalazł*", "brak_wyników", "zero_wyników", "brak_dopasowań", "nic_nie_zwrócił*",
			"ว่าง", "ไม่เจอ", "ไม่พบ", "ไม่มีผลลัพธ์", "หาไม่เจอ",
		},
	},
	{
		name:     "partial",
		triggers: []string{"partial*", "częściow*", "một_phần", "บางส่วน"},
		phrases: []string{
			"partial*", "results_so_far", "what_it_has", "what_it_got", "the_ones_that_worked", "the_ones_that_succeeded",
			"finished_parts", "completed_parts", "the_good_results",
			"một_phần", "phần_đã_xong", "phần_đã_có", "kết_quả_đã_có", "những_gì_đã_có",
			"częściow*", "to_co_ma", "to_co_już_ma", "gotowe_części", "gotowe_wyniki", "to_co_się_udało",
			"บางส่วน", "เท่าที่ได้", "ที่ได้มาแล้ว", "ส่วนที่เสร็จ", "ส่วนที่ได้",
		},
	},
}

func init() {
	for _, g := range synonymGroups {
		g.trig = compileExact(g.triggers, false)
		g.terms = compileExact(g.phrases, true)
		if len(g.verbs) > 0 {
			verbs, objects := compileExact(g.verbs, true), compileExact(g.objects, true)
			g.terms = append(g.terms, term{toks: verbs[0].toks, ids: verbs[0].ids, pair: &pairTerm{verbs, objects, pairWindow}})
		}
	}
}

// compileExact compiles lexicon words; numbered says whether they will be
// matched against texts (triggers are only compared with pattern words).
func compileExact(words []string, numbered bool) []term {
	var out []term
	for _, w := range words {
		t, err := compileTerm(w)
		if err != nil {
			panic("scoring: bad synonym " + w + ": " + err.Error())
		}
		// Exact: dozens of synonyms would otherwise each scan the text for
		// typos, and everyday phrases are typed right.
		t.exact = true
		if numbered {
			t.number()
		}
		out = append(out, t)
	}
	return out
}

// addSynonyms gives each slot the lexicon phrases of the ideas its words
// name. A {neg} pattern gains none but escalation's: its words were chosen
// for what the learner denies ("{neg} retr*": not resending it unchanged),
// and "fix the id and call again" does not deny that.
func (p *Pattern) addSynonyms() {
	for k, slot := range p.slots {
		for _, g := range synonymGroups {
			if p.polarity == needNegation && g.name != "escalate" {
				continue
			}
			for a := range slot {
				if g.names(&slot[a]) {
					p.slots[k] = append(p.slots[k], g.terms...)
					break
				}
			}
		}
	}
}

// names reports whether a pattern word is one of the group's triggers.
func (g *synonymGroup) names(t *term) bool {
	if t.pair != nil || len(t.toks) == 0 {
		return false
	}
	for k := range g.trig {
		if sameTrigger(t, &g.trig[k]) {
			return true
		}
	}
	return false
}

// sameTrigger compares a pattern word with a trigger: Thai and phrases word
// for word, a single Latin word by its folded form (as a prefix when the
// trigger ends in *).
func sameTrigger(t, trig *term) bool {
	if t.toks[0].thai != trig.toks[0].thai {
		return false
	}
	if trig.toks[0].thai {
		return joinNorms(t) == joinNorms(trig)
	}
	if len(t.toks) != len(trig.toks) {
		return false
	}
	if len(t.toks) == 1 {
		if trig.prefix {
			return strings.HasPrefix(t.toks[0].fold, trig.toks[0].fold)
		}
		return t.toks[0].fold == trig.toks[0].fold
	}
	for k := range t.toks {
		if t.toks[k].norm != trig.toks[k].norm {
			return false
		}
	}
	return true
}

func joinNorms(t *term) string {
	var b strings.Builder
	for _, tk := range t.toks {
		b.WriteString(tk.norm)
	}
	return b.String()
}
