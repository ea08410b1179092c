package scoring

import "github.com/examsim/examsim"

// Bands for answers the rubric recognises little of, as a careful grader
// gives them (issue 12): a short answer about the domain that says nothing
// wrong is vague, a 1; one about something else, or a bare letter, is a 0;
// and the key picked with a hedge ("Maybe C?", "Chyba A", "น่าจะ D มั้ง") is a
// 1 when nothing else is recognised, or when the learner says they are unsure.

// domainWords are the words of the domain itself, in every question: a text
// that uses one is about tool failure rather than about coffee machines. Only
// words that learners use when they mean the domain are listed ("dostawca" is
// a vendor but also a supplier; "odpowiedź" is also "the answer is B"), and
// no Vietnamese word that typed without diacritics is another everyday word
// ("nhánh", a branch, is "nhanh", fast; "dừng", stop, is "dung", use).
var domainWords = map[examsim.Lang][]string{
	examsim.English: {"tool*", "agent*", "subagent*", "coordinator*", "error*", "result*", "retr*", "escalat*",
		"is_error", "is_retryable", "flag", "flags", "timeout*", "timed_out", "permission*", "rollback*", "rolled_back",
		"rolling_back", "backoff", "back_off", "model", "query", "queries", "branch*", "vendor*", "mcp", "api", "spec",
		"transient", "validation", "error_handling", "failure*", "failed", "fails", "the_call"},
	examsim.Vietnamese: {"lỗi", "kết_quả", "thử_lại", "gọi_lại", "chạy_lại", "gửi_lại", "lặp_lại", "quyền",
		"xử_lý", "truy_vấn", "phản_hồi", "thất_bại", "báo_lỗi", "thông_báo"},
	examsim.Polish: {"narzędz*", "agent*", "podagent*", "koordynator*", "błęd*", "błąd*", "wynik*", "ponow*",
		"eskal*", "uprawnie*", "obsług*", "eksport*", "flag*", "zapytani*", "gałę*", "gałąź", "wywołani*", "niepowodzeni*"},
	examsim.Thai: {"ผลลัพธ์", "ข้อผิดพลาด", "ผิดพลาด", "ลองใหม่", "เรียกใหม่", "จัดการ", "สิทธิ์", "ล้มเหลว",
		"โมเดล", "คำค้น", "เอเจนต์"},
}

// hedgeWords, standing next to an option letter, pick it unsure of it:
// "Maybe C", "D I guess", "Chắc là A", "Chyba B", "น่าจะ A".
var hedgeWords = map[examsim.Lang][]string{
	examsim.English:    {"maybe", "i_think", "i_guess", "probably", "perhaps", "i_suppose", "fairly_sure", "pretty_sure", "not_sure", "i_believe"},
	examsim.Vietnamese: {"chắc_là", "chắc", "em_nghĩ", "mình_nghĩ", "tôi_nghĩ", "hình_như", "có_lẽ", "có_thể_là", "phân_vân"},
	examsim.Polish:     {"chyba", "pewnie", "myślę", "raczej", "prawdopodobnie", "wydaje_mi_się", "prawie_pewn*", "możliwe"},
	examsim.Thai:       {"น่าจะ", "มั้ง", "คิดว่า", "ไม่แน่ใจ", "ค่อนข้างมั่นใจ", "อาจจะเป็น"},
}

// doubtWords say the learner is unsure or does not understand.
var doubtWords = map[examsim.Lang][]string{
	examsim.English: {"not_sure", "not_really_sure", "not_100", "wasnt_sure", "unsure", "not_certain", "dont_know",
		"dont_fully_know", "dont_really_know", "dont_understand", "dont_get", "i_wondered", "i_wonder", "confused", "no_idea"},
	examsim.Vietnamese: {"không_chắc", "chưa_chắc", "phân_vân", "không_rõ", "không_hiểu", "không_biết", "không_dám_chắc", "lăn_tăn"},
	examsim.Polish: {"nie_jestem_pew*", "nie_byłem_pew*", "nie_byłam_pew*", "nie_wiem", "nie_rozumiem", "zastanawia*",
		"nie_mam_pewności", "nie_jestem_przekonan*", "kusiło"},
	examsim.Thai: {"ไม่แน่ใจ", "ลังเล", "ไม่ค่อยรู้", "ไม่เข้าใจ", "ไม่รู้", "หรือเปล่า", "สงสัย"},
}

var domainTerms, hedgeTerms, doubtTerms = withEnglish(domainWords), withEnglish(hedgeWords), withEnglish(doubtWords)

func init() {
	// "chắc chắn" is "certainly", the opposite of a hedge.
	for _, ts := range hedgeTerms {
		for i := range ts {
			if len(ts[i].toks) == 1 && ts[i].toks[0].norm == "chắc" {
				ts[i].notBefore = []string{"chắn", "chan"}
			}
		}
	}
}

// withEnglish compiles each language's words together with the English
// ones, which learners mix into every language.
func withEnglish(words map[examsim.Lang][]string) map[examsim.Lang][]term {
	out := map[examsim.Lang][]term{}
	for _, l := range examsim.Langs {
		ws := words[l]
		if l != examsim.English {
			ws = append(append([]string(nil), ws...), words[examsim.English]...)
		}
		out[l] = compileCues(ws)
	}
	return out
}

// hedgeReach is how far a hedge may stand from the letter it hedges:
// "I'm fairly sure it's D", "ค่อนข้างมั่นใจว่า D".
const hedgeReach = 3 * wordUnits

// mentionsDomain reports whether the text uses a word of the domain in the
// learner's own words: a quoted payload is not talk about it.
func (x *textIndex) mentionsDomain(lang examsim.Lang) bool {
	for _, s := range spans(domainTerms[lang], x) {
		if !x.toks[s.first].quoted {
			return true
		}
	}
	return false
}

// hedge reports whether the text picks the answer's letter with a hedge next
// to it, and whether it says anywhere that the learner is unsure.
func (r *Rubric) hedge(x *textIndex) (hedged, doubt bool) {
	if r.Answer == "" || !x.namesLetter(r.Answer) {
		return false, false // most explanations name no letter: spare the look-ups
	}
	hs := spans(hedgeTerms[r.Lang], x)
	if len(hs) == 0 {
		return false, false
	}
	for i := range x.toks {
		tk := &x.toks[i]
		if !x.isLetter(i) || x.text[tk.start:tk.end] != r.Answer {
			continue
		}
		for _, h := range hs {
			if x.toks[h.first].sent != tk.sent {
				continue
			}
			if (tk.pos > h.end && tk.pos-h.end <= hedgeReach) || (h.start > tk.pos && h.start-tk.pos <= hedgeReach) {
				hedged = true
			}
		}
	}
	if !hedged {
		return false, false
	}
	return true, len(spans(doubtTerms[r.Lang], x)) > 0
}

// namesLetter reports whether the text has the option letter as a word.
func (x *textIndex) namesLetter(letter string) bool {
	for i := range x.toks {
		if x.isLetter(i) && x.text[x.toks[i].start:x.toks[i].end] == letter {
			return true
		}
	}
	return false
}

// opensWithLetter reports whether the text's first word is an option's
// letter: an answer that picks an option and argues for it is a claim, not a
// vague remark, and a reason with nothing of the key idea in it is not the
// key idea (train split: all four such answers about the domain were 0).
func (x *textIndex) opensWithLetter() bool {
	return len(x.toks) > 0 && x.isLetter(0)
}

// isLetter reports whether token i is a capital A to D standing alone: an
// option's letter.
func (x *textIndex) isLetter(i int) bool {
	tk := &x.toks[i]
	return tk.end-tk.start == 1 && x.text[tk.start] >= 'A' && x.text[tk.start] <= 'D'
}
