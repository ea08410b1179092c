package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"errors"
	"time"

	"github.com/examsim/examsim"
)

// touchEvery is how stale a session's last-seen time may get before a
// request writes it again: timeouts are days long, so a write per page view
// would cost much and tell nothing.
const touchEvery = 5 * time.Minute

// SessionService is the SQL implementation (SQLite or PostgreSQL) of examsim.SessionService.
type SessionService struct{ db *DB }

// NewSessionService returns a SessionService on db.
func NewSessionService(db *DB) *SessionService { return &SessionService{db: db} }

var _ examsim.SessionService = (*SessionService)(nil)

// sessionTime formats times the sessions table compares as text: UTC to the
// second, so that text order is time order.
func sessionTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// hashToken is what the table keeps of a token. Tokens are 256 random bits,
// so a fast hash is enough: there is nothing to guess.
func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// expiry is when a session times out if it is not used again after seen.
func expiry(l *examsim.Learner, created, seen time.Time) time.Time {
	idle := seen.Add(examsim.SessionIdle(l))
	if abs := created.Add(examsim.SessionLifetime); abs.Before(idle) {
		return abs
	}
	return idle
}

func (s *SessionService) CreateSession(ctx context.Context, learnerID int64, now time.Time) (string, error) {
	l, err := NewLearnerService(s.db).FindLearner(ctx, learnerID)
	if err != nil {
		return "", err
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	// Timed-out sessions go as new ones come, so the table never grows
	// beyond the sessions that could still be used.
	if _, err := s.db.db.ExecContext(ctx, `DELETE FROM sessions WHERE expires_at <= ?`, sessionTime(now)); err != nil {
		return "", dbError(err)
	}
	_, err = s.db.db.ExecContext(ctx, `INSERT INTO sessions (token_hash, learner_id, created_at, last_seen_at, expires_at)
		VALUES (?, ?, ?, ?, ?)`, hashToken(token), learnerID, sessionTime(now), sessionTime(now), sessionTime(expiry(l, now, now)))
	if err != nil {
		return "", dbError(err)
	}
	return token, nil
}

func (s *SessionService) ResumeSession(ctx context.Context, token string, now time.Time) (*examsim.Learner, error) {
	notFound := examsim.E(examsim.ENOTFOUND, "error.learner_not_found")
	hash := hashToken(token)
	var l examsim.Learner
	var username sql.NullString
	var learnerCreated, created, seen string
	err := s.db.db.QueryRowContext(ctx, `SELECT l.id, l.username, l.role, l.created_at, s.created_at, s.last_seen_at
		FROM sessions s JOIN learners l ON l.id = s.learner_id WHERE s.token_hash = ?`, hash).
		Scan(&l.ID, &username, &l.Role, &learnerCreated, &created, &seen)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound
	}
	if err != nil {
		return nil, dbError(err)
	}
	l.Username = username.String
	l.CreatedAt, _ = time.Parse(time.RFC3339, learnerCreated)
	createdAt, err1 := time.Parse(time.RFC3339, created)
	seenAt, err2 := time.Parse(time.RFC3339, seen)
	if err1 != nil || err2 != nil || !now.Before(expiry(&l, createdAt, seenAt)) {
		// Timed out (or unreadable): gone for good, whatever the clock says later.
		_ = s.EndSession(ctx, token)
		return nil, notFound
	}
	if now.Sub(seenAt) >= touchEvery {
		// Best effort: a database that is full or read-only must not log
		// everyone out; the session simply looks idle a little longer.
		_, _ = s.db.db.ExecContext(ctx, `UPDATE sessions SET last_seen_at = ?, expires_at = ? WHERE token_hash = ?`,
			sessionTime(now), sessionTime(expiry(&l, createdAt, now)), hash)
	}
	return &l, nil
}

func (s *SessionService) EndSession(ctx context.Context, token string) error {
	_, err := s.db.db.ExecContext(ctx, `DELETE FROM sessions WHERE token_hash = ?`, hashToken(token))
	return dbError(err)
}

func (s *SessionService) EndLearnerSessions(ctx context.Context, learnerID int64) error {
	_, err := s.db.db.ExecContext(ctx, `DELETE FROM sessions WHERE learner_id = ?`, learnerID)
	return dbError(err)
}
