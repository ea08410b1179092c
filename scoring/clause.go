package scoring

import (
	"slices"
	"strings"

	"github.com/examsim/examsim"
)

// Clause reading: who asserts what. Each cue opens a scope over the words of
// its clause, and a rubric match is read through the scopes its words fall in:
//
//   - negation: "not", "không", "nie", "ไม่" negate the words after them up to
//     a blocker ("but", "because", "và", "bo", "แต่") or the clause end; a
//     negation followed by a judgement of use ("is not needed", "nie pomoże",
//     "không giúp", "ไม่ช่วย") also negates the words before it, so "retrying
//     is not needed" denies retrying;
//   - refutation: "instead of", "rather than", "it's wrong to", "thay vì",
//     "zamiast", "แทนที่จะ" reject what follows; "would only", "would hide",
//     "jest błędem", "sẽ chỉ" reject what precedes;
//   - supposition: "if", "nếu", "jeśli", "gdyby", "ถ้า" only suppose what
//     follows, up to the clause end.
//
// A misconception counts only when asserted: none of its words negated
// (unless the pattern asks for a negation), refuted or supposed, and not in
// the consequence of a supposition ("if it were transient, a retry would
// work"). A concept counts when asserted with its own polarity: not negated
// unless its pattern says {neg}, and not wholly refuted or supposed.

// Scope lengths, in units (a spaced word is wordUnits, a Thai character one).
const (
	negForward     = 6 * wordUnits
	negBackward    = 4 * wordUnits
	judgementAfter = 2 * wordUnits
	refuteForward  = 10 * wordUnits
	refuteBackward = 12 * wordUnits
	supposeForward = 10 * wordUnits
)

// cueWords are the words, per language, that open or close scopes (each
// language's are in its lang_*.go). English cues count in every language,
// as learners mix English into their writing.
type cueWords struct {
	blockers     []string // end every scope: conjunctions and relative words
	judgements   []string // after a negation, they turn it back onto the subject
	selfJudging  []string // negation cues that judge what precedes them by themselves
	refuteAhead  []string // reject what follows
	refuteBehind []string // reject what precedes
	suppose      []string // suppose what follows
	weak         []string // negation cues that do not deny what they name: "without"
	modals       []string // mark a supposition's consequence as counterfactual
	// purpose words open a purpose clause, which belongs to the action it
	// follows: "changing the status, to dodge the rule, would only be a
	// workaround" rejects the change.
	purpose []string
	// states name a passing state: "only temporary" after "chỉ là" or
	// "เป็นแค่" describes the error, it does not belittle a proposal.
	states []string
	// cause and one make "because of one branch" part of the subject it
	// follows; and joins two nouns into one subject ("kod i timestamp").
	cause, one, and []string
}

// cueSet is one language's compiled cues.
type cueSet struct {
	negations                                                []term // from negation.go
	blockers, judgements, refuteAhead, refuteBehind, suppose []term
	weak, modals, purpose, states, cause, one, and           []term
	selfJudgingTerms                                         []term
	// actionNounPrefix and describesPrefix: see language.
	actionNounPrefix, describesPrefix string
}

var cueSets = func() map[examsim.Lang]*cueSet {
	out := map[examsim.Lang]*cueSet{}
	for _, lang := range examsim.Langs {
		own, en := langOf(lang).cues, langOf(examsim.English).cues
		merge := func(a, b []string) []string {
			if lang == examsim.English {
				return a
			}
			return append(append([]string(nil), a...), b...)
		}
		cs := &cueSet{negations: negationCues[lang]}
		// Polish "a" and "i" are conjunctions, English ones are not blockers there.
		cs.blockers = compileCues(merge(own.blockers, en.blockers))
		cs.judgements = compileCues(merge(own.judgements, en.judgements))
		cs.refuteAhead = compileCues(merge(own.refuteAhead, en.refuteAhead))
		cs.refuteBehind = compileCues(merge(own.refuteBehind, en.refuteBehind))
		cs.suppose = compileCues(merge(own.suppose, en.suppose))
		cs.selfJudgingTerms = compileCues(merge(own.selfJudging, en.selfJudging))
		cs.weak = compileCues(merge(own.weak, en.weak))
		cs.modals = compileCues(merge(own.modals, en.modals))
		cs.purpose = compileCues(own.purpose)
		cs.states = compileCues(merge(own.states, en.states))
		cs.cause, cs.one, cs.and = compileCues(own.cause), compileCues(own.one), compileCues(own.and)
		cs.actionNounPrefix, cs.describesPrefix = langOf(lang).actionNounPrefix, langOf(lang).describesPrefix
		out[lang] = cs
	}
	return out
}()

// cueExceptions are every language's exceptions, by cue: the letters the
// cue may not be followed by, where it is the start of another word.
var cueExceptions = func() map[string][]string {
	out := map[string][]string{}
	for _, d := range languages {
		for w, nb := range d.exceptions {
			out[w] = nb
		}
	}
	return out
}()

// compileCues compiles cue words to exact terms, with their exceptions.
func compileCues(words []string) []term {
	var out []term
	for _, w := range words {
		t, err := compileTerm(w)
		if err != nil {
			panic("scoring: bad cue " + w + ": " + err.Error())
		}
		t.exact = true
		t.notBefore = cueExceptions[w]
		t.number()
		out = append(out, t)
	}
	return out
}

// scope is the stretch of tokens [from, to] a cue governs, and the cue's own
// tokens [cueFrom, cueTo].
type scope struct{ from, to, cueFrom, cueTo int }

// reading is what the clause reader found in one text.
type reading struct {
	neg, refuted, supposed, hypothetical []scope
	// denying is neg without the scopes of "without"-like cues.
	denying []scope
	// counterfactual is the part of hypothetical with "would", "could",
	// "by": "if it had run, zero would be an answer" asserts no answer.
	counterfactual []scope
	negCues        []span  // every negation cue, for {neg} and {!neg}
	consequence    []scope // after a refutation cue: the harm it names
	// otherOption lists the sentences that name an option other than the
	// answer by its letter: a misconception there is the option's claim,
	// which the learner is discussing, unless they endorse it.
	otherOption []int
	// listed are keyword lists heading a sentence ("validation, isRetryable
	// false, #NNNNN: ..."): terms named, not claims made.
	listed []scope
	// verdicts are the asserted verdicts ("is fine", "cũng ổn") of the text.
	verdicts []span
	// judged marks the words that judge use or need ("helps", "needed",
	// "zadziała", "ช่วย").
	judged []bool
	// soNen marks Vietnamese "nên" read as "so" rather than "should".
	soNen []bool
}

// emptied returns an empty reading that keeps rd's memory. A field not
// listed starts as its zero value.
func (rd *reading) emptied() reading {
	return reading{
		neg: rd.neg[:0], refuted: rd.refuted[:0], supposed: rd.supposed[:0], hypothetical: rd.hypothetical[:0],
		denying: rd.denying[:0], counterfactual: rd.counterfactual[:0], negCues: rd.negCues[:0],
		consequence: rd.consequence[:0], otherOption: rd.otherOption[:0], listed: rd.listed[:0],
		verdicts: rd.verdicts[:0], soNen: rd.soNen[:0],
	}
}

func inAny(ss []scope, i int) bool {
	for _, s := range ss {
		if i >= s.from && i <= s.to {
			return true
		}
	}
	return false
}

// read runs the clause reader over the indexed text.
func (x *textIndex) read(lang examsim.Lang) *reading {
	cs := cueSets[lang]
	if cs == nil {
		panic("scoring: no cues for language " + string(lang)) // languages covers examsim.Langs
	}
	rd := &x.rd // emptied by textIndex.reset
	if len(x.toks) == 0 {
		return rd
	}
	r := scopeReach{toks: x.toks, blocked: x.cueMask(&x.blockMask, cs.blockers)}
	rd.judged = x.cueMask(&x.judgeMask, cs.judgements)
	selfJudging := spans(cs.selfJudgingTerms, x)
	x.readNegations(cs, r)
	x.readSelfJudgements(selfJudging, r)
	x.readRefutations(cs, r)
	if d := langOf(lang); d.onlyWord != "" {
		x.readOnlyConditionals(r, cs, d)
	}
	x.readSuppositions(cs, r)
	rd.soNen = x.soNenMask(lang)
	rd.listed = x.keywordLists(rd.listed[:0])
	x.readVerdicts(lang)
	return rd
}

// scopeReach measures how far a scope opened at a cue reaches: within the
// cue's clause, a number of word positions at most, never onto a blocker.
type scopeReach struct {
	toks    []token
	blocked []bool
}

// forward returns the last token a scope opened after token i reaches.
// Thai marks phrases with spaces: a scope crosses one (between "retry"
// and "ไม่ช่วย") but stops at the next.
func (r scopeReach) forward(i, units int) int { return r.reach(i, units, +1, false) }

// backward returns the first token a scope opened before token i reaches.
func (r scopeReach) backward(i, units int) int { return r.reach(i, units, -1, false) }

// backwardOverTerms is backward for a refutation that follows what it
// rejects: it reaches back over English terms inside a Thai clause
// ("การรันใหม่ด้วย timeout ที่ยาวขึ้นมีแต่จะ…"): only a space between two
// Thai words counts as a phrase break there.
func (r scopeReach) backwardOverTerms(i, units int) int { return r.reach(i, units, -1, true) }

// reach walks from token i by step (+1 or -1) while the tokens stay in i's
// clause, within units of it and unblocked, and returns the farthest token
// it reaches. It crosses one phrase break and stops at the next: a space
// next to a Thai word, or with bothThai, a space between two Thai words.
func (r scopeReach) reach(i, units, step int, bothThai bool) int {
	toks := r.toks
	j, gaps := i, 0
	for k := i + step; k >= 0 && k < len(toks) && toks[k].clause == toks[i].clause && abs(toks[k].pos-toks[i].pos) <= units && !r.blocked[k]; k += step {
		a, b := min(k, k-step), max(k, k-step) // the pair in text order
		thai := toks[a].thai || toks[b].thai
		if bothThai {
			thai = toks[a].thai && toks[b].thai
		}
		if thai && toks[b].start > toks[a].end {
			if gaps++; gaps > 1 {
				break
			}
		}
		j = k
	}
	return j
}

// readNegations records every negation cue and the scope it denies.
func (x *textIndex) readNegations(cs *cueSet, r scopeReach) {
	rd, toks := &x.rd, x.toks
	weak := x.cueMask(&x.weakMask, cs.weak)
	for _, n := range spans(cs.negations, x) {
		if opensQuote(toks, n.first) {
			continue // "no contracts found" quotes a tool, it denies nothing
		}
		rd.negCues = append(rd.negCues, n)
		s := scope{n.last + 1, r.forward(n.last, negForward), n.first, n.last}
		// A judgement right after the negation turns it onto the subject.
		if x.judgementFollows(n.last) {
			s.from = r.backward(n.first, negBackward)
			// A Thai action noun ("การจบ task ไม่ใช่ทางที่ถูก", ending the
			// task is not the right way) is judged over the English term
			// inside it.
			for k := r.backwardOverTerms(n.first, negBackward); k < s.from; k++ {
				if toks[k].thai && cs.actionNounPrefix != "" && strings.HasPrefix(x.text[toks[k].start:], cs.actionNounPrefix) {
					s.from = k
					break
				}
			}
			if s.from == n.first {
				s.from = n.last + 1
			}
		}
		if s.from <= s.to {
			rd.neg = append(rd.neg, s)
			if !weak[n.first] {
				rd.denying = append(rd.denying, s)
			}
		}
	}
}

// judgementFollows reports a judged word within judgementAfter positions
// after token i, in its clause.
func (x *textIndex) judgementFollows(i int) bool {
	toks := x.toks
	for k := i + 1; k < len(toks) && toks[k].clause == toks[i].clause && toks[k].pos-toks[i].pos <= judgementAfter; k++ {
		if x.rd.judged[k] {
			return true
		}
	}
	return false
}

// readSelfJudgements handles "Retrying is pointless": the judgement looks
// back at its subject.
func (x *textIndex) readSelfJudgements(selfJudging []span, r scopeReach) {
	rd := &x.rd
	for _, sj := range selfJudging {
		if opensQuote(x.toks, sj.first) {
			continue
		}
		if from := r.backward(sj.first, negBackward); from < sj.first {
			rd.neg = append(rd.neg, scope{from, sj.first - 1, sj.first, sj.last})
			rd.denying = append(rd.denying, scope{from, sj.first - 1, sj.first, sj.last})
		}
	}
}

// readRefutations records what refutation cues reject, ahead of or behind
// them, and the harm named after a cue that looks behind.
func (x *textIndex) readRefutations(cs *cueSet, r scopeReach) {
	rd := &x.rd
	for _, c := range spans(cs.refuteAhead, x) {
		if to := r.forward(c.last, refuteForward); to > c.last {
			rd.refuted = append(rd.refuted, scope{c.last + 1, to, c.first, c.last})
		}
	}
	purpose := x.cueMask(&x.purposeMask, cs.purpose)
	state := x.cueMask(&x.stateMask, cs.states)
	letter := x.letterTokens()
	for _, c := range spans(cs.refuteBehind, x) {
		if c.last+1 < len(x.toks) && state[c.last+1] && x.toks[c.last+1].clause == x.toks[c.last].clause {
			continue // "lỗi token chỉ là tạm thời": the error is only temporary
		}
		var from int
		if cs.describesPrefix != "" && strings.HasPrefix(x.text[x.toks[c.first].start:], cs.describesPrefix) {
			from = r.backward(c.first, refuteBackward) // "timeout เป็นแค่ noise" says what the term itself is
		} else {
			from = r.backwardOverTerms(c.first, refuteBackward)
		}
		from = x.overJoin(r, r.overPurpose(from, purpose, letter), c.first, cs)
		if from < c.first {
			rd.refuted = append(rd.refuted, scope{from, c.first - 1, c.first, c.last})
		}
		// What follows is the harm the learner points out: "would only
		// throw away three ledgers" argues against throwing them away.
		if to := r.forward(c.last, refuteForward); to > c.last {
			rd.consequence = append(rd.consequence, scope{c.last + 1, to, c.first, c.last})
		}
	}
}

// overPurpose extends a scope that reaches back to from over a purpose
// clause just before it, in the same clause ("sửa trạng thái để né luật chỉ
// là lách") or set off by commas ("Cofnięcie statusu, żeby ominąć regułę,
// byłoby tylko obchodzeniem"), to the action the purpose belongs to; and
// likewise over an aside that names an option ("Ignorowanie treści, jak
// mówi C, zostawiłoby…").
func (r scopeReach) overPurpose(from int, purpose, letter []bool) int {
	toks := r.toks
	if from <= 0 {
		return from
	}
	p := from - 1
	aside := false
	if toks[p].clause != toks[from].clause {
		for p > 0 && toks[p-1].clause == toks[from-1].clause {
			p-- // the previous clause opens with the purpose word, or is no purpose
		}
		if from-p <= asideWords {
			for k := p; k < from; k++ {
				aside = aside || letter[k]
			}
		}
	}
	if !(purpose[p] || aside) || p == 0 {
		return from
	}
	if toks[p-1].clause != toks[p].clause {
		return r.backwardOverTerms(p-1, refuteBackward) // the action is the clause before
	}
	if f := r.backwardOverTerms(p, refuteBackward); f < p {
		return f
	}
	return from
}

// overJoin extends a refutation's subject, which reaches back to from, over
// a joining word just before it: a cause with "one" in it ("hủy cả đợt vì
// một nhánh chỉ vứt bỏ…", cancelling it all because of one branch) or an
// "and" between two short nouns opening the clause ("Kod błędu i timestamp
// pomogłyby tylko…").
func (x *textIndex) overJoin(r scopeReach, from, cue int, cs *cueSet) int {
	toks := r.toks
	if from <= 0 || from >= cue || toks[from-1].clause != toks[from].clause {
		return from
	}
	// Blockers mark where a cue starts: a scope stops just after the first
	// character of a Thai one, so the joined words begin after the cue.
	j := from - 1
	if c, ok := x.cueAt(cs.cause, j); ok && c.last < cue && toks[cue].pos-toks[c.last+1].pos <= 3*wordUnits {
		for k := c.last + 1; k < cue; k++ {
			if _, ok := x.cueAt(cs.one, k); ok {
				return r.backwardOverTerms(j, refuteBackward)
			}
		}
	}
	if c, ok := x.cueAt(cs.and, j); ok && c.last < cue && toks[cue].pos-toks[c.last+1].pos <= wordUnits {
		if f := r.backward(j, refuteBackward); f < j && (f == 0 || toks[f-1].clause != toks[f].clause) && toks[j].pos-toks[f].pos <= 2*wordUnits {
			return f
		}
	}
	return from
}

// cueAt returns the span of one of the cues that starts at token i.
func (x *textIndex) cueAt(cues []term, i int) (span, bool) {
	for _, s := range spans(cues, x) {
		if s.first == i {
			return s, true
		}
	}
	return span{}, false
}

// asideWords is the longest aside a refutation reaches over: "jak mówi C".
const asideWords = 3

// letterTokens marks the tokens that are an option's letter.
func (x *textIndex) letterTokens() []bool {
	m := slices.Grow(x.letterTokMask[:0], len(x.toks))[:len(x.toks)]
	for i := range x.toks {
		m[i] = x.isLetter(i)
	}
	x.letterTokMask = m
	return m
}

// readOnlyConditionals reads "tylko ukryłoby", "wyrzuciłoby tylko": only +
// a conditional verb is Polish for "would only" (language.onlyWord).
func (x *textIndex) readOnlyConditionals(r scopeReach, cs *cueSet, d *language) {
	rd, toks := &x.rd, x.toks
	only := foldedWords([]string{d.onlyWord})[0]
	for i := range toks {
		if toks[i].fold != only {
			continue
		}
		// "zostawiłoby model tylko ze zgadywaniem": the verb's object may
		// stand between it and "tylko".
		for _, k := range []int{i - 1, i + 1, i - 2} {
			if k >= 0 && k < len(toks) && toks[k].clause == toks[i].clause && d.conditional(toks[k].fold) {
				c := span{first: min(i, k), last: max(i, k)}
				if from := x.overJoin(r, r.overPurpose(r.backward(c.first, refuteBackward), x.purposeMask, x.letterTokMask), c.first, cs); from < c.first {
					rd.refuted = append(rd.refuted, scope{from, c.first - 1, c.first, c.last})
				}
				if to := r.forward(c.last, refuteForward); to > c.last {
					rd.consequence = append(rd.consequence, scope{c.last + 1, to, c.first, c.last})
				}
			}
		}
	}
}

// readSuppositions records what supposition cues suppose, the hypothetical
// clause that follows, and the counterfactual part of it.
func (x *textIndex) readSuppositions(cs *cueSet, r scopeReach) {
	rd, toks := &x.rd, x.toks
	modal := x.cueMask(&x.modalMask, cs.modals)
	weak := x.weakMask // from readNegations
	for _, c := range spans(cs.suppose, x) {
		if weak[c.first] {
			continue // "ถ้าไม่มี is_error…" is "without is_error…": an argument, not a supposition
		}
		to := r.forward(c.last, supposeForward)
		if to > c.last {
			rd.supposed = append(rd.supposed, scope{c.last + 1, to, c.first, c.last})
		}
		// The clause after a supposition states its consequence, which is
		// supposed too: "if it were transient, a retry would work".
		end := to
		for end+1 < len(toks) && toks[end+1].sent == toks[c.first].sent && toks[end+1].clause <= toks[to].clause+1 {
			end++
		}
		if end > c.last {
			rd.hypothetical = append(rd.hypothetical, scope{c.last + 1, end, c.first, c.last})
			for k := c.last + 1; k <= end; k++ {
				if modal[k] {
					rd.counterfactual = append(rd.counterfactual, scope{c.last + 1, end, c.first, c.last})
					break
				}
			}
		}
	}
}

// readVerdicts keeps the verdicts the text asserts: none that a negation,
// refutation, consequence or supposition governs.
func (x *textIndex) readVerdicts(lang examsim.Lang) {
	rd := &x.rd
	rd.verdicts = rd.verdicts[:0]
	for _, e := range spans(verdictTerms[lang], x) {
		if inAny(rd.neg, e.first) || inAny(rd.refuted, e.first) || inAny(rd.consequence, e.first) || inAny(rd.supposed, e.first) || inAny(rd.hypothetical, e.first) || negInClauses(rd.negCues, []span{e}) {
			continue
		}
		rd.verdicts = append(rd.verdicts, e)
	}
}

// keywordLists finds, in each sentence, a head of three or more short (six
// words at most)
// comma-separated items ended by a colon or a dash, as in a keyword-stuffed
// answer: "D: valid empty result, access failure, isError false — an empty
// array always means...". Its words name terms; they assert nothing.
func (x *textIndex) keywordLists(out []scope) []scope {
	toks, text := x.toks, x.text
	for i := 0; i < len(toks); {
		j := i
		for j+1 < len(toks) && toks[j+1].sent == toks[i].sent {
			j++
		}
		from, commas, words, longest := i, 0, 1, 1
		for k := i; k < j && k-i < 40; k++ {
			gap := text[toks[k].end:toks[k+1].start]
			if strings.ContainsAny(gap, ":—–") || strings.Contains(gap, " - ") {
				if commas >= 2 && longest <= 6 {
					out = append(out, scope{from, k, k, k})
					break
				}
				if k > from {
					break
				}
				// "C: isError true, transient, ...": the list follows the letter.
				from, commas, words, longest = k+1, 0, 1, 1
				continue
			}
			if strings.Contains(gap, ",") {
				commas++
				words = 1
				continue
			}
			if !toks[k].thai {
				words++
				longest = max(longest, words)
			}
		}
		i = j + 1
	}
	return out
}

// conditional reports whether a folded word is a conditional verb form of
// the language: ukryłoby, wyrzuciłby, powtórzyłaby, sprawiłyby.
func (d *language) conditional(f string) bool {
	for _, end := range d.conditionalEndings {
		if len(f) > len(end)+2 && f[len(f)-len(end):] == end {
			return true
		}
	}
	return false
}

// cueEndMask marks the tokens where any of the cues ends.
func (x *textIndex) cueEndMask(buf *[]bool, cues []term) []bool {
	m := slices.Grow((*buf)[:0], len(x.toks))[:len(x.toks)]
	clear(m)
	for _, s := range spans(cues, x) {
		m[s.last] = true
	}
	*buf = m
	return m
}

// opensQuote reports whether token i is the first word of a quotation.
func opensQuote(toks []token, i int) bool {
	return toks[i].quoted && (i == 0 || !toks[i-1].quoted)
}

// cueMask marks the tokens where any of the cues starts.
func (x *textIndex) cueMask(buf *[]bool, cues []term) []bool {
	m := slices.Grow((*buf)[:0], len(x.toks))[:len(x.toks)]
	clear(m)
	for _, s := range spans(cues, x) {
		m[s.first] = true
	}
	*buf = m
	return m
}

// soNenMask marks each soWord (Vietnamese "nên") that means "so": after a
// comma with words before it in the sentence, after one of soAfter ("cho"),
// or once the clause already has one of soCauses (its verb "là" or a cause:
// "vì", "do", "bởi"). "Agent nên retry" keeps its "should".
func (x *textIndex) soNenMask(lang examsim.Lang) []bool {
	m := slices.Grow(x.rd.soNen[:0], len(x.toks))[:len(x.toks)]
	clear(m)
	d := langOf(lang)
	if d.soWord == "" {
		return m
	}
	so, after, causes := soFolds[lang].so, soFolds[lang].after, soFolds[lang].causes
	toks := x.toks
	for i := range toks {
		if toks[i].fold != so || (!toks[i].plain && toks[i].norm != d.soWord) {
			continue
		}
		if i == 0 || toks[i-1].sent != toks[i].sent {
			continue // sentence-initial, it is "so" only after a cause, handled below
		}
		if toks[i-1].clause != toks[i].clause || slices.Contains(after, toks[i-1].fold) {
			m[i] = true
			continue
		}
		for k := i - 1; k >= 0 && toks[k].clause == toks[i].clause; k-- {
			f := toks[k].fold
			if f == so {
				break
			}
			if slices.Contains(causes, f) {
				m[i] = true
				break
			}
		}
	}
	return m
}

// soFolds are the folded soWord, soAfter and soCauses of each language.
var soFolds = func() map[examsim.Lang]struct {
	so            string
	after, causes []string
} {
	out := map[examsim.Lang]struct {
		so            string
		after, causes []string
	}{}
	for _, l := range examsim.Langs {
		d := langOf(l)
		if d.soWord == "" {
			continue
		}
		e := out[l]
		e.so, e.after, e.causes = foldedWords([]string{d.soWord})[0], foldedWords(d.soAfter), foldedWords(d.soCauses)
		out[l] = e
	}
	return out
}()

// Endorsing an option by its letter: "like B is also fine", "(C) would also
// work", "như B cũng được", "jak B też jest dobre", "แบบข้อ B ก็ดี".
// Endorsing words, by role, from each language's file (English added).
var (
	letterCueTerms   = compileByLang(func(d *language) []string { return d.letterCues })
	endorsementTerms = compileByLang(func(d *language) []string { return d.endorsements })
	// verdicts are endorsements said as a clause's verdict on its subject:
	// "is fine", "is a good shortcut", "cũng ổn", "jest ok", "ก็โอเค".
	verdictTerms = compileByLang(func(d *language) []string { return d.verdicts })
)

// compileByLang compiles a role's cues for every language, English added.
func compileByLang(role func(*language) []string) map[examsim.Lang][]term {
	out := map[examsim.Lang][]term{}
	for l, words := range byLang(role) {
		out[l] = compileCues(words)
	}
	return out
}

// others name the other options together: "the others", "các phương án
// còn lại", "pozostałe opcje", "ข้ออื่น"; othersOpening do so only opening a
// sentence ("Pozostałe tego nie robią"), as elsewhere they name other
// things ("odtworzyć pozostałe tabele", "the rest can wait"). joiners join
// letters into a list; choice words after a letter make it a choice.
var (
	othersTerms        = compileByLang(func(d *language) []string { return d.others })
	othersOpeningTerms = compileByLang(func(d *language) []string { return d.othersOpening })
	joinerFolds        = foldedByLang(func(d *language) []string { return d.joiners })
	choiceFolds        = foldedByLang(func(d *language) []string { return d.choiceWords })
	choicePrefixes     = byLang(func(d *language) []string { return d.choicePrefixes })
)

// foldedByLang folds a role's words for every language, English added.
func foldedByLang(role func(*language) []string) map[examsim.Lang][]string {
	out := map[examsim.Lang][]string{}
	for l, words := range byLang(role) {
		out[l] = foldedWords(words)
	}
	return out
}

// endorseWindow is how soon after the letter the endorsement must come.
const endorseWindow = 4 * wordUnits

// optionStance reports whether the text names an option other than the
// answer by its capital letter, after a cue or in brackets, and calls it
// good in the same clause without negating, refuting or supposing it
// (endorsed), or rejects it (refuted: "like B would only hide the gap").
func (r *Rubric) optionStance(text string, x *textIndex, rd *reading) (endorsed, refuted bool) {
	rd.otherOption = rd.otherOption[:0]
	if r.Answer == "" {
		return false, false
	}
	var cued []bool
	for i := range x.toks {
		tk := &x.toks[i]
		if tk.end-tk.start != 1 || text[tk.start] < 'A' || text[tk.start] > 'D' || text[tk.start:tk.end] == r.Answer {
			continue
		}
		bracket := tk.start > 0 && text[tk.start-1] == '('
		// "C won't fix tax either", "D zrzuca poprawkę na człowieka": a
		// letter opening a sentence, followed by its verb, is the option as
		// subject (a language's articleLetters are left out: English "A").
		subject := (i == 0 || x.toks[i-1].sent != tk.sent) && i+1 < len(x.toks) && x.toks[i+1].sent == tk.sent &&
			x.toks[i+1].clause == tk.clause && !slices.Contains(langOf(r.Lang).articleLetters, text[tk.start:tk.end]) &&
			!strings.ContainsAny(text[tk.end:x.toks[i+1].start], ".:—–-")
		if !bracket && !subject && !x.inLetterList(r.Lang, i) {
			if cued == nil {
				cued = x.cueEndMask(&x.letterMask, letterCueTerms[r.Lang])
			}
			if i == 0 || !cued[i-1] {
				continue
			}
		}
		rd.otherOption = append(rd.otherOption, tk.sent)
		if inAny(rd.neg, i) || inAny(rd.refuted, i) {
			refuted = true
			continue
		}
		if cued == nil {
			cued = x.cueEndMask(&x.letterMask, letterCueTerms[r.Lang])
		}
		if !bracket && subject && (i == 0 || !cued[i-1]) {
			continue // "B ran fine": a letter may name a warehouse too
		}
		if inAny(rd.supposed, i) {
			continue
		}
		endorsed = endorsed || x.endorses(r.Lang, rd, i, i)
	}
	// "The others don't: a raw exception, a generic try again later…": a
	// sentence about the other options names their claims, as a letter
	// does; they are the learner's only if called good.
	others := spans(othersTerms[r.Lang], x)
	for _, o := range spans(othersOpeningTerms[r.Lang], x) {
		if o.first == 0 || x.toks[o.first-1].sent != x.toks[o.first].sent {
			others = append(others, o)
		}
	}
	for _, o := range others {
		rd.otherOption = append(rd.otherOption, x.toks[o.first].sent)
		switch {
		case inAny(rd.neg, o.first) || inAny(rd.refuted, o.first) || x.sentenceNegated(rd, o.first):
			refuted = true
		case !inAny(rd.supposed, o.first):
			endorsed = endorsed || x.endorses(r.Lang, rd, o.first, o.last)
		}
	}
	return endorsed, refuted
}

// endorses reports an endorsement ("fine", "would also work") of the option
// named by tokens first..last, soon after them in their clause, that no
// negation, refutation or consequence governs.
func (x *textIndex) endorses(lang examsim.Lang, rd *reading, first, last int) bool {
	tk := &x.toks[last]
	behind := spans(cueSets[lang].refuteBehind, x)
	for _, e := range spans(endorsementTerms[lang], x) {
		if e.clause != tk.clause || e.start <= tk.pos || e.start-tk.pos > endorseWindow ||
			inAny(rd.neg, e.first) || inAny(rd.refuted, e.first) || inAny(rd.consequence, e.first) || within(behind, e.first) {
			continue // "là đúng anti-pattern": a word of a refutation endorses nothing
		}
		// A negation anywhere in the clause spares the option, but for
		// a verdict ("ก็ได้", "is fine") only one after the letter does.
		if negInClauses(rd.negCues, []span{e}) && (!x.startsVerdict(lang, e.first) || negAfter(rd.negCues, first, e)) {
			continue
		}
		return true
	}
	return false
}

// within reports whether token i lies inside one of the spans.
func within(ss []span, i int) bool {
	for _, s := range ss {
		if i >= s.first && i <= s.last {
			return true
		}
	}
	return false
}

// sentenceNegated reports a negation cue in token i's sentence.
func (x *textIndex) sentenceNegated(rd *reading, i int) bool {
	for _, n := range rd.negCues {
		if x.toks[n.first].sent == x.toks[i].sent {
			return true
		}
	}
	return false
}

// inLetterList reports whether token i is a letter in a list of letters:
// "B, C and D leave the agent stuck", "C và D", "B i C".
func (x *textIndex) inLetterList(lang examsim.Lang, i int) bool {
	if !x.isLetter(i) {
		return false
	}
	near := func(j int) bool {
		if j < 0 || j >= len(x.toks) || !x.isLetter(j) || x.toks[j].sent != x.toks[i].sent {
			return false
		}
		a, b := min(i, j), max(i, j)
		gap := strings.TrimSpace(x.text[x.toks[a].end:x.toks[b].start])
		return gap == "," || gap == "/" || gap == "&"
	}
	joined := func(j, k int) bool { // letter, a joining word, letter
		return j >= 0 && k < len(x.toks) && x.isLetter(j) && x.isLetter(k) && slices.Contains(joinerFolds[lang], x.toks[(j+k)/2].fold)
	}
	return near(i-1) || near(i+1) || joined(i-2, i) || joined(i, i+2)
}

// startsVerdict reports whether a verdict ("is fine", "ก็ได้") starts at
// token i.
func (x *textIndex) startsVerdict(lang examsim.Lang, i int) bool {
	for _, v := range spans(verdictTerms[lang], x) {
		if v.first == i {
			return true
		}
	}
	return false
}

// negAfter reports a negation in e's clause after token i, the letter: one
// before the letter is part of the option it names ("การไม่สน content แบบข้อ
// C ก็ได้": ignoring the content, as C says, is fine), and one that governs
// the letter has already refuted it. Thai has no commas to end a clause.
func negAfter(negs []span, i int, e span) bool {
	for _, n := range negs {
		if n.clause == e.clause && n.first > i {
			return true
		}
	}
	return false
}

// endorsedMisconception reports whether the text calls good, in one
// clause, something named by at least two of a misconception's own words:
// "quietly refunding £500 is a good shortcut", "chạy lại cả ba là cách gọn
// nhất". It returns the endorsement's span as evidence.
func endorsedMisconception(m *Misconception, x *textIndex, rd *reading) ([]span, bool) {
	for _, e := range rd.verdicts {
		if slices.Contains(rd.otherOption, x.toks[e.first].sent) {
			continue // a lettered option's claim, judged by optionStance
		}
		from := e.first
		for from > 0 && x.toks[from-1].clause == x.toks[e.first].clause && x.toks[e.first].pos-x.toks[from-1].pos <= refuteBackward {
			from--
		}
		if from == e.first {
			continue
		}
		var ev []span
		var seen [2]int32
		n := 0
		for _, p := range m.Patterns {
			for _, slot := range p.slots {
				for a := range slot {
					t := &slot[a]
					if !topical(t) || (n > 0 && seen[0] == t.ids[0]) {
						continue
					}
					for _, s := range spans(slot[a:a+1], x) {
						if s.first >= from && s.last < e.first {
							seen[n] = t.ids[0]
							n++
							ev = append(ev, s)
							break
						}
					}
					if n == 2 {
						return append(ev, e), true
					}
				}
			}
		}
	}
	return nil, false
}

// chosenWrong reports whether the explanation opens by naming an option
// other than the answer as its own choice: "C — six sources is plenty",
// "D. Zacząć od nowa", "C, vì...", "B because...". Graders give an
// explanation of a wrong option a 0 however well it is put.
func (r *Rubric) chosenWrong(text string, x *textIndex) bool {
	if r.Answer == "" || len(x.toks) < 2 {
		return false
	}
	tk := &x.toks[0]
	if tk.end-tk.start != 1 || text[tk.start] < 'A' || text[tk.start] > 'D' || text[tk.start:tk.end] == r.Answer {
		return false
	}
	if strings.TrimSpace(text[:tk.start]) != "" || x.inLetterList(r.Lang, 0) {
		return false // "B, C and D leave the agent stuck": the others, not a choice
	}
	gap := text[tk.end:x.toks[1].start]
	if strings.Contains(gap, ":") && labelsLater(text, tk.end) {
		return false // "B: isError false … C: permission": labelled items, not a choice
	}
	if strings.ContainsAny(gap, ".,:;—–-") {
		return !strings.Contains(gap, "?") // "Maybe C?" is a hedge
	}
	if slices.Contains(choiceFolds[r.Lang], x.toks[1].fold) {
		return true
	}
	// "C ครับ …": a reason or polite particle right after the letter, in
	// text written without spaces.
	rest := x.text[x.toks[1].start:]
	for _, cue := range choicePrefixes[r.Lang] {
		if strings.HasPrefix(rest, cue) {
			return true
		}
	}
	return false
}

// labelsLater reports whether a later capital A–D stands alone before a
// colon, as in a list that labels its items by letter.
func labelsLater(text string, from int) bool {
	for i := from; i+1 < len(text); i++ {
		if text[i] >= 'A' && text[i] <= 'D' && text[i+1] == ':' && (i == 0 || !isLetterByte(text[i-1])) {
			return true
		}
	}
	return false
}

func isLetterByte(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

func abs(n int) int { return max(n, -n) }
