package scoring

import (
	"sort"
	"strings"
)

// textIndex answers "where does this pattern word match?" for one text. It
// compares each pattern word with the text's distinct words, not its tokens,
// finds exact and prefix candidates by hash and binary search, and
// remembers every answer: rubrics repeat words, and so do texts.
type textIndex struct {
	toks   []token
	words  []distinctWord
	byFold map[string][]int // fold → indices into words
	sorted []int            // indices into words, by fold, for prefix ranges
	cache  map[wordKey]*matchSet
	hit    []bool // scratch for lookup, one per distinct word
}

type distinctWord struct {
	tok *token // a representative: equal norm means equal everything
	at  []int  // indices of the tokens with this norm
}

type wordKey struct {
	norm          string
	prefix, exact bool
}

type matchSet struct {
	at   []int  // sorted token indices
	mask []bool // mask[i] reports whether token i matches; made on demand
}

func newTextIndex(toks []token) *textIndex {
	x := &textIndex{toks: toks, byFold: make(map[string][]int), cache: make(map[wordKey]*matchSet)}
	seen := make(map[string]int, len(toks)/2)
	for i := range toks {
		n, ok := seen[toks[i].norm]
		if !ok {
			n = len(x.words)
			seen[toks[i].norm] = n
			x.words = append(x.words, distinctWord{tok: &toks[i]})
			x.byFold[toks[i].fold] = append(x.byFold[toks[i].fold], n)
			x.sorted = append(x.sorted, n)
		}
		x.words[n].at = append(x.words[n].at, i)
	}
	x.hit = make([]bool, len(x.words))
	sort.Slice(x.sorted, func(a, b int) bool { return x.words[x.sorted[a]].tok.fold < x.words[x.sorted[b]].tok.fold })
	return x
}

// lookup finds the tokens a pattern word matches.
func (x *textIndex) lookup(want *token, prefix, exact bool) *matchSet {
	key := wordKey{want.norm, prefix, exact}
	if m, ok := x.cache[key]; ok {
		return m
	}
	hit := x.hit
	try := func(w int) {
		if !hit[w] && sameWord(x.words[w].tok, want, prefix, exact) {
			hit[w] = true
		}
	}
	if prefix {
		lo := sort.Search(len(x.sorted), func(i int) bool { return x.words[x.sorted[i]].tok.fold >= want.fold })
		for i := lo; i < len(x.sorted) && strings.HasPrefix(x.words[x.sorted[i]].tok.fold, want.fold); i++ {
			try(x.sorted[i])
		}
	} else {
		for _, w := range x.byFold[want.fold] {
			try(w)
		}
	}
	// Typos change the fold, so only a scan finds them; it applies to long
	// Latin words alone and is cheap for the rest.
	if !exact && want.latin && len(want.fold) >= 5 {
		for w := range x.words {
			if t := x.words[w].tok; t.latin && len(t.fold) >= len(want.fold)-1 && (prefix || len(t.fold) <= len(want.fold)+1) {
				try(w)
			}
		}
	}
	m := &matchSet{}
	for w, ok := range hit {
		if ok {
			m.at = append(m.at, x.words[w].at...)
			hit[w] = false
		}
	}
	sort.Ints(m.at)
	x.cache[key] = m
	return m
}

// indices returns the indices of the tokens that want matches.
func (x *textIndex) indices(want *token, prefix, exact bool) []int {
	return x.lookup(want, prefix, exact).at
}

// mask reports, per token index, whether want matches it.
func (x *textIndex) mask(want *token, prefix, exact bool) []bool {
	m := x.lookup(want, prefix, exact)
	if m.mask == nil {
		m.mask = make([]bool, len(x.toks))
		for _, i := range m.at {
			m.mask[i] = true
		}
	}
	return m.mask
}
