package scoring

import "github.com/examsim/examsim"

// Bands for answers the rubric recognises little of, as a careful grader
// gives them (issue 12): a short answer about the domain that says nothing
// wrong is vague, a 1; one about something else, or a bare letter, is a 0;
// and the key picked with a hedge ("Maybe C?", "Chyba A", "น่าจะ D มั้ง") is a
// 1 when nothing else is recognised, or when the learner says they are unsure.

// The domain words (language.domain) are the words of the domain itself, in every question: a text
// that uses one is about tool failure rather than about coffee machines. Only
// words that learners use when they mean the domain are listed ("dostawca" is
// a vendor but also a supplier; "odpowiedź" is also "the answer is B"), and
// no Vietnamese word that typed without diacritics is another everyday word
// ("nhánh", a branch, is "nhanh", fast; "dừng", stop, is "dung", use).
//
// domainTerms mark an answer about the topic, hedgeTerms and doubtTerms an
// unsure pick; the words are each language's (lang_*.go), English added.
var (
	domainTerms = compileByLang(func(d *language) []string { return d.domain })
	hedgeTerms  = compileByLang(func(d *language) []string { return d.hedges })
	doubtTerms  = compileByLang(func(d *language) []string { return d.doubts })
)

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
