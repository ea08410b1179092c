package scoring

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/examsim/examsim"
)

// DefaultWindow is how many words a pattern's slots may spread over.
const DefaultWindow = 12

type polarity int

const (
	anyPolarity polarity = iota
	needNegation
	forbidNegation
)

// Pattern is one compiled rubric pattern: slots that must all match, in any
// order, within a window. See questions/FORMAT.md for the syntax.
type Pattern struct {
	src string
	// compile fills slots, window and polarity on first use: a bank holds
	// thousands of patterns, and compiled ones are most of its memory.
	compile  sync.Once
	slots    [][]term // each slot is a list of alternatives
	window   int      // in units
	polarity polarity
}

// term is a word, a prefix or a phrase, as tokens.
type term struct {
	toks   []token
	prefix bool // the last token matches any word that starts with it
	exact  bool // no typo tolerance: for short function words such as negations
	// notBefore lists letters that may not follow a match: Thai อย่า ("don't")
	// must not be read inside อย่าง ("like", "-ly").
	notBefore []string
	ids       []int32 // each token's vocabulary number; see number
	// direct says the phrase's later words are compared one by one rather
	// than through masks: exact words and Thai letters compare cheaply.
	direct bool
	// modalNen is Vietnamese "nên", which means "should" or "so"; see soNenMask.
	modalNen bool
	// pair, when set, makes the term two words apart: a verb then a person
	// ("hand it to a person"); toks then holds the verb's first word only.
	pair *pairTerm
}

// pairTerm matches a word of first followed, within window units and in one
// sentence, by a word of second.
type pairTerm struct {
	first, second []term
	window        int
}

// number gives the term's words their vocabulary numbers; call it again
// after changing prefix or exact.
func (t *term) number() {
	t.direct = t.exact
	if !t.direct && len(t.toks) > 1 {
		t.direct = true
		for _, tk := range t.toks[1:] {
			t.direct = t.direct && tk.thai
		}
	}
	t.ids = t.ids[:0]
	for k := range t.toks {
		t.ids = append(t.ids, wordID(wordKey{t.toks[k].norm, t.prefix && k == len(t.toks)-1, t.exact, t.toks[k].lem != nil}))
	}
}

// String returns the pattern as written.
func (p *Pattern) String() string { return p.src }

// CompilePattern checks a pattern's syntax and returns it, to be compiled
// when first matched. Its errors are sentences fit for a `path:line:
// problem` report.
func CompilePattern(src string) (*Pattern, error) {
	if _, err := compilePattern(src, false); err != nil {
		return nil, err
	}
	return &Pattern{src: src}, nil
}

// compiled compiles the pattern once; CompilePattern has checked that it
// compiles, so the error cannot occur.
func (p *Pattern) compiled() *Pattern { return p.compiledFor(false) }

// compiledFor compiles the pattern once, its words matching Polish lemmas
// too when lemmas is set (see lemma.go).
func (p *Pattern) compiledFor(lemmas bool) *Pattern {
	p.compile.Do(func() {
		if c, err := compilePattern(p.src, true); err == nil {
			if lemmas {
				addLemmas(c.slots)
			}
			p.slots, p.window, p.polarity = c.slots, c.window, c.polarity
		}
	})
	return p
}

// compileAll compiles the rubric's patterns before they are read. Polish
// concepts match by lemma; misconceptions match as written, as a
// misconception found by a looser reading is the worst mistake to make (a
// keyed option's "czego próbowano", what was tried, read as "keep trying").
func (r *Rubric) compileAll() {
	for i := range r.Concepts {
		for _, p := range r.Concepts[i].Patterns {
			p.compiledFor(r.Lang == examsim.Polish)
		}
	}
	for i := range r.Misconceptions {
		for _, p := range r.Misconceptions[i].Patterns {
			p.compiled()
		}
	}
}

// compilePattern parses a pattern into its slots; with keep false it only
// checks the syntax, builds no slots and allocates nothing but the result
// (a bank's load checks thousands of patterns).
func compilePattern(src string, keep bool) (*Pattern, error) {
	p := &Pattern{src: src, window: DefaultWindow * wordUnits}
	slots := 0
	for field := range strings.FieldsSeq(src) {
		switch {
		case field == "{neg}" || field == "{!neg}":
			if p.polarity != anyPolarity {
				return nil, examsim.E(examsim.EINVALID, "check.pattern_neg_twice", "Pattern", strconv.Quote(src))
			}
			p.polarity = needNegation
			if field == "{!neg}" {
				p.polarity = forbidNegation
			}
		case strings.HasPrefix(field, "~"):
			n, err := strconv.Atoi(field[1:])
			if err != nil || n < 1 || n > 50 {
				return nil, examsim.E(examsim.EINVALID, "check.pattern_window", "Pattern", strconv.Quote(src), "Window", strconv.Quote(field))
			}
			p.window = n * wordUnits
		case strings.HasPrefix(field, "{"):
			return nil, examsim.E(examsim.EINVALID, "check.pattern_marker", "Pattern", strconv.Quote(src), "Marker", strconv.Quote(field))
		default:
			slots++
			var slot []term
			for alt := range strings.SplitSeq(field, "|") {
				t, err := parseTerm(alt, keep)
				if err != nil {
					// The term's message names the pattern it is in.
					return nil, examsim.E(err.Code, err.MessageID, "Pattern", strconv.Quote(src), "Alt", err.Args["Alt"])
				}
				if !keep {
					continue
				}
				slot = append(slot, t)
			}
			if keep {
				p.slots = append(p.slots, slot)
			}
		}
	}
	if slots == 0 {
		return nil, examsim.E(examsim.EINVALID, "check.pattern_no_words", "Pattern", strconv.Quote(src))
	}
	if keep {
		p.addSynonyms()
	}
	return p, nil
}

func compileTerm(alt string) (term, error) {
	t, err := parseTerm(alt, true)
	if err != nil { // a nil *examsim.Error is not a nil error
		return t, err
	}
	return t, nil
}

// parseTerm parses one alternative; with keep false it only checks it and
// returns a zero term, sparing the copy and the vocabulary look-ups.
func parseTerm(alt string, keep bool) (term, *examsim.Error) {
	if alt == "" {
		return term{}, examsim.E(examsim.EINVALID, "check.pattern_empty_alt")
	}
	prefix := strings.HasSuffix(alt, "*")
	body := strings.TrimSuffix(alt, "*")
	if strings.ContainsAny(body, "*|{}~\"") {
		return term{}, examsim.E(examsim.EINVALID, "check.pattern_bad_char", "Alt", strconv.Quote(alt))
	}
	if !keep && plainWord(body) {
		return term{}, nil // what tokenize would accept; a bank's load checks thousands
	}
	// Tokenize on the stack and keep an exact copy: terms live as long as
	// the bank, and a slice grown by appends would keep its slack.
	var scratch [8]token
	toks := tokenize(scratch[:0], body)
	if len(toks) == 0 {
		return term{}, examsim.E(examsim.EINVALID, "check.pattern_no_letters", "Alt", strconv.Quote(alt))
	}
	for i := 1; i < len(toks); i++ {
		if toks[i].pos-toks[i-1].pos >= sentenceBreak {
			return term{}, examsim.E(examsim.EINVALID, "check.pattern_sentence", "Alt", strconv.Quote(alt))
		}
	}
	if !keep {
		return term{}, nil
	}
	kept := slices.Clone(toks) // a new name, so the scratch stays on the stack
	if prefix && kept[len(kept)-1].thai {
		// Thai matches inside runs of letters anyway; a trailing * adds nothing.
		prefix = false
	}
	t := term{toks: kept, prefix: prefix}
	t.modalNen = len(kept) == 1 && !prefix && kept[0].fold == "nen"
	t.number()
	return t, nil
}

// plainWord reports whether an alternative is letters, digits and marks,
// joined at most by - _ or an apostrophe, with a letter or digit among them:
// such a body always gives tokenize at least one token and no sentence end,
// so the syntax check need not run it (TestPlainWordNeedsNoTokenizer).
func plainWord(body string) bool {
	word := false
	for _, r := range body {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			word = true
		case unicode.IsMark(r) || r == '-' || r == '_' || r == '\'' || r == '’':
		default:
			return false
		}
	}
	return word
}

// span is where a term matched, in units, the clause it starts in, and its
// first and last token.
type span struct{ start, end, clause, first, last int }

// matchesAt reports whether t matches the text's tokens starting at i,
// given the masks of t's tokens after the first (which matched already).
func (t *term) matchesAt(text []token, i int, rest [][]bool) (span, bool) {
	if i+len(t.toks) > len(text) {
		return span{}, false
	}
	for k := 1; k < len(t.toks); k++ {
		if text[i+k].pos-text[i+k-1].pos > wordUnits {
			return span{}, false // a phrase may not cross a sentence end
		}
		if rest == nil {
			// Exact words and Thai letters compare directly: cheaper than
			// a mask of the whole text for each of the phrase's words.
			if !sameWord(&text[i+k], &t.toks[k], t.prefix && k == len(t.toks)-1, t.exact) {
				return span{}, false
			}
		} else if !rest[k-1][i+k] {
			return span{}, false
		}
	}
	if next := i + len(t.toks); next < len(text) && len(t.notBefore) > 0 {
		for _, nb := range t.notBefore {
			if text[next].norm == nb {
				return span{}, false
			}
		}
	}
	return span{text[i].pos, text[i+len(t.toks)-1].pos, text[i].clause, i, i + len(t.toks) - 1}, true
}

// sameWord compares a text token with a pattern token. A word typed without
// diacritics matches the pattern word with or without them ("thu lai"
// matches "thử lại"), and a pattern word written without them matches any
// accents; but when both have diacritics they must agree ("dùng" never
// matches "đừng"), and an exact word such as a negation cue matches no
// accented word ("nó" is Vietnamese for "it", not English "no").
func sameWord(got, want *token, prefix, exact bool) bool {
	if got.thai != want.thai {
		return false
	}
	if prefix {
		if strings.HasPrefix(got.norm, want.norm) {
			return true
		}
		if (bareMatch(got, exact) || (want.plain && !exact)) && strings.HasPrefix(got.fold, want.fold) {
			return true
		}
		if typoAllowed(got, want, exact) && len(got.fold) >= len(want.fold)-1 {
			for n := len(want.fold) - 1; n <= len(want.fold)+1 && n <= len(got.fold); n++ {
				if osaWithin1(got.fold[:n], want.fold) {
					return true
				}
			}
		}
		return false
	}
	if got.norm == want.norm {
		return true
	}
	if (bareMatch(got, exact) || (want.plain && !exact)) && got.fold == want.fold {
		return true
	}
	return typoAllowed(got, want, exact) && osaWithin1(got.fold, want.fold)
}

// bareMatch reports whether a word typed without diacritics may match a
// pattern word with them: always, unless the pattern word is an exact cue
// and the text is written with diacritics elsewhere.
func bareMatch(got *token, exact bool) bool {
	return got.plain && !(exact && got.strict)
}

// typoAllowed reports whether one typo may separate got from want: for
// Latin-script words of five letters or more, unless both carry diacritics
// (then "đường" and "dùng" are different words, not a typo apart).
// An everyday word is never read as a typo of another ("about" is not
// "abort").
func typoAllowed(got, want *token, exact bool) bool {
	return !exact && got.latin && want.latin && len(want.fold) >= 5 && (got.plain || want.plain) && !got.common
}

// spans returns where any of a slot's alternatives matches.
func spans(slot []term, x *textIndex) []span {
	// Spans live in the index's arena until the text is released; the
	// slice handed out is capped so later appends cannot overwrite it.
	from := len(x.spanArena)
	out := x.spanArena
	for a := range slot {
		t := &slot[a]
		if t.pair != nil {
			x.spanArena = out
			out = x.pairSpans(t.pair)
			continue
		}
		last := len(t.toks) - 1
		starts := x.indices(t.ids[0], &t.toks[0], t.prefix && last == 0, t.exact)
		if len(starts) == 0 {
			continue
		}
		// Look the phrase's other words up once, not once per start, when
		// comparing them is costly (typo tolerance, folding).
		rest := x.restMasks[:0]
		direct := t.direct
		for k := 1; k <= last && !direct; k++ {
			m := x.mask(t.ids[k], &t.toks[k], t.prefix && k == last, t.exact)
			if m == nil {
				rest = nil
				break
			}
			rest = append(rest, m)
		}
		x.restMasks = rest[:0]
		if last > 0 && rest == nil && !direct {
			continue
		}
		if direct {
			rest = nil
		}
		for _, i := range starts {
			if t.modalNen && x.skipNen != nil && x.skipNen[i] {
				continue
			}
			if s, ok := t.matchesAt(x.toks, i, rest); ok {
				out = append(out, s)
			}
		}
	}
	x.spanArena = out
	return out[from:len(out):len(out)]
}

// matchMode says whose words a pattern looks for: a concept counts when its
// words are asserted with the pattern's polarity and not wholly refuted or
// supposed; a misconception only when no word of it is (see clause.go).
type matchMode int

const (
	asConcept matchMode = iota
	asMisconception
)

// pairSpans appends the pair's matches to the arena and returns it.
func (x *textIndex) pairSpans(p *pairTerm) []span {
	from := len(x.spanArena)
	a := spans(p.first, x)
	b := spans(p.second, x)
	out := x.spanArena
	for _, s := range a {
		for _, t := range b {
			if t.start > s.end && t.end-s.start <= p.window && x.toks[t.first].sent == x.toks[s.first].sent {
				out = append(out, span{s.start, t.end, s.clause, s.first, t.last})
				break
			}
		}
	}
	// Keep the pair's spans, drop the scratch of its parts.
	n := copy(out[from:], out[from+len(a)+len(b):])
	out = out[:from+n]
	x.spanArena = out
	return out
}

// match reports whether the pattern matches text as asserted, read through
// rd, and returns the spans of the words that matched (in x's arena).
func (p *Pattern) match(x *textIndex, rd *reading, mode matchMode) ([]span, bool) {
	p.compiled()
	found := slices.Grow(x.found[:0], len(p.slots))[:len(p.slots)]
	x.found = found
	for i, slot := range p.slots {
		found[i] = spans(slot, x)
		if len(found[i]) == 0 {
			return nil, false
		}
	}
	combo := slices.Grow(x.combo[:0], len(p.slots))[:len(p.slots)]
	x.combo = combo
	// Every window that can satisfy the pattern starts where some slot matched.
	for _, starts := range found {
		for _, s := range starts {
			if _, ok := p.fitsWindow(found, s.start, combo); !ok {
				continue
			}
			if p.asserted(combo, x, rd, mode) {
				return combo, true
			}
			// The earliest words were not asserted; other words of the
			// same window may be ("5 nie odpowiedziały (timeout)").
			budget := maxCombos
			if p.tryCombos(found, s.start, combo, 0, x, rd, mode, &budget) {
				return combo, true
			}
			x.rejects++
		}
	}
	return nil, false
}

// maxCombos bounds how many ways of matching one window are read.
const maxCombos = 32

// tryCombos searches the window that opens at start for a choice of one span
// per slot, from slot k on, that is asserted.
func (p *Pattern) tryCombos(found [][]span, start int, combo []span, k int, x *textIndex, rd *reading, mode matchMode, budget *int) bool {
	if k == len(found) {
		*budget--
		return p.asserted(combo, x, rd, mode)
	}
	for _, s := range found[k] {
		if s.start < start || s.end > start+p.window {
			continue
		}
		combo[k] = s
		if p.tryCombos(found, start, combo, k+1, x, rd, mode, budget) {
			return true
		}
		if *budget <= 0 {
			return false
		}
	}
	return false
}

// asserted reads one way of matching the pattern through the clause scopes.
func (p *Pattern) asserted(combo []span, x *textIndex, rd *reading, mode matchMode) bool {
	switch p.polarity {
	case needNegation:
		if !negated(rd.negCues, combo) && !scoped(rd.neg, combo, false) {
			if mode == asConcept && !scoped(rd.refuted, combo, false) && !scoped(rd.supposed, combo, false) && !scoped(rd.hypothetical, combo, false) && !scoped(rd.consequence, combo, false) && !negInClauses(rd.negCues, combo) {
				x.contradicted++
				if judges(rd.judged, combo) {
					x.reversed++ // "retrying will help" against "{neg} retr* help*"
				}
			}
			return false
		}
	case forbidNegation:
		if negated(rd.negCues, combo) || scoped(rd.neg, combo, false) {
			return false
		}
	default:
		// No marker: the words must not be denied, by a negation that is
		// not itself one of them ("not_searched" is its own polarity), nor
		// by "without", which argues for what it names ("without isError
		// the model cannot tell").
		if scoped(rd.denying, combo, true) {
			return false
		}
	}
	if mode == asMisconception {
		return !scoped(rd.refuted, combo, false) && !scoped(rd.consequence, combo, false) && !scoped(rd.supposed, combo, false) && !scoped(rd.hypothetical, combo, false) &&
			!slices.Contains(rd.otherOption, x.toks[combo[0].first].sent)
	}
	if scoped(rd.listed, combo, false) {
		return false
	}
	for _, s := range combo {
		for i := s.first; i <= s.last; i++ {
			if !inAny(rd.refuted, i) && !inAny(rd.supposed, i) && !inAny(rd.counterfactual, i) {
				return true
			}
		}
	}
	return false
}

// scoped reports whether any word of combo lies in one of the scopes; with
// notOwn, scopes whose cue is one of combo's words do not count.
func scoped(ss []scope, combo []span, notOwn bool) bool {
	for _, sc := range ss {
		if notOwn && overlapsCombo(combo, sc.cueFrom, sc.cueTo) {
			continue
		}
		for _, s := range combo {
			if s.first <= sc.to && s.last >= sc.from {
				return true
			}
		}
	}
	return false
}

// judges reports whether one of combo's words judges use or need: only
// "retrying will help" reverses "{neg} retr* help*", not any retry.
func judges(judged []bool, combo []span) bool {
	for _, s := range combo {
		for i := s.first; i <= s.last; i++ {
			if judged[i] {
				return true
			}
		}
	}
	return false
}

// negInClauses reports whether any negation stands in a clause of combo.
func negInClauses(negs []span, combo []span) bool {
	for _, n := range negs {
		for _, s := range combo {
			if s.clause == n.clause {
				return true
			}
		}
	}
	return false
}

func overlapsCombo(combo []span, from, to int) bool {
	for _, s := range combo {
		if s.first <= to && s.last >= from {
			return true
		}
	}
	return false
}

// fitsWindow reports whether every slot has a match inside the window that
// opens at start, and where the earliest such matches end; combo receives
// them.
func (p *Pattern) fitsWindow(found [][]span, start int, combo []span) (end int, ok bool) {
	end = start
	for k, slotSpans := range found {
		hit := false
		for _, s := range slotSpans {
			if s.start >= start && s.end <= start+p.window {
				hit = true
				end = max(end, s.end)
				combo[k] = s
				break
			}
		}
		if !hit {
			return 0, false
		}
	}
	return end, true
}

// negated reports whether a negation cue stands between two of combo's words
// in their clause: "retrying won't help", but not "found no customer, so
// retrying helps".
func negated(negs []span, combo []span) bool {
	for _, n := range negs {
		before, after := false, false
		for _, s := range combo {
			if s.clause != n.clause {
				continue
			}
			before = before || s.last < n.first
			after = after || s.first > n.last
		}
		if before && after {
			return true
		}
	}
	return false
}
