package scoring

import (
	"slices"

	"github.com/examsim/examsim"
)

// Claims that one thing is enough: "the invoice id plus the status is
// enough", "isRetryable is the only field that matters", "chỉ cần gửi sáu
// nguồn", "wystarczy ponawiać", "ส่งแค่ partial ไปก็พอ". The right keywords
// next to such a claim still make a wrong answer: it dismisses what else
// the situation needs (issue 20; on the new writers' train items 12 of 13
// such claims were graded 0).
var (
	sufficiencyTerms = compileByLang(func(d *language) []string { return d.sufficiency })
	onlyTerms        = compileByLang(func(d *language) []string { return d.onlyWords })
	mattersTerms     = compileByLang(func(d *language) []string { return d.mattersWords })
)

// onlyMattersWindow is how far "matters" may follow "only".
const onlyMattersWindow = 6 * wordUnits

// claimsSufficiency reports a sufficiency claim the learner asserts: not
// negated before it in its clause ("is not enough"), refuted, supposed, nor
// in a sentence about another option.
func (x *textIndex) claimsSufficiency(lang examsim.Lang) bool {
	rd := &x.rd
	asserted := func(s span) bool {
		i := s.first
		if inAny(rd.neg, i) || inAny(rd.refuted, i) || inAny(rd.supposed, i) || inAny(rd.hypothetical, i) ||
			inAny(rd.consequence, i) || slices.Contains(rd.otherOption, x.toks[i].sent) {
			return false
		}
		for _, n := range rd.negCues {
			if n.clause == s.clause && n.last < s.first {
				return false
			}
		}
		return true
	}
	for _, s := range spans(sufficiencyTerms[lang], x) {
		if asserted(s) {
			return true
		}
	}
	matters := spans(mattersTerms[lang], x)
	for _, o := range spans(onlyTerms[lang], x) {
		for _, m := range matters {
			if m.clause == o.clause && m.first > o.last && m.start-o.start <= onlyMattersWindow && asserted(m) {
				return true
			}
		}
	}
	return false
}
