package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/namekey"
	"github.com/examsim/examsim/store"
)

// TestUsernamesAreUniqueIgnoringLookAlikes: an account name that reads like
// a taken one is taken, whichever way the account is made.
func TestUsernamesAreUniqueIgnoringLookAlikes(t *testing.T) {
	eachDialect(t, testUsernamesAreUniqueIgnoringLookAlikes)
}

func testUsernamesAreUniqueIgnoringLookAlikes(t *testing.T, open opener) {
	ctx := context.Background()
	ls := store.NewLearnerService(open(t))
	if _, err := ls.CreateAccount(ctx, "Alice", "a less common passphrase", examsim.RoleLearner); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"alice", "Аlice" /* Cyrillic А */, "Ａｌｉｃｅ" /* full-width */, "ΑLICE" /* Greek Alpha */, "AIice" /* capital I */, "ᴀlice" /* small capital */, "Ꭺlice" /* Cherokee */} {
		if _, err := ls.CreateAccount(ctx, name, "a less common passphrase", examsim.RoleLearner); examsim.ErrorCode(err) != examsim.ECONFLICT {
			t.Errorf("user add %q beside Alice: %v, want a conflict", name, err)
		}
		anon, err := ls.CreateAnonymous(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ls.Register(ctx, anon.ID, name, "a less common passphrase"); examsim.ErrorCode(err) != examsim.ECONFLICT {
			t.Errorf("registering %q beside Alice: %v, want a conflict", name, err)
		}
	}
	if _, err := ls.CreateAccount(ctx, "Álice", "a less common passphrase", examsim.RoleLearner); err != nil {
		t.Errorf("Álice is another name: %v", err)
	}
}

// TestUsernameKeysOfOlderAccounts: accounts made before migration 006 get
// their keys when the database is opened; of two older accounts that fold
// alike, the first keeps the key, the second keeps working without one, and
// no new account may take either name.
func TestUsernameKeysOfOlderAccounts(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	ls := store.NewLearnerService(db)
	for _, name := range []string{"Bob", "Воb" /* Cyrillic В, о */} {
		if _, err := ls.CreateAnonymous(ctx); err != nil {
			t.Fatal(err)
		}
		// As an older version stored them: no key.
		db.ExecSQL(t, `INSERT INTO learners (username, password_hash, role, created_at) VALUES (?, 'x', 'learner', '2026-01-01T00:00:00Z')`, name)
	}
	db.ExecSQL(t, `UPDATE learners SET username_key = NULL`)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db, err = store.Open(ctx, path)
	if err != nil {
		t.Fatalf("reopening with two look-alike older accounts: %v", err)
	}
	defer db.Close()
	if got := db.QueryString(t, `SELECT username_key FROM learners WHERE username = 'Bob'`); got != "bob" {
		t.Errorf("Bob's key = %q, want bob", got)
	}
	if got := db.QueryString(t, `SELECT username_key FROM learners WHERE username = 'Воb'`); got != "<null>" {
		t.Errorf("the second look-alike's key = %q, want none", got)
	}
	if _, err := store.NewLearnerService(db).CreateAccount(ctx, "BOB", "a less common passphrase", examsim.RoleLearner); examsim.ErrorCode(err) != examsim.ECONFLICT {
		t.Errorf("a new BOB beside the older Bob: %v, want a conflict", err)
	}
}

// TestUsernameKeysFollowTheFoldVersion: keys saved under an older NameKey
// are recomputed when the database is opened by a newer one, so a table
// change reaches older accounts: "AIice" made before capital I was folded
// like l is Alice's look-alike afterwards.
func TestUsernameKeysFollowTheFoldVersion(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.NewLearnerService(db).CreateAccount(ctx, "AIice", "a less common passphrase", examsim.RoleLearner); err != nil {
		t.Fatal(err)
	}
	// As the first NameKey saved it.
	db.ExecSQL(t, `UPDATE learners SET username_key = 'aiice-v1'`)
	db.ExecSQL(t, `UPDATE name_key_version SET version = 1`)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db, err = store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got, want := db.QueryString(t, `SELECT username_key FROM learners WHERE username = 'AIice'`), namekey.Of("AIice"); got != want {
		t.Errorf("AIice's key after reopening = %q, want %q", got, want)
	}
	if got := db.QueryString(t, `SELECT CAST(version AS TEXT) FROM name_key_version`); got != fmt.Sprint(namekey.Version) {
		t.Errorf("fold version = %s, want %d", got, namekey.Version)
	}
	if _, err := store.NewLearnerService(db).CreateAccount(ctx, "Alice", "a less common passphrase", examsim.RoleLearner); examsim.ErrorCode(err) != examsim.ECONFLICT {
		t.Errorf("Alice beside the older AIice: %v, want a conflict", err)
	}
}
