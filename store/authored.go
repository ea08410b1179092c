package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/jsonslice"
	"github.com/mattn/go-sqlite3"
)

// AuthoredQuestionService is the SQLite implementation of
// examsim.AuthoredQuestionService (migration 016).
type AuthoredQuestionService struct{ db *DB }

// NewAuthoredQuestionService returns an AuthoredQuestionService on db.
func NewAuthoredQuestionService(db *DB) *AuthoredQuestionService {
	return &AuthoredQuestionService{db: db}
}

var _ examsim.AuthoredQuestionService = (*AuthoredQuestionService)(nil)

// authoredBody is what a version stores of a question: everything but who
// owns it and which version it is, which the rows say.
type authoredBody struct {
	Topic        string                                 `json:"topic"`
	Concepts     []string                               `json:"concepts"`
	Difficulty   string                                 `json:"difficulty"`
	Answer       string                                 `json:"answer"`
	LessonSource string                                 `json:"lesson_source,omitempty"`
	Texts        map[examsim.Lang]*examsim.AuthoredText `json:"texts"`
	Rubric       *examsim.AuthoredRubric                `json:"rubric,omitempty"`
}

func encodeAuthored(q *examsim.AuthoredQuestion) (body, langs string) {
	b, _ := json.Marshal(authoredBody{Topic: q.Topic, Concepts: jsonslice.NonNil(q.Concepts), Difficulty: q.Difficulty,
		Answer: q.Answer, LessonSource: q.LessonSource, Texts: q.Texts, Rubric: q.Rubric})
	var ls []string
	for _, l := range q.Langs() {
		ls = append(ls, string(l))
	}
	return string(b), strings.Join(ls, " ")
}

func decodeAuthored(q *examsim.AuthoredQuestion, body string) error {
	var b authoredBody
	if err := json.Unmarshal([]byte(body), &b); err != nil {
		return &examsim.Error{Code: examsim.EINTERNAL, MessageID: "error.internal", Detail: "authored question " + q.ID + ": " + err.Error()}
	}
	q.Topic, q.Concepts, q.Difficulty, q.Answer = b.Topic, b.Concepts, b.Difficulty, b.Answer
	q.LessonSource, q.Texts, q.Rubric = b.LessonSource, b.Texts, b.Rubric
	return nil
}

// idTaken says whether err is the primary key of a question already in
// use: SQLite names a primary key apart from other unique keys.
func idTaken(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) && se.ExtendedCode == sqlite3.ErrConstraintPrimaryKey {
		return true
	}
	kind, _ := kindOf(err)
	return kind == kindUnique
}

func (s *AuthoredQuestionService) Create(ctx context.Context, q *examsim.AuthoredQuestion) error {
	now := s.db.now()
	q.Version, q.UpdatedAt = 1, now
	body, langs := encodeAuthored(q)
	tx, err := s.db.db.BeginTx(ctx, nil)
	if err != nil {
		return dbError(err)
	}
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, `INSERT INTO authored_questions (id, author_id, shared, version, created_at, updated_at)
		VALUES (?, ?, ?, 1, ?, ?)`, q.ID, q.AuthorID, q.Shared, fmtTime(now), fmtTime(now))
	if idTaken(err) {
		return examsim.E(examsim.ECONFLICT, "authored.error_id_taken", "ID", q.ID)
	}
	if err != nil {
		return dbError(err)
	}
	if err := insertVersion(ctx, tx, q, q.AuthorID, body, langs, now); err != nil {
		return err
	}
	return dbError(tx.Commit())
}

func insertVersion(ctx context.Context, tx *sql.Tx, q *examsim.AuthoredQuestion, editor int64, body, langs string, now time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO authored_question_versions (question_id, version, langs, body, editor_id, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, q.ID, q.Version, langs, body, editor, fmtTime(now))
	return dbError(err)
}

// Update stores q as a new version. The version check and the insert are
// one transaction, so of two editors saving from the same version one
// wins and the other is told the question changed.
func (s *AuthoredQuestionService) Update(ctx context.Context, editor int64, q *examsim.AuthoredQuestion) error {
	now := s.db.now()
	tx, err := s.db.db.BeginTx(ctx, nil)
	if err != nil {
		return dbError(err)
	}
	defer tx.Rollback()
	if _, err := ownRow(ctx, tx, editor, q.ID, q.Version); err != nil {
		return err
	}
	// The version in the WHERE makes the check hold on PostgreSQL too,
	// where a second editor's read does not wait for the first's commit:
	// its update then finds the version moved and changes nothing.
	res, err := tx.ExecContext(ctx, `UPDATE authored_questions SET version = ?, shared = ?, updated_at = ? WHERE id = ? AND version = ?`,
		q.Version+1, q.Shared, fmtTime(now), q.ID, q.Version)
	if err != nil {
		return dbError(err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return examsim.E(examsim.ECONFLICT, "authored.error_edited_meanwhile", "Version", q.Version+1)
	}
	q.Version++
	q.AuthorID, q.UpdatedAt = editor, now
	body, langs := encodeAuthored(q)
	if err := insertVersion(ctx, tx, q, editor, body, langs, now); err != nil {
		q.Version--
		return err
	}
	if err := tx.Commit(); err != nil {
		q.Version--
		return dbError(err)
	}
	return nil
}

// ownRow checks that the question exists, is not deleted and belongs to
// author, and, when version is not 0, that it is still at version; it
// returns the current version.
func ownRow(ctx context.Context, tx *sql.Tx, author int64, id string, version int) (int, error) {
	var owner sql.NullInt64
	var current int
	err := tx.QueryRowContext(ctx, `SELECT author_id, version FROM authored_questions WHERE id = ? AND deleted_at IS NULL`, id).Scan(&owner, &current)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return 0, examsim.E(examsim.ENOTFOUND, "authored.error_not_found", "ID", id)
	case err != nil:
		return 0, dbError(err)
	case owner.Int64 != author:
		return 0, examsim.E(examsim.EFORBIDDEN, "authored.error_not_author")
	case version != 0 && version != current:
		return 0, examsim.E(examsim.ECONFLICT, "authored.error_edited_meanwhile", "Version", current)
	}
	return current, nil
}

// mayView is the rule for who sees a question outside a quiz: its author,
// an admin, and the instance's instructors once it is shared. Learners see
// teacher questions only in the quizzes they play.
const mayView = `(q.author_id = ? OR ? = 'admin' OR (q.shared = 1 AND ? = 'instructor'))`

func viewArgs(v *examsim.Learner) []any { return []any{v.ID, string(v.Role), string(v.Role)} }

const authoredColumns = `q.id, q.author_id, q.shared, q.version, q.updated_at, v.body`

func scanAuthored(row interface{ Scan(...any) error }) (*examsim.AuthoredQuestion, error) {
	q := &examsim.AuthoredQuestion{}
	var author sql.NullInt64
	var updated sql.NullString
	var body string
	if err := row.Scan(&q.ID, &author, &q.Shared, &q.Version, &updated, &body); err != nil {
		return nil, err
	}
	q.AuthorID, q.UpdatedAt = author.Int64, parseTime(updated)
	return q, decodeAuthored(q, body)
}

func (s *AuthoredQuestionService) Get(ctx context.Context, viewer *examsim.Learner, id string) (*examsim.AuthoredQuestion, error) {
	args := append([]any{id}, viewArgs(viewer)...)
	q, err := scanAuthored(s.db.db.QueryRowContext(ctx, `SELECT `+authoredColumns+`
		FROM authored_questions q JOIN authored_question_versions v ON v.question_id = q.id AND v.version = q.version
		WHERE q.id = ? AND q.deleted_at IS NULL AND `+mayView, args...))
	if errors.Is(err, sql.ErrNoRows) {
		// Another teacher's unshared question is not found, not forbidden:
		// its existence is theirs too.
		return nil, examsim.E(examsim.ENOTFOUND, "authored.error_not_found", "ID", id)
	}
	if err != nil {
		return nil, dbError(err)
	}
	return q, nil
}

func (s *AuthoredQuestionService) Current(ctx context.Context, id string) (*examsim.AuthoredQuestion, error) {
	var version int
	err := s.db.db.QueryRowContext(ctx, `SELECT version FROM authored_questions WHERE id = ?`, id).Scan(&version)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, examsim.E(examsim.ENOTFOUND, "authored.error_not_found", "ID", id)
	}
	if err != nil {
		return nil, dbError(err)
	}
	return s.GetVersion(ctx, id, version)
}

func (s *AuthoredQuestionService) GetVersion(ctx context.Context, id string, version int) (*examsim.AuthoredQuestion, error) {
	q := &examsim.AuthoredQuestion{ID: id, Version: version}
	var author sql.NullInt64
	var shared bool
	var created sql.NullString
	var body string
	err := s.db.db.QueryRowContext(ctx, `SELECT q.author_id, q.shared, v.created_at, v.body
		FROM authored_question_versions v JOIN authored_questions q ON q.id = v.question_id
		WHERE v.question_id = ? AND v.version = ?`, id, version).Scan(&author, &shared, &created, &body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, examsim.E(examsim.ENOTFOUND, "authored.error_not_found", "ID", id)
	}
	if err != nil {
		return nil, dbError(err)
	}
	q.AuthorID, q.Shared, q.UpdatedAt = author.Int64, shared, parseTime(created)
	return q, decodeAuthored(q, body)
}

func (s *AuthoredQuestionService) Visible(ctx context.Context, viewer *examsim.Learner) ([]*examsim.AuthoredQuestion, error) {
	rows, err := s.db.db.QueryContext(ctx, `SELECT `+authoredColumns+`
		FROM authored_questions q JOIN authored_question_versions v ON v.question_id = q.id AND v.version = q.version
		WHERE q.deleted_at IS NULL AND `+mayView+` ORDER BY q.updated_at DESC, q.id`, viewArgs(viewer)...)
	if err != nil {
		return nil, dbError(err)
	}
	var out []*examsim.AuthoredQuestion
	for rows.Next() {
		q, err := scanAuthored(rows)
		if err != nil {
			_ = rows.Close() // the scan error is the one to report
			return nil, dbError(err)
		}
		out = append(out, q)
	}
	return out, dbError(errors.Join(rows.Err(), rows.Close()))
}

func (s *AuthoredQuestionService) SetShared(ctx context.Context, author int64, id string, shared bool) error {
	return s.ownWrite(ctx, author, id, `UPDATE authored_questions SET shared = ? WHERE id = ?`, shared, id)
}

func (s *AuthoredQuestionService) Delete(ctx context.Context, author int64, id string) error {
	return s.ownWrite(ctx, author, id, `UPDATE authored_questions SET deleted_at = ? WHERE id = ?`, fmtTime(s.db.now()), id)
}

// ownWrite runs one statement on a question of author's, in a transaction
// with the ownership check.
func (s *AuthoredQuestionService) ownWrite(ctx context.Context, author int64, id, query string, args ...any) error {
	tx, err := s.db.db.BeginTx(ctx, nil)
	if err != nil {
		return dbError(err)
	}
	defer tx.Rollback()
	if _, err := ownRow(ctx, tx, author, id, 0); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, query, args...); err != nil {
		return dbError(err)
	}
	return dbError(tx.Commit())
}

func (s *AuthoredQuestionService) Samples(ctx context.Context, id string) ([]examsim.RubricSample, error) {
	rows, err := s.db.db.QueryContext(ctx, `SELECT id, lang, text, expected FROM authored_question_samples
		WHERE question_id = ? ORDER BY position`, id)
	if err != nil {
		return nil, dbError(err)
	}
	var out []examsim.RubricSample
	for rows.Next() {
		var sm examsim.RubricSample
		var lang string
		if err := rows.Scan(&sm.ID, &lang, &sm.Text, &sm.Expected); err != nil {
			_ = rows.Close() // the scan error is the one to report
			return nil, dbError(err)
		}
		sm.Lang = examsim.Lang(lang)
		out = append(out, sm)
	}
	return out, dbError(errors.Join(rows.Err(), rows.Close()))
}

func (s *AuthoredQuestionService) SetSamples(ctx context.Context, author int64, id string, samples []examsim.RubricSample) error {
	for _, sm := range samples {
		if sm.Expected < 0 || sm.Expected > 3 {
			return examsim.E(examsim.EINVALID, "authored.error_sample_band")
		}
	}
	tx, err := s.db.db.BeginTx(ctx, nil)
	if err != nil {
		return dbError(err)
	}
	defer tx.Rollback()
	if _, err := ownRow(ctx, tx, author, id, 0); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM authored_question_samples WHERE question_id = ?`, id); err != nil {
		return dbError(err)
	}
	for i, sm := range samples {
		if _, err := tx.ExecContext(ctx, `INSERT INTO authored_question_samples (question_id, position, lang, text, expected)
			VALUES (?, ?, ?, ?, ?)`, id, i, string(sm.Lang), sm.Text, sm.Expected); err != nil {
			return dbError(err)
		}
	}
	return dbError(tx.Commit())
}
