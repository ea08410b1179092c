package scoring

import (
	"slices"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/scoring/internal/pllemma"
)

// Polish words also match by lemma, from the PoliMorf table in
// internal/pllemma: a rubric's "błąd" matches "błędu", and "ponowić" matches
// "ponów" and "ponowienie", where prefixes and typo tolerance cannot follow
// the stem's changes. Prefixes and typos still apply to words the table does
// not know.

// lemmaQuery is what a Polish pattern word matches by lemma.
type lemmaQuery struct {
	ids    []uint32 // the lemmas the word is a form of
	lo, hi uint32   // a prefix's: the lemmas that start with it
	// plain numbers the word as written, without lemmas: misconceptions
	// look it up too, so its answer is often there already.
	plain int32
}

// minLemmaPrefix is the shortest prefix matched by the lemmas it starts.
const minLemmaPrefix = 3

// addLemmas gives the words of a Polish pattern's terms their lemma queries.
// Exact terms (negation cues, the shared escalation synonyms) keep matching
// as written.
func addLemmas(slots [][]term) {
	tbl := pllemma.Load()
	for _, slot := range slots {
		for a := range slot {
			t := &slot[a]
			if t.exact || t.pair != nil {
				continue
			}
			changed := false
			for k := range t.toks {
				tk := &t.toks[k]
				if tk.thai || !tk.latin {
					continue
				}
				var q lemmaQuery
				if t.prefix && k == len(t.toks)-1 {
					if len(tk.fold) >= minLemmaPrefix {
						q.lo, q.hi = tbl.PrefixRange(tk.fold)
					}
				} else {
					q.ids = wordLemmas(tbl, tk.fold)
				}
				if len(q.ids) > 0 || q.lo < q.hi {
					q.plain = wordID(wordKey{tk.norm, t.prefix && k == len(t.toks)-1, false, false}) // exact terms were skipped above
					tk.lem, changed = &q, true
				}
			}
			if changed {
				t.number()
			}
		}
	}
}

// wordLemmas returns the lemmas a pattern word stands for: the word itself
// when it is a lemma ("dane" means data, not a form of "dać"), else every
// lemma it is a form of.
func wordLemmas(tbl *pllemma.Table, fold string) []uint32 {
	ids := tbl.Lemmas(fold)
	for _, id := range ids {
		if tbl.Lemma(id) == fold {
			return []uint32{id}
		}
	}
	return ids
}

// lemmatize notes the lemmas of the text's words when the text is Polish.
func (x *textIndex) lemmatize(lang examsim.Lang) {
	if lang != examsim.Polish {
		return
	}
	tbl := pllemma.Load()
	pairs := x.lemmaPairs[:0]
	for w := range x.words {
		if t := x.tokOf(w); t.latin {
			for _, id := range tbl.Lemmas(t.fold) {
				pairs = append(pairs, uint64(id)<<32|uint64(w)) // #nosec G115 -- w indexes an explanation's words
			}
		}
	}
	slices.Sort(pairs)
	x.lemmaPairs, x.lemmatized = pairs, true
}

// lookupLemmas answers lookup for a Polish pattern word in a Polish text:
// the word as written, and the words that share one of its lemmas.
func (x *textIndex) lookupLemmas(id int32, want *token, prefix, exact bool) *matchSet {
	plain := *want
	plain.lem = nil
	written := x.lookup(want.lem.plain, &plain, prefix, exact).at // before newSet, which may move x.sets
	m := x.newSet(id)
	m.at = append(m.at, written...)
	if words := x.lemmaHits(want.lem); len(words) > 0 {
		for _, w := range words {
			m.at = append(m.at, x.words[w].at...)
			x.hit[w] = false
		}
		slices.Sort(m.at)
		m.at = slices.Compact(m.at) // a word both written so and of the lemma
	}
	return m
}

// lemmaHits returns the text's words that q matches by lemma, each once,
// marking them in x.hit (which the caller clears).
func (x *textIndex) lemmaHits(q *lemmaQuery) []uint32 {
	hit, words := x.hit, x.lemmaWords[:0]
	mark := func(lo, hi uint32) {
		p := x.lemmaPairs
		i, j := 0, len(p)
		for i < j { // the first pair of lemma lo or later
			if m := int(uint(i+j) >> 1); p[m]>>32 < uint64(lo) {
				i = m + 1
			} else {
				j = m
			}
		}
		for ; i < len(p) && p[i]>>32 < uint64(hi); i++ {
			if w := uint32(p[i]); !hit[w] { // #nosec G115 -- the low half holds a word index
				hit[w], words = true, append(words, w)
			}
		}
	}
	for _, id := range q.ids {
		mark(id, id+1)
	}
	if q.lo < q.hi {
		mark(q.lo, q.hi)
	}
	x.lemmaWords = words
	return words
}
