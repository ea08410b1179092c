package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"golang.org/x/crypto/bcrypt"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/pgtest"
	"github.com/examsim/examsim/store"
)

// MustOpenDB opens a fresh, migrated database in a temporary file (so WAL and
// real file locking are exercised) and closes it when the test ends.
func MustOpenDB(tb testing.TB) *store.DB {
	tb.Helper()
	db, err := store.Open(context.Background(), filepath.Join(tb.TempDir(), "test.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	if err := db.SetPasswordCost(bcrypt.MinCost); err != nil { // tests need no slow hashes
		tb.Fatal(err)
	}
	return db
}

func TestMain(m *testing.M) { pgtest.Main(m) }

// opener opens a fresh, migrated database of one dialect for a test.
type opener func(testing.TB) *store.DB

// eachDialect runs a store test on each database examsim stores in: the
// same test, the same assertions, on SQLite and on PostgreSQL.
func eachDialect(t *testing.T, test func(t *testing.T, open opener)) {
	for _, d := range []struct {
		name string
		open opener
	}{{"sqlite", MustOpenDB}, {"postgres", MustOpenPostgres}} {
		t.Run(d.name, func(t *testing.T) { test(t, d.open) })
	}
}

// MustOpenPostgres opens a fresh, migrated database on the test cluster
// (pgtest) and closes it when the test ends.
func MustOpenPostgres(tb testing.TB) *store.DB {
	tb.Helper()
	db, err := store.Open(context.Background(), pgtest.URL(tb))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	if err := db.SetPasswordCost(bcrypt.MinCost); err != nil {
		tb.Fatal(err)
	}
	return db
}

func TestOpenIsIdempotent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "twice.db")
	for i := 0; i < 2; i++ {
		db, err := store.Open(context.Background(), path)
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		db.Close()
	}
}

func TestOpenInMemory(t *testing.T) {
	db, err := store.Open(context.Background(), ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := store.NewLearnerService(db).CreateAnonymous(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestSecretIsStable(t *testing.T) { eachDialect(t, testSecretIsStable) }

func testSecretIsStable(t *testing.T, open opener) {
	db := open(t)
	a, err := db.Secret(context.Background(), "cookie")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := db.Secret(context.Background(), "cookie")
	if len(a) != 32 || string(a) != string(b) {
		t.Fatalf("secret not stable: %x vs %x", a, b)
	}
	other, _ := db.Secret(context.Background(), "other")
	if string(other) == string(a) {
		t.Fatal("two secrets are equal")
	}
}

func TestRegisterAndAuthenticate(t *testing.T) { eachDialect(t, testRegisterAndAuthenticate) }

func testRegisterAndAuthenticate(t *testing.T, open opener) {
	ctx := context.Background()
	ls := store.NewLearnerService(open(t))
	anon, err := ls.CreateAnonymous(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !anon.Anonymous() {
		t.Fatal("a new learner should be anonymous")
	}
	l, err := ls.Register(ctx, anon.ID, "minh", "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	if l.ID != anon.ID || l.Username != "minh" {
		t.Fatalf("registered learner = %+v", l)
	}
	got, err := ls.Authenticate(ctx, "MINH", "correct horse")
	if err != nil || got.ID != anon.ID {
		t.Fatalf("authenticate: %v, %+v", err, got)
	}

	tests := []struct {
		name, user, pass string
		want             examsim.Code
	}{
		{"wrong password", "minh", "wrong horse", examsim.EUNAUTHORIZED},
		{"unknown user", "nobody", "correct horse", examsim.EUNAUTHORIZED},
	}
	for _, tt := range tests {
		if _, err := ls.Authenticate(ctx, tt.user, tt.pass); examsim.ErrorCode(err) != tt.want {
			t.Errorf("%s: code = %v, want %v", tt.name, examsim.ErrorCode(err), tt.want)
		}
	}

	other, _ := ls.CreateAnonymous(ctx)
	regTests := []struct {
		name, user, pass string
		id               int64
		want             examsim.Code
	}{
		{"taken username, any case", "Minh", "another pass", other.ID, examsim.ECONFLICT},
		{"short password", "lan", "short", other.ID, examsim.EINVALID},
		{"bad username", "a b", "long enough", other.ID, examsim.EINVALID},
		{"already registered", "minh2", "long enough", anon.ID, examsim.ECONFLICT},
	}
	for _, tt := range regTests {
		if _, err := ls.Register(ctx, tt.id, tt.user, tt.pass); examsim.ErrorCode(err) != tt.want {
			t.Errorf("%s: code = %v (%v), want %v", tt.name, examsim.ErrorCode(err), err, tt.want)
		}
	}
}

func TestAttemptsRoundTripAndMerge(t *testing.T) { eachDialect(t, testAttemptsRoundTripAndMerge) }

func testAttemptsRoundTripAndMerge(t *testing.T, open opener) {
	ctx := context.Background()
	db := open(t)
	ls, as := store.NewLearnerService(db), store.NewAttemptService(db)
	anon, _ := ls.CreateAnonymous(ctx)
	want := &examsim.Attempt{LearnerID: anon.ID, Answer: examsim.Answer{QuestionID: "malformed-order-id", Lang: examsim.Thai, Choice: "D", Correct: true, Explanation: "เป็น validation error ไม่ควร retry ซ้ำ", Verdict: examsim.Verdict{Band: 3, Concepts: []examsim.ConceptHit{{ID: "validation", Hit: true}, {ID: "fix-input", Hit: false}}, Misconceptions: []string{}, RubricVersion: 2}}}
	if err := as.CreateAttempt(ctx, want); err != nil {
		t.Fatal(err)
	}
	got, err := as.FindAttempt(ctx, want.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateApproxTime(0)); diff != "" {
		t.Errorf("attempt round trip (-want +got):\n%s", diff)
	}
	if _, err := as.FindAttempt(ctx, 9999); examsim.ErrorCode(err) != examsim.ENOTFOUND {
		t.Errorf("missing attempt: %v", err)
	}
	// The whole verdict round-trips: confidence and evidence with the band,
	// and a pending score until it is scored.
	whole := &examsim.Attempt{LearnerID: anon.ID, Answer: examsim.Answer{QuestionID: "malformed-order-id", Lang: examsim.English, Choice: "D", Correct: true, Explanation: "validation error, fix the id", Verdict: examsim.Verdict{Band: 2, RubricVersion: 2,
		Concepts: []examsim.ConceptHit{{ID: "validation", Hit: true}}, Misconceptions: []string{},
		Evidence: &examsim.Evidence{Confidence: 0.85, Concepts: map[string][]examsim.Span{"validation": {{Start: 0, End: 16}}}}}}}
	pending := &examsim.Attempt{LearnerID: anon.ID, Answer: examsim.Answer{QuestionID: "malformed-order-id", Lang: examsim.English, Choice: "D", Correct: true, Explanation: "", Verdict: examsim.Verdict{RubricVersion: 2, Pending: true, Concepts: []examsim.ConceptHit{}, Misconceptions: []string{}}}}
	for _, a := range []*examsim.Attempt{whole, pending} {
		if err := as.CreateAttempt(ctx, a); err != nil {
			t.Fatal(err)
		}
		got, err := as.FindAttempt(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(a, got, cmpopts.EquateApproxTime(0), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("whole verdict round trip (-want +got):\n%s", diff)
		}
	}
	pending.SetScored(examsim.Verdict{Band: 1, RubricVersion: 2, Evidence: &examsim.Evidence{Confidence: 0.4}})
	if err := as.UpdateScore(ctx, pending); err != nil {
		t.Fatal(err)
	}
	if got, _ := as.FindAttempt(ctx, pending.ID); got.Pending || got.Band != 1 || got.Evidence == nil || got.Evidence.Confidence != 0.4 {
		t.Errorf("a pending score once scored reads back as %+v", got.Verdict)
	}
	// A score column written before the band was the verdict (band 3 beside
	// 38) is never read: the score shown is the band's.
	db.ExecSQL(t, `UPDATE attempts SET band = 3, score = 38 WHERE id = ?`, whole.ID)
	if got, _ := as.FindAttempt(ctx, whole.ID); got.Score() != examsim.BandScore(3) {
		t.Errorf("a band-3 attempt with a stale score column shows %d, want %d", got.Score(), examsim.BandScore(3))
	}
	for _, a := range []*examsim.Attempt{whole, pending} {
		db.ExecSQL(t, `DELETE FROM attempts WHERE id = ?`, a.ID) // the rest of the test counts one attempt
	}

	// Logging in to an account brings the anonymous history along.
	acct, _ := ls.CreateAnonymous(ctx)
	ls.Register(ctx, acct.ID, "ola", "long enough")
	if err := ls.MergeAnonymous(ctx, anon.ID, acct.ID); err != nil {
		t.Fatal(err)
	}
	list, err := as.ListAttempts(ctx, acct.ID, 10)
	if err != nil || len(list) != 1 || list[0].ID != want.ID {
		t.Fatalf("after merge: %v, %v", err, list)
	}
	if _, err := ls.FindLearner(ctx, anon.ID); examsim.ErrorCode(err) != examsim.ENOTFOUND {
		t.Errorf("anonymous learner should be gone after merge: %v", err)
	}
	// An account is never merged into another.
	other, _ := ls.CreateAnonymous(ctx)
	ls.Register(ctx, other.ID, "kasia", "long enough")
	ls.MergeAnonymous(ctx, acct.ID, other.ID)
	if list, _ := as.ListAttempts(ctx, acct.ID, 10); len(list) != 1 {
		t.Errorf("an account's attempts moved to another account")
	}
}
