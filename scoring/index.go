package scoring

import (
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// textIndex answers "where does this pattern word match?" for one text. It
// compares each pattern word with the text's distinct words, not its tokens,
// finds exact and prefix candidates by hash and binary search, and
// remembers every answer: rubrics repeat words, and so do texts. Indexes are
// pooled, so scoring an explanation allocates little.
type textIndex struct {
	toks   []token
	text   string // as given to indexText
	words  []distinctWord
	byNorm map[string]int   // norm → index into words
	byFold map[string][]int // fold → indices into words
	sorted []int            // indices into words, by fold, for prefix ranges
	// The answers so far, by pattern-word id: setOf[id] indexes sets when
	// genOf[id] is this text's generation. Generations spare clearing.
	gen   uint32
	genOf []uint32
	setOf []int32
	sets  []matchSet
	hit   []bool // scratch for lookup, one per distinct word
	// restMasks is scratch for spans: the masks of a phrase's later words.
	restMasks [][]bool
	spanArena []span   // every span found in this text; see spans
	found     [][]span // scratch for Pattern.match
	combo     []span   // scratch for Pattern.match: one span per slot
	// rd is the clause reading of this text; blockMask and judgeMask are
	// its scratch. skipNen, when set, hides "nên" meaning "so".
	rd                                                    reading
	blockMask, judgeMask, weakMask, modalMask, letterMask []bool
	purposeMask, stateMask, letterTokMask                 []bool
	skipNen                                               []bool
	// rejects counts matches whose words were there but not asserted;
	// reversed those of {neg} patterns asserted without their negation;
	// contradicted those of {neg} concepts said without their negation
	// outside any refutation or supposition, judged or not.
	rejects, reversed, contradicted int
	// thaiWord[r-0x0E00] is 1 + the index into words of Thai character r.
	thaiWord [0x80]int32
	// In a Polish text, lemmaPairs holds lemma id << 32 | word index for each
	// lemma of each word, sorted (see lemma.go).
	lemmaPairs []uint64
	lemmatized bool
	lemmaWords []uint32 // scratch for lemmaHits
}

type distinctWord struct {
	tok int   // index of a representative token: equal norm means equal everything
	at  []int // indices of the tokens with this norm
}

type wordKey struct {
	norm                 string
	prefix, exact, lemma bool
}

type matchSet struct {
	at      []int  // sorted token indices
	mask    []bool // mask[i] reports whether token i matches; made on demand
	hasMask bool
}

var indexPool = sync.Pool{New: func() any { return newTextIndex() }}

func newTextIndex() *textIndex {
	return &textIndex{byNorm: map[string]int{}, byFold: map[string][]int{}}
}

// indexText tokenizes text and indexes it. Call release when done.
func indexText(text string) *textIndex {
	x := indexPool.Get().(*textIndex)
	x.index(text)
	return x
}

// reset readies x for a new text. It is the one place per-text state is
// cleared, on every path: the index is rebuilt from a zero value that keeps
// only the memory of its buffers, so a field added later starts empty for
// each text unless it is listed here, and a text that returns early (an
// empty one) cannot leave state behind for the next.
func (x *textIndex) reset() {
	clear(x.byNorm)
	clear(x.byFold)
	*x = textIndex{
		toks: x.toks[:0], words: x.words[:0], byNorm: x.byNorm, byFold: x.byFold, sorted: x.sorted[:0],
		gen: x.gen + 1, genOf: x.genOf, setOf: x.setOf, sets: x.sets[:0], hit: x.hit[:0],
		restMasks: x.restMasks[:0], spanArena: x.spanArena[:0], found: x.found[:0], combo: x.combo[:0],
		rd:        x.rd.emptied(),
		blockMask: x.blockMask[:0], judgeMask: x.judgeMask[:0], weakMask: x.weakMask[:0], modalMask: x.modalMask[:0],
		letterMask: x.letterMask[:0], purposeMask: x.purposeMask[:0], stateMask: x.stateMask[:0], letterTokMask: x.letterTokMask[:0],
		lemmaPairs: x.lemmaPairs[:0], lemmaWords: x.lemmaWords[:0],
	}
}

// index resets x and indexes text into it.
func (x *textIndex) index(text string) {
	x.reset()
	x.toks = tokenize(x.toks, text)
	x.text = text
	for i := range x.toks {
		var n int
		var ok bool
		// A Thai character is a word of its own; an array beats the map.
		if t := &x.toks[i]; t.thai {
			r, _ := utf8.DecodeRuneInString(t.norm)
			n, ok = int(x.thaiWord[r-0x0E00])-1, x.thaiWord[r-0x0E00] != 0
			if !ok {
				x.thaiWord[r-0x0E00] = int32(len(x.words)) + 1 // #nosec G115 -- words of one explanation, capped by MaxExplanation
			}
		} else {
			n, ok = x.byNorm[t.norm]
		}
		if !ok {
			n = len(x.words)
			if !x.toks[i].thai {
				x.byNorm[x.toks[i].norm] = n
			}
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
	x.markStrict()
	x.hit = slices.Grow(x.hit, len(x.words))[:len(x.words)]
	clear(x.hit)
	sort.Slice(x.sorted, func(a, b int) bool { return x.tokOf(x.sorted[a]).fold < x.tokOf(x.sorted[b]).fold })
}

// markStrict marks the bare words of a text written with diacritics (see
// token.strict).
func (x *textIndex) markStrict() {
	accented := false
	for i := range x.toks {
		if !x.toks[i].plain && !x.toks[i].thai {
			accented = true
			break
		}
	}
	for i := range x.toks {
		x.toks[i].strict = accented && x.toks[i].plain && !x.toks[i].thai
	}
}

// release returns the index to the pool, keeping its memory for the next
// text; index clears it before reuse.
func (x *textIndex) release() {
	indexPool.Put(x)
}

func (x *textIndex) tokOf(word int) *token { return &x.toks[x.words[word].tok] }

// lookup finds the tokens a pattern word matches; id is the word's number
// in the vocabulary (see wordID).
func (x *textIndex) lookup(id int32, want *token, prefix, exact bool) *matchSet {
	if int(id) >= len(x.genOf) {
		n := vocabularySize()
		x.genOf = slices.Grow(x.genOf, n-len(x.genOf))[:n]
		x.setOf = slices.Grow(x.setOf, n-len(x.setOf))[:n]
	}
	if x.genOf[id] == x.gen+1 {
		return &x.sets[x.setOf[id]]
	}
	if want.lem != nil && x.lemmatized {
		return x.lookupLemmas(id, want, prefix, exact)
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
	m := x.newSet(id)
	if found > 0 {
		x.addHits(m, hit)
	}
	return m
}

// newSet starts the empty answer for pattern word id, reusing pooled memory.
func (x *textIndex) newSet(id int32) *matchSet {
	i := len(x.sets)
	if i < cap(x.sets) {
		x.sets = x.sets[:i+1]
		x.sets[i].at, x.sets[i].hasMask = x.sets[i].at[:0], false
	} else {
		x.sets = append(x.sets, matchSet{})
	}
	x.genOf[id], x.setOf[id] = x.gen+1, int32(i) // #nosec G115 -- i indexes a set of an explanation's words, capped by MaxExplanation
	return &x.sets[i]
}

// addHits adds the tokens of the words marked in hit to m, in order, and
// clears hit.
func (x *textIndex) addHits(m *matchSet, hit []bool) {
	for w, ok := range hit {
		if ok {
			m.at = append(m.at, x.words[w].at...)
			hit[w] = false
		}
	}
	sort.Ints(m.at)
}

// indices returns the indices of the tokens that want matches.
func (x *textIndex) indices(id int32, want *token, prefix, exact bool) []int {
	return x.lookup(id, want, prefix, exact).at
}

// mask reports, per token index, whether want matches it, or is nil when
// want matches nowhere.
func (x *textIndex) mask(id int32, want *token, prefix, exact bool) []bool {
	m := x.lookup(id, want, prefix, exact)
	if len(m.at) == 0 {
		return nil
	}
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

// The vocabulary numbers every distinct pattern word (with its prefix and
// exactness) as patterns are compiled, so that scoring finds earlier answers
// by index instead of hashing words.
var vocabulary struct {
	sync.Mutex
	ids map[wordKey]int32
}

func wordID(k wordKey) int32 {
	vocabulary.Lock()
	defer vocabulary.Unlock()
	if vocabulary.ids == nil {
		vocabulary.ids = make(map[wordKey]int32)
	}
	id, ok := vocabulary.ids[k]
	if !ok {
		id = int32(len(vocabulary.ids)) // #nosec G115 -- distinct words of the bank's patterns, far below 2^31
		vocabulary.ids[k] = id
	}
	return id
}

func vocabularySize() int {
	vocabulary.Lock()
	defer vocabulary.Unlock()
	return len(vocabulary.ids)
}
