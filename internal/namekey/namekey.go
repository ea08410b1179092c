// Package namekey decides when two names a person picked (a username, a
// nickname in a room) are the same name.
package namekey

import (
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Of folds a name a person picked (a username, a nickname in a room)
// into the key that decides whether two names are the same: names with one
// key read alike, so a second one is refused. It is the one rule for both.
//
//   - NFKC turns compatibility forms into their plain letters: full-width
//     "Ａｌｉｃｅ" is "Alice", a ligature "ﬁ" is "fi".
//   - Default-ignorable code points (zero-width spaces, joiners, soft
//     hyphens, U+034F, Hangul fillers, variation selectors) and spaces are
//     dropped: "Anh Minh" is "anhminh".
//   - A TR39 skeleton (NFD, each confusable to its prototype) runs BEFORE
//     case is folded, since look-alikes differ by case: capital "I" is drawn
//     like "l", so "AIice" is "Alice"; Cyrillic "Аlice", Greek "Αlice",
//     Cherokee "Ꭺlice", small-capital "ᴀlice", "rnaria" ("m" is "rn"), "B0b".
//   - Unicode case folding ignores case beyond ASCII ("ŁUKASZ", "łukasz"),
//     and the skeleton runs once more on the folded name ("M" folds to "m").
//
// Uniqueness ignores case, and "I" is both "i" (by case) and "l" (by its
// look), so "i" and "l" must share a key: the table maps "l" to "i". "Ali"
// and "Aii" are one name; the price of refusing "AIice" beside "Alice".
// Marks stay: Vietnamese "Ánh" and "Anh", or Polish "Łucja" and "Lucja",
// are different names, as their owners would say.
func Of(name string) string {
	s := skeleton(norm.NFKC.String(name))
	s = skeleton(cases.Fold().String(s))
	return norm.NFC.String(cases.Fold().String(s))
}

// Version changes whenever Of's rules or table change, so that
// the store recomputes the keys it has saved (store.Open).
const Version = 2

// skeleton is UTS #39's skeleton over our table: NFD, drop default-ignorable
// code points and spaces, map each confusable to its prototype, NFD again.
func skeleton(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if unicode.IsSpace(r) || defaultIgnorable(r) {
			continue
		}
		if p, ok := confusables[r]; ok {
			b.WriteString(p)
			continue
		}
		b.WriteRune(r)
	}
	return norm.NFD.String(b.String())
}

// defaultIgnorable approximates Unicode's Default_Ignorable_Code_Point
// (DerivedCoreProperties.txt), which Go's unicode package does not derive:
// Other_Default_Ignorable_Code_Point, format characters and variation
// selectors.
func defaultIgnorable(r rune) bool {
	return unicode.In(r, unicode.Other_Default_Ignorable_Code_Point, unicode.Cf, unicode.Variation_Selector)
}

// Debian ships no confusables.txt (unicode-data has no security files), so
// this hand table is extended from it rather than generated; prototypes
// are strings because some are two letters ("m" is "rn").
var confusables = map[rune]string{
	// Cyrillic
	'А': "A", 'В': "B", 'Е': "E", 'К': "K", 'М': "M", 'Н': "H", 'О': "O", 'Р': "P", 'С': "C", 'Т': "T",
	'У': "Y", 'Х': "X", 'Ѕ': "S", 'І': "I", 'Ј': "J", 'Ԛ': "Q", 'Ԝ': "W", 'Һ': "H", 'Ү': "Y", 'Ӏ': "i",
	'а': "a", 'е': "e", 'о': "o", 'р': "p", 'с': "c", 'у': "y", 'х': "x", 'ѕ': "s", 'і': "i", 'ј': "j",
	'һ': "h", 'ԁ': "d", 'ԛ': "q", 'ԝ': "w", 'ӏ': "i", 'ү': "y", 'г': "r", 'п': "n",
	// Greek
	'Α': "A", 'Β': "B", 'Ε': "E", 'Ζ': "Z", 'Η': "H", 'Ι': "I", 'Κ': "K", 'Μ': "M", 'Ν': "N", 'Ο': "O",
	'Ρ': "P", 'Τ': "T", 'Υ': "Y", 'Χ': "X",
	'α': "a", 'ο': "o", 'ρ': "p", 'ν': "v", 'υ': "u", 'ι': "i", 'χ': "x", 'γ': "y", 'ϲ': "c", 'ϳ': "j",
	// Latin letters drawn like plain ones
	'ı': "i", 'ɑ': "a", 'ɡ': "g", 'ɩ': "i", 'ʋ': "u",
	// Plain Latin and digits drawn like one another. "l" to "i" is ours,
	// not TR39's: see Of.
	'I': "i", 'l': "i", '1': "i", '|': "i", '0': "O", 'm': "rn",
	// Small capitals
	'ᴀ': "A", 'ʙ': "B", 'ᴄ': "C", 'ᴅ': "D", 'ᴇ': "E", 'ɢ': "G", 'ʜ': "H", 'ɪ': "i", 'ᴊ': "J", 'ᴋ': "K",
	'ʟ': "L", 'ᴍ': "M", 'ɴ': "N", 'ᴏ': "O", 'ᴘ': "P", 'ʀ': "R", 'ꜱ': "S", 'ᴛ': "T", 'ᴜ': "U", 'ᴠ': "V",
	'ᴡ': "W", 'ʏ': "Y", 'ᴢ': "Z",
	// Cherokee (its small letters fold to these capitals)
	'Ꭺ': "A", 'Ᏼ': "B", 'Ꮯ': "C", 'Ꭰ': "D", 'Ꭼ': "E", 'Ꮐ': "G", 'Ꮋ': "H", 'Ꭻ': "J", 'Ꮶ': "K", 'Ꮮ': "L",
	'Ꮇ': "M", 'Ꮲ': "P", 'Ꮪ': "S", 'Ꭲ': "T", 'Ꮩ': "V", 'Ꮃ': "W", 'Ꮓ': "Z", 'Ꭵ': "i", 'Ꮢ': "R",
}
