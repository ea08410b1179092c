package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
)

// TestPasswordCost: new hashes use the database's bcrypt cost, the default
// unless set; a hash made at another cost still checks, since bcrypt reads
// the cost from the hash.
func TestPasswordCost(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "cost.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ls := store.NewLearnerService(db)
	if _, err := ls.CreateAccount(ctx, "standard", "a less common passphrase", examsim.RoleLearner); err != nil {
		t.Fatal(err)
	}
	if err := db.SetPasswordCost(bcrypt.MinCost - 1); err == nil {
		t.Error("a cost below bcrypt's minimum was taken")
	}
	if err := db.SetPasswordCost(bcrypt.MinCost); err != nil {
		t.Fatal(err)
	}
	if _, err := ls.CreateAccount(ctx, "cheap", "a less common passphrase", examsim.RoleLearner); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]int{"standard": bcrypt.DefaultCost, "cheap": bcrypt.MinCost} {
		hash := db.QueryString(t, `SELECT password_hash FROM learners WHERE username = ?`, name)
		if got, err := bcrypt.Cost([]byte(hash)); err != nil || got != want {
			t.Errorf("%s's hash has cost %d (%v), want %d", name, got, err, want)
		}
		if _, err := ls.Authenticate(ctx, name, "a less common passphrase"); err != nil {
			t.Errorf("%s cannot log in: %v", name, err)
		}
		if _, err := ls.Authenticate(ctx, name, "another passphrase"); examsim.ErrorCode(err) != examsim.EUNAUTHORIZED {
			t.Errorf("%s with a wrong password: %v", name, err)
		}
	}
	if _, err := ls.Authenticate(ctx, "nobody", "a less common passphrase"); examsim.ErrorCode(err) != examsim.EUNAUTHORIZED {
		t.Errorf("an unknown username: %v", err)
	}
}
