package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/jsonslice"
)

// AttemptService is the SQL implementation (SQLite or PostgreSQL) of examsim.AttemptService.
type AttemptService struct{ db *DB }

// NewAttemptService returns an AttemptService on db.
func NewAttemptService(db *DB) *AttemptService { return &AttemptService{db: db} }

var _ examsim.AttemptService = (*AttemptService)(nil)

// CreateAttempt stores an attempt and, in the same transaction, moves the
// question on the learner's review schedule.
func (s *AttemptService) CreateAttempt(ctx context.Context, a *examsim.Attempt) error {
	if a.CreatedAt.IsZero() {
		a.CreatedAt = s.db.now()
	}
	tx, err := s.db.db.BeginTx(ctx, nil)
	if err != nil {
		return dbError(err)
	}
	defer tx.Rollback()
	if err := insertAttempt(ctx, tx, a); err != nil {
		return err
	}
	if err := scheduleReview(ctx, tx, a); err != nil {
		return err
	}
	return dbError(tx.Commit())
}

// execer is what a *sql.DB and a *sql.Tx share.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func insertAttempt(ctx context.Context, db execer, a *examsim.Attempt) error {
	if a.Source == "" {
		a.Source = examsim.SourcePractice
	}
	concepts, _ := json.Marshal(jsonslice.NonNil(a.Concepts))
	miscon, _ := json.Marshal(jsonslice.NonNil(a.Misconceptions))
	examID := sql.NullInt64{Int64: a.ExamID, Valid: a.ExamID != 0}
	err := db.QueryRowContext(ctx, `INSERT INTO attempts
		(learner_id, question_id, lang, choice, correct, explanation, score, band, concepts, misconceptions, rubric_version, created_at, source, exam_id, class_title, `+wholeVerdictColumns("")+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		append([]any{a.LearnerID, a.QuestionID, string(a.Lang), a.Choice, a.Correct, a.Explanation, examsim.BandScore(a.Band), a.Band,
			string(concepts), string(miscon), a.RubricVersion, a.CreatedAt.Format(time.RFC3339Nano), string(a.Source), examID, a.ClassTitle},
			wholeVerdictArgs(&a.Verdict)...)...).Scan(&a.ID)
	if err != nil {
		return dbError(err)
	}
	return nil
}

// attemptColumns are read from attemptsWithGrades: each attempt with its
// teacher's regrade, if any.
// The stored score column is not read: the score is derived from the band.
var attemptColumns = `a.id, a.learner_id, a.question_id, a.lang, a.choice, a.correct, a.explanation, a.band,
	a.concepts, a.misconceptions, a.rubric_version, a.created_at, a.source, a.exam_id, a.class_title, ` +
	wholeVerdictColumns("a.") + `, ` + gradeColumns

const attemptsWithGrades = `attempts a LEFT JOIN human_grades g ON g.attempt_id = a.id`

type scanner interface{ Scan(dest ...any) error }

func scanAttempt(row scanner) (*examsim.Attempt, error) {
	var a examsim.Attempt
	var lang, concepts, miscon, created, source string
	var examID sql.NullInt64
	var g gradeScan
	var w wholeVerdict
	dest := append([]any{&a.ID, &a.LearnerID, &a.QuestionID, &lang, &a.Choice, &a.Correct, &a.Explanation,
		&a.Band, &concepts, &miscon, &a.RubricVersion, &created, &source, &examID, &a.ClassTitle}, w.dest()...)
	if err := row.Scan(append(dest, g.dest()...)...); err != nil {
		return nil, err
	}
	w.into(&a.Verdict)
	a.Human = g.grade(examsim.Target{Kind: examsim.TargetAttempt, ID: a.ID})
	a.Lang = examsim.Lang(lang)
	a.Source = examsim.Source(source)
	a.ExamID = examID.Int64
	// Lists this package wrote as JSON: a damaged one reads as empty.
	_ = json.Unmarshal([]byte(concepts), &a.Concepts)
	_ = json.Unmarshal([]byte(miscon), &a.Misconceptions)
	a.CreatedAt, _ = time.Parse(time.RFC3339Nano, created)
	return &a, nil
}

// ListAttempts returns a learner's attempts, newest first.
func (s *AttemptService) ListAttempts(ctx context.Context, learnerID int64, limit int) ([]*examsim.Attempt, error) {
	// #nosec G202 -- the columns and the join are this file's constants; values are placeholders.
	rows, err := s.db.db.QueryContext(ctx, `SELECT `+attemptColumns+` FROM `+attemptsWithGrades+` WHERE a.learner_id = ? ORDER BY a.id DESC LIMIT ?`,
		learnerID, limitArg(limit))
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var out []*examsim.Attempt
	for rows.Next() {
		a, err := scanAttempt(rows)
		if err != nil {
			return nil, dbError(err)
		}
		out = append(out, a)
	}
	return out, dbError(rows.Err())
}

// FindAttempt returns one attempt by id.
func (s *AttemptService) FindAttempt(ctx context.Context, id int64) (*examsim.Attempt, error) {
	a, err := scanAttempt(s.db.db.QueryRowContext(ctx, `SELECT `+attemptColumns+` FROM `+attemptsWithGrades+` WHERE a.id = ?`, id))
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, examsim.E(examsim.ENOTFOUND, "error.attempt_not_found")
		}
		return nil, dbError(err)
	}
	return a, nil
}

// EachAttempt calls fn for every attempt, oldest first, outside any
// transaction, so fn may write.
func (s *AttemptService) EachAttempt(ctx context.Context, fn func(*examsim.Attempt) error) error {
	// #nosec G202 -- the columns and the join are this file's constants.
	rows, err := s.db.db.QueryContext(ctx, `SELECT `+attemptColumns+` FROM `+attemptsWithGrades+` ORDER BY a.id`)
	if err != nil {
		return dbError(err)
	}
	var all []*examsim.Attempt
	for rows.Next() {
		a, err := scanAttempt(rows)
		if err != nil {
			_ = rows.Close() // the scan's error is the one to report
			return dbError(err)
		}
		all = append(all, a)
	}
	if err := rows.Close(); err != nil {
		return dbError(err)
	}
	if err := rows.Err(); err != nil {
		return dbError(err)
	}
	for _, a := range all {
		if err := fn(a); err != nil {
			return err
		}
	}
	return nil
}

// UpdateScore replaces an attempt's automatic score with a new verdict of
// the rubric version it records, and, in the same transaction, the verdict
// of the exam answer it records, if any: an exam's review and the history
// never disagree. A teacher's regrade lives apart, in human_grades, and is
// never touched here.
func (s *AttemptService) UpdateScore(ctx context.Context, a *examsim.Attempt) error {
	concepts, _ := json.Marshal(jsonslice.NonNil(a.Concepts))
	miscon, _ := json.Marshal(jsonslice.NonNil(a.Misconceptions))
	args := append([]any{examsim.BandScore(a.Band), a.Band, string(concepts), string(miscon), a.RubricVersion},
		append(wholeVerdictArgs(&a.Verdict), a.ID)...)
	tx, err := s.db.db.BeginTx(ctx, nil)
	if err != nil {
		return dbError(err)
	}
	defer tx.Rollback()
	for _, table := range []string{"attempts", "exam_items"} {
		key := "id"
		if table == "exam_items" {
			key = "attempt_id"
		}
		// #nosec G202 -- table and key are the constants above.
		if _, err := tx.ExecContext(ctx, `UPDATE `+table+` SET score = ?, band = ?, concepts = ?, misconceptions = ?, rubric_version = ?,
			pending = ?, confidence = ?, evidence = ? WHERE `+key+` = ?`, args...); err != nil {
			return dbError(err)
		}
	}
	return dbError(tx.Commit())
}
