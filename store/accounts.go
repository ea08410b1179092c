package store

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/namekey"
)

var _ examsim.AccountService = (*LearnerService)(nil)

// CreateAccount registers a new account directly, for `examsim user add`.
func (s *LearnerService) CreateAccount(ctx context.Context, username, password string, role examsim.Role) (*examsim.Learner, error) {
	username = strings.TrimSpace(username)
	if err := ValidateCredentials(username, password); err != nil {
		return nil, err
	}
	if _, ok := examsim.ParseRole(string(role)); !ok {
		return nil, examsim.E(examsim.EINVALID, "admin.error_bad_role", "Role", string(role))
	}
	hash, err := s.db.passwords.hash(password)
	if err != nil {
		return nil, err
	}
	var id int64
	err = s.db.db.QueryRowContext(ctx, `INSERT INTO learners (username, username_key, password_hash, role, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id`,
		username, namekey.Of(username), hash, string(role), s.db.now().Format(time.RFC3339)).Scan(&id)
	if err != nil {
		return nil, dbError(err)
	}
	return s.FindLearner(ctx, id)
}

// SetRole changes an account's role. The last admin cannot lose the role,
// or nobody could hand it out again.
func (s *LearnerService) SetRole(ctx context.Context, id int64, role examsim.Role) error {
	if _, ok := examsim.ParseRole(string(role)); !ok {
		return examsim.E(examsim.EINVALID, "admin.error_bad_role", "Role", string(role))
	}
	tx, err := s.db.db.BeginTx(ctx, nil)
	if err != nil {
		return dbError(err)
	}
	defer tx.Rollback()
	var current string
	var username sql.NullString
	if err := tx.QueryRowContext(ctx, `SELECT role, username FROM learners WHERE id = ?`, id).Scan(&current, &username); err != nil {
		if err == sql.ErrNoRows {
			return examsim.E(examsim.ENOTFOUND, "error.learner_not_found")
		}
		return dbError(err)
	}
	if !username.Valid {
		return examsim.E(examsim.ECONFLICT, "admin.error_anonymous")
	}
	if examsim.Role(current) == examsim.RoleAdmin && role != examsim.RoleAdmin {
		var admins int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM learners WHERE role = 'admin'`).Scan(&admins); err != nil {
			return dbError(err)
		}
		if admins <= 1 {
			return examsim.E(examsim.ECONFLICT, "admin.error_last_admin")
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE learners SET role = ? WHERE id = ?`, string(role), id); err != nil {
		return dbError(err)
	}
	return dbError(tx.Commit())
}

// ListAccounts returns every registered learner, by username.
func (s *LearnerService) ListAccounts(ctx context.Context) ([]*examsim.Learner, error) {
	rows, err := s.db.db.QueryContext(ctx, `SELECT id, username, role, created_at FROM learners
		WHERE username IS NOT NULL ORDER BY username COLLATE NOCASE LIMIT 5000`)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var out []*examsim.Learner
	for rows.Next() {
		var l examsim.Learner
		var created string
		if err := rows.Scan(&l.ID, &l.Username, &l.Role, &created); err != nil {
			return nil, dbError(err)
		}
		l.CreatedAt, _ = time.Parse(time.RFC3339, created)
		out = append(out, &l)
	}
	return out, dbError(rows.Err())
}
