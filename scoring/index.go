package scoring

import (
	"slices"
	"sort"
	"strings"
	"sync"
)

// textIndex answers "where does this pattern word match?" for one text. It
// compares each pattern word with the text's distinct words, not its tokens,
// finds exact and prefix candidates by hash and binary search, and
// remembers every answer: rubrics repeat words, and so do texts. Indexes are
// pooled, so scoring an explanation allocates little.
type textIndex struct {
	toks   []token
	words  []distinctWord
	byNorm map[string]int   // norm → index into words
	byFold map[string][]int // fold → indices into words
	sorted []int            // indices into words, by fold, for prefix ranges
	cache  map[wordKey]int  // → index into sets
	sets   []matchSet
	hit    []bool // scratch for lookup, one per distinct word
}

type distinctWord struct {
	tok int   // index of a representative token: equal norm means equal everything
	at  []int // indices of the tokens with this norm
}

type wordKey struct {
	norm          string
	prefix, exact bool
}

type matchSet struct {
	at      []int  // sorted token indices
	mask    []bool // mask[i] reports whether token i matches; made on demand
	hasMask bool
}

var indexPool = sync.Pool{New: func() any {
	return &textIndex{byNorm: map[string]int{}, byFold: map[string][]int{}, cache: make(map[wordKey]int, 256)}
}}

// indexText tokenizes text and indexes it. Call release when done.
func indexText(text string) *textIndex {
	x := indexPool.Get().(*textIndex)
	x.toks = tokenize(x.toks[:0], text)
	for i := range x.toks {
		n, ok := x.byNorm[x.toks[i].norm]
		if !ok {
			n = len(x.words)
			x.byNorm[x.toks[i].norm] = n
			if n < cap(x.words) {
				x.words = x.words[:n+1]
				x.words[n].tok, x.words[n].at = i, x.words[n].at[:0]
			} else {
				x.words = append(x.words, distinctWord{tok: i})
			}
			x.byFold[x.toks[i].fold] = append(x.byFold[x.toks[i].fold], n)
			x.sorted = append(x.sorted, n)
		}
		x.words[n].at = append(x.words[n].at, i)
	}
	x.hit = slices.Grow(x.hit[:0], len(x.words))[:len(x.words)]
	sort.Slice(x.sorted, func(a, b int) bool { return x.tokOf(x.sorted[a]).fold < x.tokOf(x.sorted[b]).fold })
	return x
}

// release returns the index to the pool, keeping its memory for the next text.
func (x *textIndex) release() {
	clear(x.byNorm)
	clear(x.byFold)
	clear(x.cache)
	x.words, x.sorted, x.sets = x.words[:0], x.sorted[:0], x.sets[:0]
	indexPool.Put(x)
}

func (x *textIndex) tokOf(word int) *token { return &x.toks[x.words[word].tok] }

// lookup finds the tokens a pattern word matches.
func (x *textIndex) lookup(want *token, prefix, exact bool) *matchSet {
	key := wordKey{want.norm, prefix, exact}
	if i, ok := x.cache[key]; ok {
		return &x.sets[i]
	}
	hit, found := x.hit, 0
	if prefix {
		lo := sort.Search(len(x.sorted), func(i int) bool { return x.tokOf(x.sorted[i]).fold >= want.fold })
		for i := lo; i < len(x.sorted) && strings.HasPrefix(x.tokOf(x.sorted[i]).fold, want.fold); i++ {
			if w := x.sorted[i]; sameWord(x.tokOf(w), want, prefix, exact) {
				hit[w], found = true, found+1
			}
		}
	} else {
		for _, w := range x.byFold[want.fold] {
			if sameWord(x.tokOf(w), want, prefix, exact) {
				hit[w], found = true, found+1
			}
		}
	}
	// Typos change the fold, so only a scan finds them. It applies to long
	// Latin words alone, and a cheap test of the first two letters (one edit
	// leaves one of them in place) skips most candidates.
	if !exact && want.latin && len(want.fold) >= 5 {
		a0, a1 := want.fold[0], want.fold[1]
		for w := range x.words {
			t := x.tokOf(w)
			if hit[w] || !t.latin || len(t.fold) < len(want.fold)-1 || (!prefix && len(t.fold) > len(want.fold)+1) {
				continue
			}
			if b0, b1 := t.fold[0], t.fold[1]; a0 != b0 && a0 != b1 && a1 != b0 && a1 != b1 {
				continue
			}
			if sameWord(t, want, prefix, exact) {
				hit[w], found = true, found+1
			}
		}
	}
	i := len(x.sets)
	if i < cap(x.sets) {
		x.sets = x.sets[:i+1]
		x.sets[i].at, x.sets[i].hasMask = x.sets[i].at[:0], false
	} else {
		x.sets = append(x.sets, matchSet{})
	}
	m := &x.sets[i]
	if found > 0 {
		for w, ok := range hit {
			if ok {
				m.at = append(m.at, x.words[w].at...)
				hit[w] = false
			}
		}
		sort.Ints(m.at)
	}
	x.cache[key] = i
	return m
}

// indices returns the indices of the tokens that want matches.
func (x *textIndex) indices(want *token, prefix, exact bool) []int {
	return x.lookup(want, prefix, exact).at
}

// mask reports, per token index, whether want matches it.
func (x *textIndex) mask(want *token, prefix, exact bool) []bool {
	m := x.lookup(want, prefix, exact)
	if !m.hasMask {
		m.mask = slices.Grow(m.mask[:0], len(x.toks))[:len(x.toks)]
		clear(m.mask)
		for _, i := range m.at {
			m.mask[i] = true
		}
		m.hasMask = true
	}
	return m.mask
}
