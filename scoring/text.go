package scoring

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
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
	norm  string // NFC and case-folded
	fold  string // norm without Latin diacritics, with đ→d and ł→l
	plain bool   // typed without diacritics: norm == fold
	latin bool   // only Latin letters and digits: typo tolerance applies
	thai  bool
	pos   int // position in units
}

func isThai(r rune) bool { return r >= 0x0E00 && r <= 0x0E7F }

// tokenize splits text into tokens. It never fails: invalid UTF-8 becomes
// spaces, format characters such as zero-width joiners are dropped, and
// identifiers are split at underscores and camelCase humps, so isRetryable,
// is_retryable and "is retryable" all read as "is retryable".
func tokenize(text string) []token {
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, " ")
	}
	text = norm.NFC.String(text)
	caser := cases.Fold()
	toks := make([]token, 0, len(text)/5+1)
	pos := 0
	var word []rune
	flush := func() {
		if len(word) == 0 {
			return
		}
		n := foldCase(caser, word)
		f := foldDiacritics(n)
		toks = append(toks, token{norm: n, fold: f, plain: n == f, latin: isLatin(f), pos: pos})
		pos += wordUnits
		word = word[:0]
	}
	runes := []rune(text)
	for i, r := range runes {
		switch {
		case isThai(r):
			flush()
			s := string(r)
			toks = append(toks, token{norm: s, fold: s, plain: true, thai: true, pos: pos})
			pos++
		case r == '\'' || r == '’' || unicode.Is(unicode.Cf, r):
			// don't → dont; zero-width joiners and marks of direction vanish.
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			if unicode.IsUpper(r) && len(word) > 0 && unicode.IsLower(word[len(word)-1]) {
				flush()
			}
			word = append(word, r)
		default:
			flush()
			if endsSentence(runes, i) {
				pos += sentenceBreak
			}
		}
	}
	flush()
	return toks
}

// foldCase folds a word's case, without the cost of a transformer for the
// plain ASCII words that most explanations are made of.
func foldCase(caser cases.Caser, word []rune) string {
	for _, r := range word {
		if r >= utf8.RuneSelf {
			return caser.String(string(word))
		}
	}
	b := make([]byte, len(word))
	for i, r := range word {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		b[i] = byte(r)
	}
	return string(b)
}

// endsSentence reports whether the rune at i closes a sentence. A full stop
// inside "3.5" or "e.g" does not.
func endsSentence(runes []rune, i int) bool {
	switch runes[i] {
	case '!', '?', ';', '\n', '。':
		return true
	case '.':
		return i+1 == len(runes) || unicode.IsSpace(runes[i+1])
	}
	return false
}

// foldDiacritics removes the combining marks that Latin scripts add and maps
// the Vietnamese and Polish letters that Unicode does not decompose. Thai
// vowels and tone marks live outside U+0300–U+036F and are never touched.
func foldDiacritics(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range norm.NFD.String(s) {
		switch {
		case r >= 0x0300 && r <= 0x036F:
		case r == 'đ':
			b.WriteRune('d')
		case r == 'ł':
			b.WriteRune('l')
		default:
			b.WriteRune(r)
		}
	}
	return norm.NFC.String(b.String())
}

func isLatin(s string) bool {
	for _, r := range s {
		if !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r))) {
			return false
		}
	}
	return s != ""
}

// osaWithin1 reports whether a and b are at most one edit apart, counting a
// swap of two neighbouring letters as one edit.
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
