package store_test

import (
	"testing"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
)

// TestUsernamesTakeCombiningMarks: a Thai or Vietnamese name spelt with
// combining vowel and tone marks (Unicode Mn, Mc) is a username, as it is a
// nickname; a name made only of marks, or starting with one, is not.
func TestUsernamesTakeCombiningMarks(t *testing.T) {
	for name, ok := range map[string]bool{
		"สมชัย":              true, // ั is Mn
		"น้ำใจ":              true,
		"Nguyê\u0303n":       true, // decomposed ễ
		"\u0e31\u0e31ab":     false,
		"\u0e31\u0e34\u0e35": false,
	} {
		err := store.ValidateCredentials(name, "a-long-enough-passphrase")
		if ok && err != nil {
			t.Errorf("%q refused: %v", name, err)
		}
		if !ok && examsim.ErrorCode(err) != examsim.EINVALID {
			t.Errorf("%q accepted: %v", name, err)
		}
	}
}
