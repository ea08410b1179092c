package examsim

import (
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// NameKey folds a name a person picked (a username, a nickname in a room)
// into the key that decides whether two names are the same: names with one
// key read alike, so a second one is refused. It is the one rule for both.
//
//   - NFKC turns compatibility forms into their plain letters: full-width
//     "Ａｌｉｃｅ" is "Alice", a ligature "ﬁ" is "fi".
//   - Letters of other scripts drawn like Latin ones become those (a TR39
//     skeleton over the confusables subset below, before case is folded,
//     since look-alikes differ by case): Cyrillic "Аlice" and Greek
//     "Αlice" are "Alice".
//   - Unicode case folding ignores case beyond ASCII ("ŁUKASZ", "łukasz").
//   - Spaces and invisible format characters (zero-width spaces, joiners,
//     soft hyphens) are dropped: "Anh Minh" is "anhminh".
//
// Marks stay: Vietnamese "Ánh" and "Anh", or Polish "Łucja" and "Lucja",
// are different names, as their owners would say.
func NameKey(name string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(norm.NFKC.String(name)) {
		if unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) {
			continue
		}
		if p, ok := confusables[r]; ok {
			r = p
		}
		b.WriteRune(r)
	}
	return norm.NFC.String(cases.Fold().String(b.String()))
}

// confusables maps letters of Cyrillic, Greek and Latin's own extensions to
// the plain Latin letter they are drawn alike with. It is the subset of
// Unicode's confusables.txt (UTS #39, Unicode Security Mechanisms;
// © Unicode, Inc., Unicode License v3, https://www.unicode.org/license.txt)
// for the letters a name could be spoofed with in our four languages:
// golang.org/x/text has no confusables table. Full-width and other
// compatibility forms need no entry (NFKC maps them first), nor do letters
// with marks (NFD splits them, and the base letter is looked up).
var confusables = map[rune]rune{
	// Cyrillic
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T',
	'У': 'Y', 'Х': 'X', 'Ѕ': 'S', 'І': 'I', 'Ј': 'J', 'Ԛ': 'Q', 'Ԝ': 'W', 'Һ': 'H', 'Ү': 'Y', 'Ӏ': 'l',
	'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'ѕ': 's', 'і': 'i', 'ј': 'j',
	'һ': 'h', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'ӏ': 'l', 'ү': 'y', 'г': 'r', 'п': 'n',
	// Greek
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O',
	'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
	'α': 'a', 'ο': 'o', 'ρ': 'p', 'ν': 'v', 'υ': 'u', 'ι': 'i', 'χ': 'x', 'γ': 'y', 'ϲ': 'c', 'ϳ': 'j',
	// Latin letters drawn like plain ones
	'ı': 'i', 'ɑ': 'a', 'ɡ': 'g', 'ɩ': 'i', 'ʋ': 'u',
}
