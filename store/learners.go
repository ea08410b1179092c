package store

import (
	"context"
	"database/sql"
	"errors"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/namekey"
)

// Password and username rules, checked before anything is stored.
const (
	MinPassword = 8
	MaxPassword = 72 // bytes, not characters: bcrypt reads no further
)

// usernamePattern: letters may carry combining marks (Thai vowels and tones,
// decomposed Vietnamese), as nicknames do; a mark cannot come first.
var usernamePattern = regexp.MustCompile(`^[\p{L}\p{N}_.-][\p{L}\p{M}\p{N}_.-]{2,31}$`)

// LearnerService is the SQL implementation (SQLite or PostgreSQL) of examsim.LearnerService.
type LearnerService struct{ db *DB }

// NewLearnerService returns a LearnerService on db.
func NewLearnerService(db *DB) *LearnerService { return &LearnerService{db: db} }

var _ examsim.LearnerService = (*LearnerService)(nil)

func (s *LearnerService) CreateAnonymous(ctx context.Context) (*examsim.Learner, error) {
	now := s.db.now()
	var id int64
	err := s.db.db.QueryRowContext(ctx, `INSERT INTO learners (role, created_at) VALUES ('learner', ?) RETURNING id`, now.Format(time.RFC3339)).Scan(&id)
	if err != nil {
		return nil, dbError(err)
	}
	return &examsim.Learner{ID: id, Role: examsim.RoleLearner, CreatedAt: now}, nil
}

func (s *LearnerService) FindLearner(ctx context.Context, id int64) (*examsim.Learner, error) {
	return s.scanOne(ctx, `WHERE id = ?`, id)
}

func (s *LearnerService) scanOne(ctx context.Context, where string, arg any) (*examsim.Learner, error) {
	var l examsim.Learner
	var username sql.NullString
	var created string
	err := s.db.db.QueryRowContext(ctx, `SELECT id, username, role, created_at FROM learners `+where, arg).
		Scan(&l.ID, &username, &l.Role, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, examsim.E(examsim.ENOTFOUND, "error.learner_not_found")
	}
	if err != nil {
		return nil, dbError(err)
	}
	l.Username = username.String
	l.CreatedAt, _ = time.Parse(time.RFC3339, created)
	return &l, nil
}

// ValidateCredentials checks a username and password against the rules:
// the username's pattern, the password's length, and that the password is
// not one of the most common ones.
func ValidateCredentials(username, password string) error {
	if !usernamePattern.MatchString(username) {
		return examsim.E(examsim.EINVALID, "error.username_format")
	}
	if utf8.RuneCountInString(password) < MinPassword {
		return examsim.E(examsim.EINVALID, "error.password_too_short", "Min", MinPassword)
	}
	// The limit is bcrypt's, in bytes: a Thai letter takes three, so the
	// message says bytes and how many this password takes.
	if len(password) > MaxPassword {
		return examsim.E(examsim.EINVALID, "error.password_too_long", "Max", MaxPassword, "Bytes", len(password))
	}
	if CommonPassword(password) {
		return examsim.E(examsim.EINVALID, "security.password_common")
	}
	return nil
}

func (s *LearnerService) Register(ctx context.Context, id int64, username, password string) (*examsim.Learner, error) {
	username = strings.TrimSpace(username)
	if err := ValidateCredentials(username, password); err != nil {
		return nil, err
	}
	hash, err := s.db.passwords.hash(password)
	if err != nil {
		return nil, err
	}
	res, err := s.db.db.ExecContext(ctx,
		`UPDATE learners SET username = ?, username_key = ?, password_hash = ? WHERE id = ? AND username IS NULL`,
		username, namekey.Of(username), hash, id)
	if err != nil {
		return nil, dbError(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, examsim.E(examsim.ECONFLICT, "error.already_registered")
	}
	return s.FindLearner(ctx, id)
}

// Authenticate returns the learner with these credentials. A wrong username
// and a wrong password fail alike, so neither can be probed.
func (s *LearnerService) Authenticate(ctx context.Context, username, password string) (*examsim.Learner, error) {
	var id int64
	var hash string
	err := s.db.db.QueryRowContext(ctx, `SELECT id, password_hash FROM learners WHERE username = ? AND password_hash IS NOT NULL`,
		strings.TrimSpace(username)).Scan(&id, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		s.db.passwords.matches("", password) // the same time as a real check
		return nil, examsim.E(examsim.EUNAUTHORIZED, "error.bad_credentials")
	}
	if err != nil {
		return nil, dbError(err)
	}
	if !s.db.passwords.matches(hash, password) {
		return nil, examsim.E(examsim.EUNAUTHORIZED, "error.bad_credentials")
	}
	return s.FindLearner(ctx, id)
}

// MergeAnonymous moves everything an anonymous learner did to the account
// they just logged in to, and removes the anonymous learner.
func (s *LearnerService) MergeAnonymous(ctx context.Context, anonID, intoID int64) error {
	if anonID == intoID {
		return nil
	}
	tx, err := s.db.db.BeginTx(ctx, nil)
	if err != nil {
		return dbError(err)
	}
	defer tx.Rollback()
	var username sql.NullString
	if err := tx.QueryRowContext(ctx, `SELECT username FROM learners WHERE id = ?`, anonID).Scan(&username); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		return dbError(err)
	}
	if username.Valid {
		return nil // not anonymous: never merge one account into another
	}
	if _, err := tx.ExecContext(ctx, `UPDATE attempts SET learner_id = ? WHERE learner_id = ?`, intoID, anonID); err != nil {
		return dbError(err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE predictions SET learner_id = ? WHERE learner_id = ?`, intoID, anonID); err != nil {
		return dbError(err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE score_flags SET learner_id = ? WHERE learner_id = ?`, intoID, anonID); err != nil {
		return dbError(err)
	}
	// Exams come along; a review card the account already has for the same
	// question wins, and the anonymous one goes with the anonymous learner.
	if _, err := tx.ExecContext(ctx, `UPDATE exams SET learner_id = ? WHERE learner_id = ?`, intoID, anonID); err != nil {
		return dbError(err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE review_cards SET learner_id = ? WHERE learner_id = ?
		AND question_id NOT IN (SELECT question_id FROM review_cards WHERE learner_id = ?)`, intoID, anonID, intoID); err != nil {
		return dbError(err)
	}
	// So do review settings, unless the account has its own.
	if _, err := tx.ExecContext(ctx, `UPDATE review_settings SET learner_id = ? WHERE learner_id = ?
		AND NOT EXISTS (SELECT 1 FROM review_settings WHERE learner_id = ?)`, intoID, anonID, intoID); err != nil {
		return dbError(err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM learners WHERE id = ?`, anonID); err != nil {
		return dbError(err)
	}
	return dbError(tx.Commit())
}

// DeleteLearner deletes a learner. Their attempts, exams and review cards go
// with them (ON DELETE CASCADE); anything that only points at them, such as
// a classroom player, is unlinked.
func (s *LearnerService) DeleteLearner(ctx context.Context, id int64) error {
	res, err := s.db.db.ExecContext(ctx, `DELETE FROM learners WHERE id = ?`, id)
	if err != nil {
		return dbError(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return examsim.E(examsim.ENOTFOUND, "error.learner_not_found")
	}
	return nil
}

// dbError turns driver errors into application errors: a taken unique value
// is a conflict, a busy or full database is worth a retry later.
func dbError(err error) error {
	if err == nil {
		return nil
	}
	if kind, ok := kindOf(err); ok {
		switch kind {
		case kindUnique:
			return examsim.E(examsim.ECONFLICT, "error.username_taken")
		case kindBusy:
			return &examsim.Error{Code: examsim.EUNAVAILABLE, MessageID: "error.unavailable", Detail: err.Error()}
		case kindFull, kindReadOnly, kindIO:
			return storageError(kind, err)
		}
	}
	return &examsim.Error{Code: examsim.EINTERNAL, MessageID: "error.internal", Detail: err.Error()}
}
