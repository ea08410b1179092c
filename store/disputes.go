package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/jsonslice"
)

// DisputeService is the SQL implementation (SQLite or PostgreSQL) of examsim.DisputeService.
type DisputeService struct{ db *DB }

// NewDisputeService returns a DisputeService on db.
func NewDisputeService(db *DB) *DisputeService { return &DisputeService{db: db} }

var _ examsim.DisputeService = (*DisputeService)(nil)

// gradeColumns are a human_grades row joined as g, NULL when there is none.
const gradeColumns = `g.band, g.concepts, g.grader_id, g.graded_at, g.note`

// gradeScan receives gradeColumns.
type gradeScan struct {
	band     sql.NullInt64
	concepts sql.NullString
	grader   sql.NullInt64
	gradedAt sql.NullString
	note     sql.NullString
}

func (g *gradeScan) dest() []any { return []any{&g.band, &g.concepts, &g.grader, &g.gradedAt, &g.note} }

// grade returns the scanned regrade of t, or nil when there was none.
func (g *gradeScan) grade(t examsim.Target) *examsim.HumanGrade {
	if !g.band.Valid {
		return nil
	}
	h := &examsim.HumanGrade{Target: t, Band: int(g.band.Int64), GraderID: g.grader.Int64, GradedAt: parseNullTime(g.gradedAt),
		Note: g.note.String}
	// A list this package wrote as JSON: a damaged one reads as empty.
	_ = json.Unmarshal([]byte(g.concepts.String), &h.Concepts)
	return h
}

// flagColumns are a score_flags row joined as f, NULL when there is none.
const flagColumns = `f.learner_id, f.comment, f.created_at, f.resolved_at`

type flagScan struct {
	learner  sql.NullInt64
	comment  sql.NullString
	created  sql.NullString
	resolved sql.NullString
}

func (f *flagScan) dest() []any { return []any{&f.learner, &f.comment, &f.created, &f.resolved} }

func (f *flagScan) flag(t examsim.Target) *examsim.Flag {
	if !f.created.Valid {
		return nil
	}
	return &examsim.Flag{Target: t, LearnerID: f.learner.Int64, Comment: f.comment.String,
		CreatedAt: parseNullTime(f.created), ResolvedAt: parseNullTime(f.resolved)}
}

// targetColumn is the column of score_flags and human_grades naming t.
func targetColumn(t examsim.Target) (string, error) {
	switch t.Kind {
	case examsim.TargetAttempt:
		return "attempt_id", nil
	case examsim.TargetClassAnswer:
		return "class_answer_id", nil
	}
	return "", examsim.E(examsim.ENOTFOUND, "grading.error_not_found")
}

func (s *DisputeService) FlagScore(ctx context.Context, f *examsim.Flag) error {
	col, err := targetColumn(f.Target)
	if err != nil {
		return err
	}
	if err := examsim.CheckFlagComment(f.Comment); err != nil {
		return err
	}
	if f.CreatedAt.IsZero() {
		f.CreatedAt = s.db.now()
	}
	// #nosec G202 -- col is one of two fixed column names, never input.
	_, err = s.db.db.ExecContext(ctx, `INSERT INTO score_flags (learner_id, `+col+`, comment, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (`+col+`) WHERE `+col+` IS NOT NULL DO UPDATE SET
			comment = CASE WHEN excluded.comment <> '' THEN excluded.comment ELSE score_flags.comment END,
			created_at = excluded.created_at, resolved_at = NULL`,
		f.LearnerID, f.Target.ID, f.Comment, formatTime(f.CreatedAt))
	return dbError(err)
}

func (s *DisputeService) FindFlag(ctx context.Context, t examsim.Target) (*examsim.Flag, error) {
	col, err := targetColumn(t)
	if err != nil {
		return nil, err
	}
	var fs flagScan
	// #nosec G202 -- col is one of two fixed column names, never input.
	err = s.db.db.QueryRowContext(ctx, `SELECT `+flagColumns+` FROM score_flags f WHERE `+col+` = ?`, t.ID).Scan(fs.dest()...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, dbError(err)
	}
	return fs.flag(t), nil
}

func (s *DisputeService) Regrade(ctx context.Context, g *examsim.HumanGrade) error {
	col, err := targetColumn(g.Target)
	if err != nil {
		return err
	}
	if err := examsim.CheckBand(g.Band); err != nil {
		return err
	}
	if err := examsim.CheckTeacherNote(g.Note); err != nil {
		return err
	}
	if g.GradedAt.IsZero() {
		g.GradedAt = s.db.now()
	}
	tx, err := s.db.db.BeginTx(ctx, nil)
	if err != nil {
		return dbError(err)
	}
	defer tx.Rollback()
	var learnerID sql.NullInt64
	var questionID string
	switch g.Target.Kind {
	case examsim.TargetAttempt:
		err = tx.QueryRowContext(ctx, `SELECT learner_id, question_id FROM attempts WHERE id = ?`, g.Target.ID).Scan(&learnerID, &questionID)
	default:
		err = tx.QueryRowContext(ctx, `SELECT NULL, question_id FROM class_answers WHERE id = ?`, g.Target.ID).Scan(&learnerID, &questionID)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return examsim.E(examsim.ENOTFOUND, "grading.error_not_found")
	}
	if err != nil {
		return dbError(err)
	}
	concepts, _ := json.Marshal(jsonslice.NonNil(g.Concepts))
	grader := sql.NullInt64{Int64: g.GraderID, Valid: g.GraderID != 0}
	// #nosec G202 -- col is one of two fixed column names, never input.
	if _, err := tx.ExecContext(ctx, `INSERT INTO human_grades (`+col+`, band, concepts, grader_id, graded_at, note) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (`+col+`) WHERE `+col+` IS NOT NULL DO UPDATE SET
			band = excluded.band, concepts = excluded.concepts, grader_id = excluded.grader_id, graded_at = excluded.graded_at,
			note = excluded.note`,
		g.Target.ID, g.Band, string(concepts), grader, formatTime(g.GradedAt), g.Note); err != nil {
		return dbError(err)
	}
	// #nosec G202 -- col is one of two fixed column names, never input.
	if _, err := tx.ExecContext(ctx, `UPDATE score_flags SET resolved_at = ? WHERE `+col+` = ? AND resolved_at IS NULL`,
		formatTime(g.GradedAt), g.Target.ID); err != nil {
		return dbError(err)
	}
	if learnerID.Valid {
		if err := replanReview(ctx, tx, learnerID.Int64, questionID); err != nil {
			return err
		}
	}
	return dbError(tx.Commit())
}

// replanReview rebuilds a learner's review card for a question from all
// their attempts at it, oldest first, each with the band that counts now,
// so a regrade moves the schedule as if the teacher's band had been given
// at the time.
func replanReview(ctx context.Context, tx *sql.Tx, learnerID int64, questionID string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM review_cards WHERE learner_id = ? AND question_id = ?`, learnerID, questionID); err != nil {
		return dbError(err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+attemptColumns+` FROM `+attemptsWithGrades+`
		WHERE a.learner_id = ? AND a.question_id = ? ORDER BY a.created_at, a.id`, learnerID, questionID)
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
	for _, a := range all {
		if err := scheduleReview(ctx, tx, a); err != nil {
			return err
		}
	}
	return nil
}

// The gradable explanations of each kind, with flag and regrade. Each query
// ends in a WHERE clause the callers extend.
const (
	// A learner without an account is named by the nickname they last
	// played under, so the teacher can tell who flagged.
	gradableAttempts = `SELECT a.id, a.learner_id, COALESCE(l.username,
			(SELECT p.nickname FROM class_players p WHERE p.learner_id = a.learner_id ORDER BY p.id DESC LIMIT 1), ''), a.question_id, a.lang, a.choice, a.correct,
		a.explanation, a.band, a.concepts, a.misconceptions, a.rubric_version, a.created_at, ` + flagColumns + `, ` + gradeColumns + `,
		a.pending, a.confidence, a.evidence
		FROM attempts a JOIN learners l ON l.id = a.learner_id
		LEFT JOIN score_flags f ON f.attempt_id = a.id
		LEFT JOIN human_grades g ON g.attempt_id = a.id
		WHERE a.explanation <> ''`
	gradableAnswers = `SELECT c.id, COALESCE(p.learner_id, 0), p.nickname, c.question_id, c.lang, c.choice, c.correct,
		c.explanation, c.band, c.concepts, c.misconceptions, c.rubric_version, c.created_at, ` + flagColumns + `, ` + gradeColumns + `,
		c.pending, c.confidence, c.evidence
		FROM class_answers c JOIN class_players p ON p.id = c.player_id
		JOIN class_sessions s ON s.id = c.session_id JOIN class_quizzes z ON z.id = s.quiz_id
		LEFT JOIN score_flags f ON f.class_answer_id = c.id
		LEFT JOIN human_grades g ON g.class_answer_id = c.id
		WHERE c.explanation <> ''`
	// An instructor's scope: the classes they host or whose quiz they own,
	// and, for attempts, the students who joined one of those classes.
	attemptScope = ` AND (? = 1 OR a.learner_id IN (SELECT p.learner_id FROM class_players p
		JOIN class_sessions s ON s.id = p.session_id JOIN class_quizzes z ON z.id = s.quiz_id
		WHERE p.learner_id IS NOT NULL AND (s.host_id = ? OR z.owner_id = ?)))`
	answerScope = ` AND (? = 1 OR s.host_id = ? OR z.owner_id = ?)`
)

func scopeArgs(sc examsim.GradingScope) []any { return []any{sc.All, sc.TeacherID, sc.TeacherID} }

// kindQuery is the query and scope clause of one kind of gradable.
func kindQuery(k examsim.TargetKind) (query, scope, id string) {
	if k == examsim.TargetClassAnswer {
		return gradableAnswers, answerScope, "c.id"
	}
	return gradableAttempts, attemptScope, "a.id"
}

// openFlagged narrows a kind's query to its open flags, through the flags'
// own index rather than a scan of every explanation.
func openFlagged(k examsim.TargetKind) string {
	if k == examsim.TargetClassAnswer {
		return ` AND c.id IN (SELECT class_answer_id FROM score_flags WHERE resolved_at IS NULL AND class_answer_id IS NOT NULL)`
	}
	return ` AND a.id IN (SELECT attempt_id FROM score_flags WHERE resolved_at IS NULL AND attempt_id IS NOT NULL)`
}

// notClassCopy leaves out of the unflagged part of the queue the attempts
// that copy a class answer into a learner's history: the class answer itself
// stands for them there. A learner who flags the copy still brings it in.
func notClassCopy(k examsim.TargetKind) string {
	if k == examsim.TargetClassAnswer {
		return ""
	}
	return ` AND a.source <> 'classroom'`
}

func (s *DisputeService) queryGradable(ctx context.Context, kind examsim.TargetKind, sql string, args ...any) ([]*examsim.Gradable, error) {
	rows, err := s.db.db.QueryContext(ctx, sql, args...)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var out []*examsim.Gradable
	for rows.Next() {
		var g examsim.Gradable
		var lang, concepts, miscon, created string
		var fs flagScan
		var gs gradeScan
		var w wholeVerdict
		dest := []any{&g.Target.ID, &g.LearnerID, &g.Name, &g.QuestionID, &lang, &g.Choice, &g.Correct,
			&g.Explanation, &g.Band, &concepts, &miscon, &g.RubricVersion, &created}
		if err := rows.Scan(append(append(append(dest, fs.dest()...), gs.dest()...), w.dest()...)...); err != nil {
			return nil, dbError(err)
		}
		w.into(&g.Verdict)
		g.Target.Kind = kind
		g.Lang = examsim.Lang(lang)
		// Lists this package wrote as JSON: a damaged one reads as empty.
		_ = json.Unmarshal([]byte(concepts), &g.Concepts)
		_ = json.Unmarshal([]byte(miscon), &g.Misconceptions)
		g.CreatedAt, _ = time.Parse(time.RFC3339Nano, created)
		g.Flag = fs.flag(g.Target)
		g.Human = gs.grade(g.Target)
		out = append(out, &g)
	}
	return out, dbError(rows.Err())
}

func (s *DisputeService) FindGradable(ctx context.Context, t examsim.Target, scope examsim.GradingScope) (*examsim.Gradable, error) {
	if _, err := targetColumn(t); err != nil {
		return nil, err
	}
	query, scopeSQL, id := kindQuery(t.Kind)
	got, err := s.queryGradable(ctx, t.Kind, query+scopeSQL+` AND `+id+` = ?`, append(scopeArgs(scope), t.ID)...)
	if err != nil {
		return nil, err
	}
	if len(got) == 0 {
		return nil, examsim.E(examsim.ENOTFOUND, "grading.error_not_found")
	}
	return got[0], nil
}

// tableOf returns the table alias of a column named alias.column.
func tableOf(column string) string { return column[:strings.IndexByte(column, '.')] }

func (s *DisputeService) ListGradable(ctx context.Context, scope examsim.GradingScope, limit int) ([]*examsim.Gradable, error) {
	var out []*examsim.Gradable
	for _, kind := range []examsim.TargetKind{examsim.TargetAttempt, examsim.TargetClassAnswer} {
		query, scopeSQL, id := kindQuery(kind)
		flagged, err := s.queryGradable(ctx, kind, query+scopeSQL+openFlagged(kind), scopeArgs(scope)...)
		if err != nil {
			return nil, err
		}
		// Unsure scores nobody has regraded, found by their stored
		// confidence; a verdict stored before it was kept has none.
		unsure, err := s.queryGradable(ctx, kind, query+scopeSQL+` AND f.created_at IS NULL AND g.band IS NULL AND `+tableOf(id)+`.confidence < ?`+
			notClassCopy(kind)+` ORDER BY `+id+` DESC LIMIT ?`,
			append(scopeArgs(scope), examsim.UnsureBelow, limitArg(limit))...)
		if err != nil {
			return nil, err
		}
		out = append(append(out, flagged...), unsure...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].CreatedAt.After(out[j].CreatedAt) })
	return out, nil
}

func (s *DisputeService) ListRegraded(ctx context.Context) ([]*examsim.Gradable, error) {
	everyone := scopeArgs(examsim.GradingScope{All: true})
	var out []*examsim.Gradable
	for _, kind := range []examsim.TargetKind{examsim.TargetAttempt, examsim.TargetClassAnswer} {
		query, scopeSQL, _ := kindQuery(kind)
		got, err := s.queryGradable(ctx, kind, query+scopeSQL+` AND g.band IS NOT NULL`, everyone...)
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Human.GradedAt.Before(out[j].Human.GradedAt) })
	return out, nil
}
