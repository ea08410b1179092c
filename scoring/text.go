package scoring

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Positions are counted in units so that languages with and without spaces
// share one notion of distance: a spaced word is four units, a Thai
// character one (an average Thai word is about four characters long).
const (
	wordUnits     = 4
	sentenceBreak = 1 << 16 // far beyond any window, so windows stay in one sentence
)

// token is one word (or, in Thai, one character) of normalised text.
type token struct {
	norm  string // NFC and lower case
	fold  string // norm without Latin diacritics, with đ→d and ł→l
	plain bool   // typed without diacritics: norm == fold
	// strict marks a plain word in a text that is written with diacritics:
	// the learner typed it bare because it is bare ("nội dung", content),
	// so it is not read as a cue that carries them ("đừng", don't).
	strict bool
	latin  bool // only ASCII letters and digits once folded: typo tolerance applies
	thai   bool
	quoted bool // inside quotation marks: words quoted, not the learner's own claim
	common bool // an everyday word, never read as a typo of another (see commonWords)
	// The flags above share one word of memory: a token stays 88 bytes with lem.
	pos    int // position in units
	clause int // clauses end at commas, colons, dashes and brackets as well as sentence ends
	sent   int // sentences end at full stops, ! ? ; and line breaks
	// start and end are byte offsets of the word in the text given to tokenize.
	start, end int
	lem        *lemmaQuery // a Polish pattern word's lemmas (see lemma.go); nil in texts
}

func isThai(r rune) bool { return r >= 0x0E00 && r <= 0x0E7F }

// tokenize splits text into tokens. It never fails: invalid UTF-8 becomes
// spaces, format characters such as zero-width joiners are dropped, and
// identifiers are split at underscores and camelCase humps, so isRetryable,
// is_retryable and "is retryable" all read as "is retryable".
func tokenize(toks []token, text string) []token {
	if !utf8.ValidString(text) {
		text = blankInvalid(text) // byte for byte, so offsets stay true
	}
	var segs []nfcSegment
	if !isASCII(text) && !thaiNFC(text) && !norm.NFC.IsNormalString(text) {
		text, segs = nfcWithOffsets(text)
	}
	first := len(toks)
	defer func() {
		if segs != nil {
			restoreOffsets(toks[first:], segs)
		}
	}()
	pos, clause, sent := 0, 0, 0
	quoted := false
	wStart, wEnd := 0, 0
	// Room on the stack for ordinary words; longer ones grow onto the heap.
	var wordArr [32]rune
	var normArr, foldArr [64]byte
	word, normBuf, foldBuf := wordArr[:0], normArr[:0], foldArr[:0]
	flush := func() {
		if len(word) == 0 {
			return
		}
		var t token
		t, normBuf, foldBuf = wordToken(word, normBuf[:0], foldBuf[:0])
		t.pos, t.clause, t.sent, t.quoted, t.start, t.end = pos, clause, sent, quoted, wStart, wEnd
		toks = append(toks, t)
		pos += wordUnits
		word = word[:0]
	}
	for i, r := range text {
		switch {
		case isThai(r):
			flush()
			s := thaiLetters[r-0x0E00]
			toks = append(toks, token{norm: s, fold: s, plain: true, thai: true, pos: pos, clause: clause, sent: sent, quoted: quoted, start: i, end: i + utf8.RuneLen(r)})
			pos++
		case r == '\'' || r == '’' || unicode.Is(unicode.Cf, r):
			// don't → dont; zero-width joiners and marks of direction vanish.
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			if unicode.IsUpper(r) && len(word) > 0 && unicode.IsLower(word[len(word)-1]) {
				flush()
			}
			if len(word) == 0 {
				wStart = i
			}
			word = append(word, r)
			wEnd = i + utf8.RuneLen(r)
		default:
			flush()
			quoted = quotedAfter(r, quoted)
			if endsSentence(text, i) {
				quoted = false
				pos += sentenceBreak
				clause++
				sent++
			} else if endsClause(r) && !numberRange(text, i) {
				clause++
			}
		}
	}
	flush()
	return toks
}

// restoreOffsets maps the byte offsets of toks, taken in the NFC form of a
// text, back to the text as given.
func restoreOffsets(toks []token, segs []nfcSegment) {
	for i := range toks {
		toks[i].start, toks[i].end = originalOffset(segs, toks[i].start), originalOffset(segs, toks[i].end)
	}
}

// wordToken normalises one word into a token's norm, fold, plain, latin and
// common fields, writing into normBuf and foldBuf (passed empty), which it
// returns grown when the word needed more room.
func wordToken(word []rune, normBuf, foldBuf []byte) (token, []byte, []byte) {
	if isASCIIWord(word) { // most words: lower-case them in place, nothing to fold
		for _, r := range word {
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			normBuf = append(normBuf, byte(r)) // #nosec G115 -- the word is ASCII (checked above)
		}
		n := string(normBuf)
		return token{norm: n, fold: n, plain: true, latin: true, common: len(n) >= 4 && commonWords[n]}, normBuf, foldBuf
	}
	latin := true
	for _, r := range word {
		r = unicode.ToLower(r)
		normBuf = utf8.AppendRune(normBuf, r)
		if f, drop := foldRune(r); !drop {
			foldBuf = utf8.AppendRune(foldBuf, f)
			latin = latin && f < utf8.RuneSelf && (unicode.IsLetter(f) || unicode.IsDigit(f))
		}
	}
	n, f := string(normBuf), string(foldBuf)
	return token{norm: n, fold: f, plain: n == f, latin: latin && f != "", common: latin && commonWords[f]}, normBuf, foldBuf
}

func isASCIIWord(word []rune) bool {
	for _, r := range word {
		if r >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// quotedAfter returns whether the text is inside quotation marks after the
// separator r, given whether it was before.
func quotedAfter(r rune, quoted bool) bool {
	switch r {
	case '"':
		return !quoted
	case '“', '„', '«':
		return true
	case '”', '»':
		return false
	}
	return quoted
}

// blankInvalid replaces each byte of invalid UTF-8 with a space.
func blankInvalid(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			b[i] = ' '
			n = 1
		}
		i += n
	}
	return string(b)
}

// nfcSegment pairs where a normalisation segment starts in the NFC text
// (out) and in the text as typed (in).
type nfcSegment struct{ out, in int }

// nfcWithOffsets normalises s to NFC and says where each segment came from,
// so evidence can point into the text the learner typed.
func nfcWithOffsets(s string) (string, []nfcSegment) {
	var it norm.Iter
	it.InitString(norm.NFC, s)
	var b strings.Builder
	segs := []nfcSegment{}
	for !it.Done() {
		in := it.Pos()
		segs = append(segs, nfcSegment{b.Len(), in})
		b.Write(it.Next())
	}
	segs = append(segs, nfcSegment{b.Len(), len(s)})
	return b.String(), segs
}

// originalOffset maps a byte offset of the NFC text back to the typed text;
// an offset inside a segment maps to the segment's start.
func originalOffset(segs []nfcSegment, off int) int {
	i := sort.Search(len(segs), func(i int) bool { return segs[i].out > off }) - 1
	if i < 0 {
		return 0
	}
	if segs[i].out == off || i+1 >= len(segs) {
		return segs[i].in
	}
	if off >= segs[i+1].out {
		return segs[i+1].in
	}
	return segs[i].in
}

// thaiLetters holds each Thai character as a string, so a Thai text of a
// few hundred characters does not allocate one string per character.
var thaiLetters = func() (out [0x80]string) {
	for i := range out {
		out[i] = string(rune(0x0E00 + i))
	}
	return out
}()

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// endsSentence reports whether the rune at byte offset i closes a sentence.
// A full stop inside "3.5" or after an abbreviation such as "e.g." or "np."
// does not.
func endsSentence(text string, i int) bool {
	switch text[i] {
	case '!', '?', ';', '\n':
		return true
	case '.':
		next, _ := utf8.DecodeRuneInString(text[i+1:])
		return (i+1 == len(text) || unicode.IsSpace(next)) && !abbreviations[lastWord(text, i)]
	}
	return strings.HasPrefix(text[i:], "。")
}

// abbreviations end with a full stop that does not end the sentence.
var abbreviations = func() map[string]bool {
	m := map[string]bool{}
	for _, d := range languages {
		for _, w := range d.abbreviations {
			m[w] = true
		}
	}
	return m
}()

// lastWord returns the ASCII letters and dots just before byte offset i,
// lower-cased: abbreviations are ASCII.
func lastWord(text string, i int) string {
	j := i
	for j > 0 && j > i-5 && (text[j-1] == '.' || ('a' <= text[j-1]|0x20 && text[j-1]|0x20 <= 'z')) {
		j--
	}
	return strings.ToLower(text[j:i])
}

// thaiNFC reports, cheaply, that a text of ASCII and Thai alone is already
// in NFC: Thai has no compositions, so only the order of its combining
// vowels and tone marks can differ (NFC puts ุ before ่, for instance).
func thaiNFC(text string) bool {
	prev := 0
	for _, r := range text {
		if r >= utf8.RuneSelf && !isThai(r) {
			return false
		}
		ccc := thaiCombiningClass(r)
		if ccc != 0 && prev > ccc {
			return false
		}
		prev = ccc
	}
	return true
}

func thaiCombiningClass(r rune) int {
	switch {
	case r == 0x0E38 || r == 0x0E39:
		return 103
	case r == 0x0E3A:
		return 9
	case r >= 0x0E48 && r <= 0x0E4B:
		return 107
	}
	return 0
}

// numberRange reports whether the dash at byte i joins two numbers, as in
// "sources 1–3": a range inside the clause, not a break between clauses.
func numberRange(text string, i int) bool {
	before, _ := utf8.DecodeLastRuneInString(text[:i])
	_, size := utf8.DecodeRuneInString(text[i:])
	after, _ := utf8.DecodeRuneInString(text[i+size:])
	return unicode.IsDigit(before) && unicode.IsDigit(after)
}

func endsClause(r rune) bool {
	switch r {
	case ',', ':', '–', '—', '，':
		return true
	}
	return false
}

// latinBase maps each precomposed Latin letter (Latin-1 to Latin Extended-B,
// and Latin Extended Additional, where Vietnamese lives) to its base letter,
// plus đ and ł, which Unicode does not decompose.
var latinBase = func() map[rune]rune {
	m := make(map[rune]rune)
	add := func(lo, hi rune) {
		for r := lo; r <= hi; r++ {
			d := []rune(norm.NFD.String(string(r)))
			if len(d) < 2 || d[0] >= 0x0250 {
				continue
			}
			marksOnly := true
			for _, c := range d[1:] {
				marksOnly = marksOnly && c >= 0x0300 && c <= 0x036F
			}
			if marksOnly {
				m[r] = d[0]
			}
		}
	}
	add(0x00C0, 0x024F)
	add(0x1E00, 0x1EFF)
	m['đ'], m['Đ'], m['ł'], m['Ł'] = 'd', 'D', 'l', 'L'
	return m
}()

// foldRune returns r without its Latin diacritics, or drop for one of the
// combining marks Latin scripts add. Thai vowels and tone marks live outside
// U+0300–U+036F and are never touched.
func foldRune(r rune) (folded rune, drop bool) {
	switch {
	case r < 0xC0:
		return r, false
	case r >= 0x0300 && r <= 0x036F:
		return 0, true
	}
	if b, ok := latinBase[r]; ok {
		return b, false
	}
	return r, false
}

func osaWithin1(a, b string) bool {
	la, lb := len(a), len(b)
	switch {
	case la == lb:
		diff := -1
		for i := 0; i < la; i++ {
			if a[i] != b[i] {
				if diff >= 0 {
					// A second difference is fine only as a swap of neighbours.
					return diff == i-1 && a[diff] == b[i] && a[i] == b[diff] && a[i+1:] == b[i+1:]
				}
				diff = i
			}
		}
		return true
	case la == lb+1:
		return oneInsertion(b, a)
	case lb == la+1:
		return oneInsertion(a, b)
	}
	return false
}

// oneInsertion reports whether long is short with one byte inserted.
func oneInsertion(short, long string) bool {
	i := 0
	for i < len(short) && short[i] == long[i] {
		i++
	}
	return short[i:] == long[i+1:]
}
