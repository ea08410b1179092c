package classroom

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/examsim/examsim"
)

// Nickname length limits, in characters.
const (
	MinNickname = 2
	MaxNickname = 20
)

// CleanNickname returns the nickname as it will be shown, or an EINVALID
// error saying what is wrong. It refuses invisible and control characters
// (which could make two names look alike or reorder the page), collapses
// spaces, and refuses names on the abuse list in any of the four languages.
func CleanNickname(s string) (string, error) {
	s = norm.NFC.String(s)
	for _, r := range s {
		if r == utf8.RuneError || (unicode.IsControl(r) && !unicode.IsSpace(r)) || unicode.Is(unicode.Cf, r) ||
			unicode.Is(unicode.Co, r) {
			return "", examsim.E(examsim.EINVALID, "join.error_nickname_chars")
		}
	}
	s = strings.Join(strings.Fields(s), " ")
	if n := utf8.RuneCountInString(s); n < MinNickname || n > MaxNickname {
		return "", examsim.E(examsim.EINVALID, "join.error_nickname_length", "Min", MinNickname, "Max", MaxNickname)
	}
	if Abusive(s) {
		return "", examsim.E(examsim.EINVALID, "join.error_nickname_blocked")
	}
	return s, nil
}

// blocked are word stems nobody needs in a classroom nickname, folded as
// fold folds, matched anywhere in the name. They are long enough not to hit
// ordinary names ("Hancock" and "Fukuda" pass).
var blocked = []string{
	// English
	"fuck", "shit", "cunt", "bitch", "nigger", "nigga", "faggot", "whore", "slut", "rapist", "asshole",
	"pussy", "penis", "hitler", "nazi", "retard",
	// Polish
	"kurw", "pierdol", "jeban", "jebac", "jebać", "chuj", "pizd", "dziwk", "pedał", "cwel",
	// Vietnamese phrases (diacritics kept)
	"địtmẹ", "đụmá", "đéomẹ", "cặc",
	// Thai, which has no spaces between words
	"เย็ด", "ควย", "เหี้ย", "ไอ้สัตว์", "แตด", "อีดอก",
}

// blockedWords are short words blocked only as a whole word, because as
// parts of words they are harmless: Vietnamese "lồn" is in "lồng" (cage),
// "đĩ" in "đĩa" (plate).
var blockedWords = []string{"lồn", "đĩ", "địt", "đụ", "đéo", "đm", "dm", "vcl", "clm", "dick", "cock", "fag", "kys"}

var leet = strings.NewReplacer("0", "o", "1", "i", "3", "e", "4", "a", "5", "s", "7", "t", "@", "a", "$", "s", "!", "i")

// fold lowercases, undoes digit-for-letter spellings and drops everything
// but letters and marks, so "F.u_c k" and "FUCK" fold alike.
func fold(s string) string {
	s = leet.Replace(strings.ToLower(norm.NFC.String(s)))
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Abusive reports whether a nickname contains a blocked word.
func Abusive(nick string) bool {
	f := fold(nick)
	for _, w := range blocked {
		if strings.Contains(f, w) {
			return true
		}
	}
	for _, word := range strings.FieldsFunc(strings.ToLower(nick), func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r)
	}) {
		fw := fold(word)
		for _, w := range blockedWords {
			if fw == w {
				return true
			}
		}
	}
	return false
}
