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
)

// ExamService is the SQL implementation (SQLite or PostgreSQL) of examsim.ExamService.
type ExamService struct{ db *DB }

// NewExamService returns an ExamService on db.
func NewExamService(db *DB) *ExamService { return &ExamService{db: db} }

var _ examsim.ExamService = (*ExamService)(nil)

func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func nullTime(t time.Time) sql.NullString {
	return sql.NullString{String: formatTime(t), Valid: !t.IsZero()}
}

func parseNullTime(s sql.NullString) time.Time {
	if !s.Valid {
		return time.Time{}
	}
	t, _ := time.Parse(time.RFC3339Nano, s.String)
	return t
}

func (s *ExamService) CreateExam(ctx context.Context, e *examsim.Exam) error {
	if len(e.Items) == 0 {
		return examsim.E(examsim.EINVALID, "exam.error_no_questions")
	}
	tx, err := s.db.db.BeginTx(ctx, nil)
	if err != nil {
		return dbError(err)
	}
	defer tx.Rollback()
	topics, _ := json.Marshal(jsonslice.NonNil(e.Topics))
	var id int64
	err = tx.QueryRowContext(ctx, `INSERT INTO exams
		(learner_id, lang, topics, concept, missed_only, pass_mark, seed, started_at, deadline, blueprint)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		e.LearnerID, string(e.Lang), string(topics), e.Concept, e.MissedOnly, e.PassMark, e.Seed,
		formatTime(e.StartedAt), formatTime(e.Deadline), e.Blueprint).Scan(&id)
	if err != nil {
		return dbError(err)
	}
	for _, it := range e.Items {
		order, _ := json.Marshal(jsonslice.NonNil(it.Options))
		if _, err := tx.ExecContext(ctx, `INSERT INTO exam_items (exam_id, position, question_id, option_order) VALUES (?, ?, ?, ?)`,
			id, it.Position, it.QuestionID, string(order)); err != nil {
			return dbError(err)
		}
	}
	if err := tx.Commit(); err != nil {
		return dbError(err)
	}
	e.ID = id
	return nil
}

const examColumns = `id, learner_id, lang, topics, concept, missed_only, pass_mark, seed, started_at, deadline,
	submitted_at, auto_submitted, correct, blueprint`

func scanExam(row scanner) (*examsim.Exam, error) {
	var e examsim.Exam
	var lang, topics, started, deadline string
	var submitted sql.NullString
	if err := row.Scan(&e.ID, &e.LearnerID, &lang, &topics, &e.Concept, &e.MissedOnly, &e.PassMark, &e.Seed,
		&started, &deadline, &submitted, &e.AutoSubmitted, &e.Correct, &e.Blueprint); err != nil {
		return nil, err
	}
	e.Lang = examsim.Lang(lang)
	// Lists this package wrote as JSON: a damaged one reads as empty.
	_ = json.Unmarshal([]byte(topics), &e.Topics)
	e.StartedAt, _ = time.Parse(time.RFC3339Nano, started)
	e.Deadline, _ = time.Parse(time.RFC3339Nano, deadline)
	e.SubmittedAt = parseNullTime(submitted)
	return &e, nil
}

// itemColumns are read from exam items with their attempt's regrade, if any.
var itemColumns = `i.exam_id, i.position, i.question_id, i.option_order, i.choice, i.explanation, i.lang, i.flagged, i.answered_at,
	i.correct, i.band, i.concepts, i.misconceptions, i.rubric_version, i.attempt_id, ` + wholeVerdictColumns("i.") + `, ` + gradeColumns

// loadItems fills in the items of exams, all in one query.
func (s *ExamService) loadItems(ctx context.Context, exams ...*examsim.Exam) error {
	if len(exams) == 0 {
		return nil
	}
	byID := make(map[int64]*examsim.Exam, len(exams))
	args := make([]any, len(exams))
	for i, e := range exams {
		byID[e.ID] = e
		e.Items = nil
		args[i] = e.ID
	}
	// #nosec G202 -- only placeholders are joined in: one ? per exam id.
	rows, err := s.db.db.QueryContext(ctx, `SELECT `+itemColumns+` FROM exam_items i LEFT JOIN human_grades g ON g.attempt_id = i.attempt_id
		WHERE i.exam_id IN (?`+strings.Repeat(", ?", len(exams)-1)+`) ORDER BY i.exam_id, i.position`, args...)
	if err != nil {
		return dbError(err)
	}
	defer rows.Close()
	for rows.Next() {
		var it examsim.ExamItem
		var examID int64
		var order, lang, concepts, miscon string
		var answered sql.NullString
		var attemptID sql.NullInt64
		var g gradeScan
		var w wholeVerdict
		dest := append([]any{&examID, &it.Position, &it.QuestionID, &order, &it.Choice, &it.Explanation, &lang, &it.Flagged,
			&answered, &it.Correct, &it.Band, &concepts, &miscon, &it.RubricVersion, &attemptID}, w.dest()...)
		if err := rows.Scan(append(dest, g.dest()...)...); err != nil {
			return dbError(err)
		}
		w.into(&it.Verdict)
		// Lists this package wrote as JSON: a damaged one reads as empty.
		_ = json.Unmarshal([]byte(order), &it.Options)
		_ = json.Unmarshal([]byte(concepts), &it.Concepts)
		_ = json.Unmarshal([]byte(miscon), &it.Misconceptions)
		it.Lang = examsim.Lang(lang)
		it.AnsweredAt = parseNullTime(answered)
		it.AttemptID = attemptID.Int64
		it.Human = g.grade(examsim.Target{Kind: examsim.TargetAttempt, ID: it.AttemptID})
		if e := byID[examID]; e != nil {
			e.Items = append(e.Items, &it)
		}
	}
	return dbError(rows.Err())
}

func (s *ExamService) FindExam(ctx context.Context, id int64) (*examsim.Exam, error) {
	e, err := scanExam(s.db.db.QueryRowContext(ctx, `SELECT `+examColumns+` FROM exams WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, examsim.E(examsim.ENOTFOUND, "exam.error_not_found")
	}
	if err != nil {
		return nil, dbError(err)
	}
	if err := s.loadItems(ctx, e); err != nil {
		return nil, err
	}
	return e, nil
}

func (s *ExamService) ListExams(ctx context.Context, learnerID int64, limit int) ([]*examsim.Exam, error) {
	rows, err := s.db.db.QueryContext(ctx, `SELECT `+examColumns+` FROM exams WHERE learner_id = ? ORDER BY id DESC LIMIT ?`,
		learnerID, limitArg(limit))
	if err != nil {
		return nil, dbError(err)
	}
	var out []*examsim.Exam
	for rows.Next() {
		e, err := scanExam(rows)
		if err != nil {
			_ = rows.Close() // the scan's error is the one to report
			return nil, dbError(err)
		}
		out = append(out, e)
	}
	if err := rows.Close(); err != nil {
		return nil, dbError(err)
	}
	if err := rows.Err(); err != nil {
		return nil, dbError(err)
	}
	if err := s.loadItems(ctx, out...); err != nil {
		return nil, err
	}
	return out, nil
}

// openExam checks, inside tx, that the exam takes answers at now. The
// check and the write share one (immediate) transaction, so an answer can
// never slip in after a submission or past the deadline.
func openExam(ctx context.Context, tx *sql.Tx, examID int64, now time.Time) error {
	var deadline string
	var submitted sql.NullString
	err := tx.QueryRowContext(ctx, `SELECT deadline, submitted_at FROM exams WHERE id = ?`, examID).Scan(&deadline, &submitted)
	if errors.Is(err, sql.ErrNoRows) {
		return examsim.E(examsim.ENOTFOUND, "exam.error_not_found")
	}
	if err != nil {
		return dbError(err)
	}
	if submitted.Valid {
		return examsim.E(examsim.ECONFLICT, "exam.error_already_submitted")
	}
	d, _ := time.Parse(time.RFC3339Nano, deadline)
	if !now.Before(d) {
		return examsim.E(examsim.ECONFLICT, "exam.error_time_up")
	}
	return nil
}

func (s *ExamService) SaveExamAnswer(ctx context.Context, examID int64, it *examsim.ExamItem, now time.Time) error {
	tx, err := s.db.db.BeginTx(ctx, nil)
	if err != nil {
		return dbError(err)
	}
	defer tx.Rollback()
	if err := openExam(ctx, tx, examID, now); err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, `UPDATE exam_items SET choice = ?, explanation = ?, lang = ?, flagged = ?, answered_at = ?
		WHERE exam_id = ? AND position = ?`,
		it.Choice, it.Explanation, string(it.Lang), it.Flagged, nullTime(it.AnsweredAt), examID, it.Position)
	if err != nil {
		return dbError(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return examsim.E(examsim.ENOTFOUND, "exam.error_no_such_question", "N", it.Position)
	}
	return dbError(tx.Commit())
}

func (s *ExamService) SubmitExam(ctx context.Context, e *examsim.Exam) error {
	tx, err := s.db.db.BeginTx(ctx, nil)
	if err != nil {
		return dbError(err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE exams SET submitted_at = ?, auto_submitted = ?, correct = ? WHERE id = ? AND submitted_at IS NULL`,
		formatTime(e.SubmittedAt), e.AutoSubmitted, e.Correct, e.ID)
	if err != nil {
		return dbError(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return examsim.E(examsim.ECONFLICT, "exam.error_already_submitted")
	}
	for _, it := range e.Items {
		if it.Answered() {
			at := it.AnsweredAt
			if at.IsZero() {
				at = e.SubmittedAt
			}
			a := &examsim.Attempt{LearnerID: e.LearnerID, Answer: it.Answer, CreatedAt: at, Source: examsim.SourceExam, ExamID: e.ID}
			a.Human = nil // the new attempt has no regrade yet
			if err := insertAttempt(ctx, tx, a); err != nil {
				return err
			}
			if err := scheduleReview(ctx, tx, a); err != nil {
				return err
			}
			it.AttemptID = a.ID
		}
		concepts, _ := json.Marshal(jsonslice.NonNil(it.Concepts))
		miscon, _ := json.Marshal(jsonslice.NonNil(it.Misconceptions))
		attemptID := sql.NullInt64{Int64: it.AttemptID, Valid: it.AttemptID != 0}
		if _, err := tx.ExecContext(ctx, `UPDATE exam_items SET correct = ?, score = ?, band = ?, concepts = ?, misconceptions = ?,
			rubric_version = ?, attempt_id = ?, pending = ?, confidence = ?, evidence = ? WHERE exam_id = ? AND position = ?`,
			append(append([]any{it.Correct, examsim.BandScore(it.Band), it.Band, string(concepts), string(miscon), it.RubricVersion, attemptID},
				wholeVerdictArgs(&it.Verdict)...), e.ID, it.Position)...); err != nil {
			return dbError(err)
		}
	}
	return dbError(tx.Commit())
}
