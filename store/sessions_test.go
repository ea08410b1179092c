package store_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
)

// resumes reports whether token still names learner id at now.
func resumes(t *testing.T, ss *store.SessionService, token string, id int64, now time.Time) bool {
	t.Helper()
	l, err := ss.ResumeSession(context.Background(), token, now)
	if err != nil {
		if examsim.ErrorCode(err) != examsim.ENOTFOUND {
			t.Fatalf("resume: %v", err)
		}
		return false
	}
	if l.ID != id {
		t.Fatalf("session of learner %d resumed as %d", id, l.ID)
	}
	return true
}

func TestSessionKeepsOnlyTheTokensHash(t *testing.T) {
	eachDialect(t, testSessionKeepsOnlyTheTokensHash)
}

func testSessionKeepsOnlyTheTokensHash(t *testing.T, open opener) {
	ctx := context.Background()
	db := open(t)
	ls, ss := store.NewLearnerService(db), store.NewSessionService(db)
	anon, _ := ls.CreateAnonymous(ctx)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	token, err := ss.CreateSession(ctx, anon.ID, now)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := ss.CreateSession(ctx, anon.ID, now)
	if len(token) != 43 || token == other {
		t.Fatalf("tokens %q and %q: want two different 256-bit tokens", token, other)
	}
	rows := db.SessionColumns(t)
	if len(rows) != 2 {
		t.Fatalf("%d rows", len(rows))
	}
	sum := sha256.Sum256([]byte(token))
	if !strings.EqualFold(rows[0][0], hex.EncodeToString(sum[:])) {
		t.Errorf("stored %s, want the SHA-256 of the token", rows[0][0])
	}
	for _, col := range rows[0] {
		if strings.Contains(col, token) || strings.Contains(strings.ToLower(col), strings.ToLower(hex.EncodeToString([]byte(token)))) {
			t.Errorf("the token itself is stored: %q", col)
		}
	}
	if !resumes(t, ss, token, anon.ID, now) {
		t.Fatal("a new session does not resume")
	}
	for _, bad := range []string{"", "x", token[:42], token + "A", strings.ToUpper(token)} {
		if resumes(t, ss, bad, anon.ID, now) {
			t.Errorf("token %q resumed a session", bad)
		}
	}
}

func TestSessionTimeouts(t *testing.T) { eachDialect(t, testSessionTimeouts) }

func testSessionTimeouts(t *testing.T, open opener) {
	ctx := context.Background()
	db := open(t)
	ls, ss := store.NewLearnerService(db), store.NewSessionService(db)
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour

	anon, _ := ls.CreateAnonymous(ctx)
	acct, _ := ls.CreateAnonymous(ctx)
	if _, err := ls.Register(ctx, acct.ID, "ola", "a less common passphrase"); err != nil {
		t.Fatal(err)
	}
	anonTok, _ := ss.CreateSession(ctx, anon.ID, start)
	acctTok, _ := ss.CreateSession(ctx, acct.ID, start)

	// Use keeps a session alive: the idle timeout counts from the last use.
	if !resumes(t, ss, anonTok, anon.ID, start.Add(29*day)) || !resumes(t, ss, anonTok, anon.ID, start.Add(58*day)) {
		t.Fatal("an anonymous session used every 29 days timed out")
	}
	if !resumes(t, ss, acctTok, acct.ID, start.Add(6*day)) || !resumes(t, ss, acctTok, acct.ID, start.Add(12*day)) {
		t.Fatal("an account's session used every 6 days timed out")
	}
	// Idle too long: an account's sessions idle out after 7 days, an
	// anonymous learner's after 30.
	if resumes(t, ss, acctTok, acct.ID, start.Add(12*day+examsim.AccountSessionIdle)) {
		t.Error("an account's session outlived its idle timeout")
	}
	if resumes(t, ss, anonTok, anon.ID, start.Add(58*day+examsim.AnonymousSessionIdle)) {
		t.Error("an anonymous session outlived its idle timeout")
	}
	// A timed-out session is gone for good, even if the clock goes back.
	if resumes(t, ss, acctTok, acct.ID, start.Add(13*day)) {
		t.Error("a timed-out session came back")
	}

	// However often it is used, a session ends at the absolute timeout.
	acctTok, _ = ss.CreateSession(ctx, acct.ID, start)
	at := start
	for at.Add(6 * day).Before(start.Add(examsim.SessionLifetime)) {
		at = at.Add(6 * day)
		if !resumes(t, ss, acctTok, acct.ID, at) {
			t.Fatalf("a session in use ended after %v", at.Sub(start))
		}
	}
	if resumes(t, ss, acctTok, acct.ID, start.Add(examsim.SessionLifetime)) {
		t.Error("a session in use outlived the absolute timeout")
	}
}

func TestSessionLastSeenIsWrittenSparingly(t *testing.T) {
	eachDialect(t, testSessionLastSeenIsWrittenSparingly)
}

func testSessionLastSeenIsWrittenSparingly(t *testing.T, open opener) {
	ctx := context.Background()
	db := open(t)
	ls, ss := store.NewLearnerService(db), store.NewSessionService(db)
	anon, _ := ls.CreateAnonymous(ctx)
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tok, _ := ss.CreateSession(ctx, anon.ID, start)
	resumes(t, ss, tok, anon.ID, start.Add(time.Minute))
	if seen := db.SessionColumns(t)[0][3]; seen != "2026-03-01T12:00:00Z" {
		t.Errorf("a use a minute later was written: last seen %s", seen)
	}
	resumes(t, ss, tok, anon.ID, start.Add(time.Hour))
	if seen := db.SessionColumns(t)[0][3]; seen != "2026-03-01T13:00:00Z" {
		t.Errorf("a use an hour later was not written: last seen %s", seen)
	}
}

func TestEndingSessions(t *testing.T) { eachDialect(t, testEndingSessions) }

func testEndingSessions(t *testing.T, open opener) {
	ctx := context.Background()
	db := open(t)
	ls, ss := store.NewLearnerService(db), store.NewSessionService(db)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	a, _ := ls.CreateAnonymous(ctx)
	b, _ := ls.CreateAnonymous(ctx)
	a1, _ := ss.CreateSession(ctx, a.ID, now)
	a2, _ := ss.CreateSession(ctx, a.ID, now)
	b1, _ := ss.CreateSession(ctx, b.ID, now)

	if err := ss.EndSession(ctx, a1); err != nil {
		t.Fatal(err)
	}
	if err := ss.EndSession(ctx, "never issued"); err != nil {
		t.Errorf("ending an unknown session: %v", err)
	}
	if resumes(t, ss, a1, a.ID, now) || !resumes(t, ss, a2, a.ID, now) {
		t.Fatal("EndSession ended the wrong session")
	}
	if err := ss.EndLearnerSessions(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if resumes(t, ss, a2, a.ID, now) || !resumes(t, ss, b1, b.ID, now) {
		t.Fatal("EndLearnerSessions ended the wrong sessions")
	}

	// A learner's sessions go with the learner: deleted, or merged into
	// the account they logged in to.
	acct, _ := ls.CreateAnonymous(ctx)
	ls.Register(ctx, acct.ID, "kasia", "a less common passphrase")
	if err := ls.MergeAnonymous(ctx, b.ID, acct.ID); err != nil {
		t.Fatal(err)
	}
	if resumes(t, ss, b1, b.ID, now) {
		t.Error("a merged anonymous learner's session still works")
	}
	c1, _ := ss.CreateSession(ctx, acct.ID, now)
	ls.DeleteLearner(ctx, acct.ID)
	if resumes(t, ss, c1, acct.ID, now) || len(db.SessionColumns(t)) != 0 {
		t.Errorf("sessions left after every learner went: %v", db.SessionColumns(t))
	}
	if _, err := ss.CreateSession(ctx, acct.ID, now); examsim.ErrorCode(err) != examsim.ENOTFOUND {
		t.Errorf("a session for a deleted learner: %v", err)
	}
}

func TestTimedOutSessionsArePruned(t *testing.T) { eachDialect(t, testTimedOutSessionsArePruned) }

func testTimedOutSessionsArePruned(t *testing.T, open opener) {
	ctx := context.Background()
	db := open(t)
	ls, ss := store.NewLearnerService(db), store.NewSessionService(db)
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i := 0; i < 3; i++ {
		l, _ := ls.CreateAnonymous(ctx)
		ss.CreateSession(ctx, l.ID, start)
	}
	l, _ := ls.CreateAnonymous(ctx)
	ss.CreateSession(ctx, l.ID, start.Add(examsim.AnonymousSessionIdle))
	if n := len(db.SessionColumns(t)); n != 1 {
		t.Errorf("%d sessions kept, want only the live one", n)
	}
}

func TestCommonPasswordsAreRefused(t *testing.T) { eachDialect(t, testCommonPasswordsAreRefused) }

func testCommonPasswordsAreRefused(t *testing.T, open opener) {
	if n := store.CommonPasswordCount(); n != 10000 {
		t.Errorf("the list has %d passwords, want 10,000", n)
	}
	for _, pw := range []string{"password1", "PASSWORD1", "12345678", "iloveyou", "qwertyuiop", " baseball1 "} {
		err := store.ValidateCredentials("minh", pw)
		var e *examsim.Error
		if examsim.ErrorCode(err) != examsim.EINVALID || !errors.As(err, &e) || e.MessageID != "security.password_common" {
			t.Errorf("%q: %v, want it refused as common", pw, err)
		}
	}
	for _, pw := range []string{"correct horse battery", "długie hasło", "mật khẩu dài", "รหัสผ่านยาวพอ"} {
		if err := store.ValidateCredentials("minh", pw); err != nil {
			t.Errorf("%q: %v", pw, err)
		}
	}
	// The check guards every way an account gets a password.
	ctx := context.Background()
	ls := store.NewLearnerService(open(t))
	anon, _ := ls.CreateAnonymous(ctx)
	if _, err := ls.Register(ctx, anon.ID, "minh", "password1"); examsim.ErrorCode(err) != examsim.EINVALID {
		t.Errorf("register with a common password: %v", err)
	}
	if _, err := ls.CreateAccount(ctx, "lan", "football1", examsim.RoleInstructor); examsim.ErrorCode(err) != examsim.EINVALID {
		t.Errorf("user add with a common password: %v", err)
	}
}
