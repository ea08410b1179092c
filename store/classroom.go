package store

import (
	"cmp"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/jsonslice"
	"github.com/examsim/examsim/internal/namekey"
)

// ClassroomService is the SQL implementation (SQLite or PostgreSQL) of examsim.ClassroomService.
type ClassroomService struct{ db *DB }

// NewClassroomService returns a ClassroomService on db.
func NewClassroomService(db *DB) *ClassroomService { return &ClassroomService{db: db} }

var _ examsim.ClassroomService = (*ClassroomService)(nil)

func fmtTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func parseTime(s sql.NullString) time.Time {
	if !s.Valid {
		return time.Time{}
	}
	t, _ := time.Parse(time.RFC3339Nano, s.String)
	return t
}

func (s *ClassroomService) CreateQuiz(ctx context.Context, q *examsim.Quiz) error {
	if err := q.Validate(); err != nil {
		return err
	}
	now := s.db.now()
	q.CreatedAt, q.UpdatedAt = now, now
	ids, _ := json.Marshal(jsonslice.NonNil(q.QuestionIDs))
	err := s.db.db.QueryRowContext(ctx, `INSERT INTO class_quizzes
		(owner_id, title, question_ids, seconds_per_question, scoring, leaderboard, explanations, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		q.OwnerID, q.Title, string(ids), q.SecondsPerQuestion, string(q.Scoring), q.Leaderboard, string(q.Explanations),
		fmtTime(now), fmtTime(now)).Scan(&q.ID)
	if err != nil {
		return dbError(err)
	}
	return nil
}

func (s *ClassroomService) UpdateQuiz(ctx context.Context, q *examsim.Quiz) error {
	if err := q.Validate(); err != nil {
		return err
	}
	q.UpdatedAt = s.db.now()
	ids, _ := json.Marshal(jsonslice.NonNil(q.QuestionIDs))
	res, err := s.db.db.ExecContext(ctx, `UPDATE class_quizzes SET title = ?, question_ids = ?, seconds_per_question = ?,
		scoring = ?, leaderboard = ?, explanations = ?, updated_at = ? WHERE id = ? AND owner_id = ?`,
		q.Title, string(ids), q.SecondsPerQuestion, string(q.Scoring), q.Leaderboard, string(q.Explanations),
		fmtTime(q.UpdatedAt), q.ID, q.OwnerID)
	if err != nil {
		return dbError(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return examsim.E(examsim.ENOTFOUND, "class.error_quiz_not_found")
	}
	return nil
}

const quizColumns = `id, owner_id, title, question_ids, seconds_per_question, scoring, leaderboard, explanations, created_at, updated_at`

func scanQuiz(row scanner) (*examsim.Quiz, error) {
	var q examsim.Quiz
	var ids, scoring, expl string
	var created, updated sql.NullString
	if err := row.Scan(&q.ID, &q.OwnerID, &q.Title, &ids, &q.SecondsPerQuestion, &scoring, &q.Leaderboard, &expl,
		&created, &updated); err != nil {
		return nil, err
	}
	// Lists this package wrote as JSON: a damaged one reads as empty.
	_ = json.Unmarshal([]byte(ids), &q.QuestionIDs)
	q.Scoring, q.Explanations = examsim.ScoringMode(scoring), examsim.ExplanationMode(expl)
	q.CreatedAt, q.UpdatedAt = parseTime(created), parseTime(updated)
	return &q, nil
}

func (s *ClassroomService) FindQuiz(ctx context.Context, id int64) (*examsim.Quiz, error) {
	q, err := scanQuiz(s.db.db.QueryRowContext(ctx, `SELECT `+quizColumns+` FROM class_quizzes WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, examsim.E(examsim.ENOTFOUND, "class.error_quiz_not_found")
	}
	if err != nil {
		return nil, dbError(err)
	}
	return q, nil
}

func (s *ClassroomService) ListQuizzes(ctx context.Context, ownerID int64) ([]*examsim.Quiz, error) {
	rows, err := s.db.db.QueryContext(ctx, `SELECT `+quizColumns+` FROM class_quizzes WHERE owner_id = ? ORDER BY id DESC`, ownerID)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var out []*examsim.Quiz
	for rows.Next() {
		q, err := scanQuiz(rows)
		if err != nil {
			return nil, dbError(err)
		}
		out = append(out, q)
	}
	return out, dbError(rows.Err())
}

// newCode returns six random digits; the unique index on runs in progress
// decides whether it is free.
func newCode() string {
	n, _ := rand.Int(rand.Reader, big.NewInt(1_000_000))
	return fmt.Sprintf("%06d", n.Int64())
}

func (s *ClassroomService) CreateRun(ctx context.Context, run *examsim.ClassRun) error {
	run.CreatedAt = s.db.now()
	if run.Phase == "" {
		run.Phase = examsim.PhaseLobby
	}
	ids, _ := json.Marshal(jsonslice.NonNil(run.Quiz.QuestionIDs))
	for try := 0; try < 20; try++ {
		run.Code = newCode()
		err := s.db.db.QueryRowContext(ctx, `INSERT INTO class_sessions
			(quiz_id, host_id, code, mode, title, question_ids, seconds_per_question, scoring, leaderboard, explanations,
			 deadline, locked, phase, question_index, question_started_at, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			run.Quiz.ID, run.HostID, run.Code, string(run.Mode), run.Quiz.Title, string(ids), run.Quiz.SecondsPerQuestion,
			string(run.Quiz.Scoring), run.Quiz.Leaderboard, string(run.Quiz.Explanations), fmtTime(run.Deadline), run.Locked,
			string(run.Phase), run.QuestionIndex, fmtTime(run.QuestionStartedAt), fmtTime(run.CreatedAt)).Scan(&run.ID)
		if isUnique(err) {
			continue // the code is in use by a run in progress: draw another
		}
		if err != nil {
			return dbError(err)
		}
		return nil
	}
	return examsim.E(examsim.EUNAVAILABLE, "class.error_no_free_code")
}

const runColumns = `id, quiz_id, host_id, code, mode, title, question_ids, seconds_per_question, scoring, leaderboard,
	explanations, deadline, locked, phase, question_index, question_started_at, created_at, ended_at`

func scanRun(row scanner) (*examsim.ClassRun, error) {
	var run examsim.ClassRun
	var mode, ids, scoring, expl, phase string
	var deadline, started, created, ended sql.NullString
	if err := row.Scan(&run.ID, &run.Quiz.ID, &run.HostID, &run.Code, &mode, &run.Quiz.Title, &ids, &run.Quiz.SecondsPerQuestion,
		&scoring, &run.Quiz.Leaderboard, &expl, &deadline, &run.Locked, &phase, &run.QuestionIndex, &started, &created, &ended); err != nil {
		return nil, err
	}
	run.Mode, run.Phase = examsim.RunMode(mode), examsim.Phase(phase)
	// Lists this package wrote as JSON: a damaged one reads as empty.
	_ = json.Unmarshal([]byte(ids), &run.Quiz.QuestionIDs)
	run.Quiz.Scoring, run.Quiz.Explanations = examsim.ScoringMode(scoring), examsim.ExplanationMode(expl)
	run.Quiz.OwnerID = run.HostID
	run.Deadline, run.QuestionStartedAt = parseTime(deadline), parseTime(started)
	run.CreatedAt, run.EndedAt = parseTime(created), parseTime(ended)
	return &run, nil
}

func (s *ClassroomService) FindRun(ctx context.Context, id int64) (*examsim.ClassRun, error) {
	return s.findRunWhere(ctx, "class.error_session_not_found", `id = ?`, id)
}

func (s *ClassroomService) FindRunByCode(ctx context.Context, code string) (*examsim.ClassRun, error) {
	return s.findRunWhere(ctx, "join.error_no_such_code", `code = ? AND ended_at IS NULL`, strings.TrimSpace(code))
}

func (s *ClassroomService) findRunWhere(ctx context.Context, notFound, where string, arg any) (*examsim.ClassRun, error) {
	run, err := scanRun(s.db.db.QueryRowContext(ctx, `SELECT `+runColumns+` FROM class_sessions WHERE `+where, arg))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, examsim.E(examsim.ENOTFOUND, notFound)
	}
	if err != nil {
		return nil, dbError(err)
	}
	return run, nil
}

func (s *ClassroomService) ListRuns(ctx context.Context, hostID int64, limit int) ([]*examsim.ClassRun, error) {
	rows, err := s.db.db.QueryContext(ctx, `SELECT `+runColumns+` FROM class_sessions WHERE host_id = ? ORDER BY id DESC LIMIT ?`,
		hostID, limitArg(limit))
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var out []*examsim.ClassRun
	for rows.Next() {
		run, err := scanRun(rows)
		if err != nil {
			return nil, dbError(err)
		}
		out = append(out, run)
	}
	return out, dbError(rows.Err())
}

// UpdateRunStates writes the states in one transaction: rooms that move at
// once share one commit (one fsync) instead of queueing for the database
// one by one. A run whose lease moved on is refused alone (fenceBatch).
func (s *ClassroomService) UpdateRunStates(ctx context.Context, runs []*examsim.ClassRun) error {
	if len(runs) == 0 {
		return nil
	}
	ctx, tx, refused, err := beginBatch(ctx, s.db, runs, func(run *examsim.ClassRun) (int64, int64) { return run.ID, run.Epoch })
	if err != nil {
		return dbError(err)
	}
	defer tx.Rollback()
	for i, run := range runs {
		if refused.has(i) {
			continue
		}
		if _, err := tx.ExecContext(ctx, `UPDATE class_sessions SET phase = ?, question_index = ?, question_started_at = ?,
		locked = ?, ended_at = ? WHERE id = ?`,
			string(run.Phase), run.QuestionIndex, fmtTime(run.QuestionStartedAt), run.Locked, fmtTime(run.EndedAt), run.ID); err != nil {
			return dbError(err)
		}
	}
	if err := tx.Commit(); err != nil {
		return dbError(err)
	}
	return refused.err()
}

// execQuerier is what a write needs of a database or a transaction.
type execQuerier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// underLease is the one fencing rule for a room's single writes (joins,
// kicks, languages): write runs in a
// transaction that holds the room's lease at epoch, and is refused with
// fencedError once the lease has moved on, so an owner that lost the room
// cannot change what its successor has already read. Epoch 0 (one
// instance) writes unfenced.
func (s *ClassroomService) underLease(ctx context.Context, runID, epoch int64, write func(q execQuerier) error) error {
	if epoch == 0 {
		return write(s.db.db)
	}
	tx, err := s.db.db.BeginTx(ctx, nil)
	if err != nil {
		return dbError(err)
	}
	defer tx.Rollback()
	held, err := leaseHeld(ctx, tx, runID, epoch)
	if err != nil {
		return dbError(err)
	}
	if !held {
		return fencedError(runID, epoch)
	}
	if err := write(tx); err != nil {
		return err
	}
	return dbError(tx.Commit())
}

// leaseHeld reports whether the room's lease is still at epoch, and locks
// it for tx: FOR SHARE holds a takeover's claim until tx ends, so the new
// owner reads the room after this write, never before it and then
// overwritten.
func leaseHeld(ctx context.Context, tx *sql.Tx, runID, epoch int64) (bool, error) {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM room_leases WHERE run_id = ? AND epoch = ? FOR SHARE`, runID, epoch).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// fencedError refuses a write by an instance that no longer owns the room.
func fencedError(runID, epoch int64) error {
	return &examsim.Error{Code: examsim.EUNAVAILABLE, MessageID: "error.unavailable",
		Detail: fmt.Sprintf("this instance no longer owns room %d (its lease moved past epoch %d); retry: the request reaches the new owner", runID, epoch)}
}

// refusals are the items of a batch the store refused, each on its own,
// while it stored the rest.
type refusals struct {
	errs examsim.BatchErrors // nil until the first refusal
	n    int
}

func (r *refusals) refuse(i int, why error) {
	if r.errs == nil {
		r.errs = make(examsim.BatchErrors, r.n)
	}
	r.errs[i] = why
}

func (r *refusals) has(i int) bool { return r.errs != nil && r.errs[i] != nil }

// err is nil when the whole batch was stored, else the BatchErrors.
func (r *refusals) err() error {
	if r.errs == nil {
		return nil
	}
	return r.errs
}

// beginBatch opens a group commit's transaction, with the context it writes
// under (batchContext), and fences its items (fenceBatch).
func beginBatch[T any](ctx context.Context, db *DB, items []T, key func(T) (runID, epoch int64)) (context.Context, *sql.Tx, *refusals, error) {
	ctx = db.batchContext(ctx)
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return ctx, nil, nil, err
	}
	refused, err := fenceBatch(ctx, tx, items, key)
	if err != nil {
		_ = tx.Rollback() // the fence's error is the one to report
		return ctx, nil, nil, err
	}
	return ctx, tx, refused, nil
}

// fenceBatch locks the leases a batch is written under (key gives each
// item's run and the epoch it was written at), for the transaction, and
// refuses each item whose epoch is no longer its room's: underLease's
// rule, per item, so one late write does not fail a batch. It locks them
// in run order, as RenewRooms does, so a batch and a heartbeat that share
// rooms never wait for each other in a cycle.
func fenceBatch[T any](ctx context.Context, tx *sql.Tx, items []T, key func(T) (runID, epoch int64)) (*refusals, error) {
	refused := &refusals{n: len(items)}
	var keys [][2]int64
	for _, item := range items {
		if runID, epoch := key(item); epoch != 0 {
			keys = append(keys, [2]int64{runID, epoch})
		}
	}
	slices.SortFunc(keys, func(a, b [2]int64) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	held := map[[2]int64]bool{}
	for _, k := range slices.Compact(keys) {
		ok, err := leaseHeld(ctx, tx, k[0], k[1])
		if err != nil {
			return nil, err
		}
		held[k] = ok
	}
	for i, item := range items {
		if runID, epoch := key(item); epoch != 0 && !held[[2]int64{runID, epoch}] {
			refused.refuse(i, fencedError(runID, epoch))
		}
	}
	return refused, nil
}

func (s *ClassroomService) CreatePlayer(ctx context.Context, p *examsim.Player) error {
	p.JoinedAt = s.db.now()
	var learner any
	if p.LearnerID != 0 {
		learner = p.LearnerID
	}
	return s.underLease(ctx, p.RunID, p.Epoch, func(q execQuerier) error {
		err := q.QueryRowContext(ctx, `INSERT INTO class_players
		(session_id, nickname, nickname_key, lang, learner_id, rejoin_hash, joined_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			p.RunID, p.Nickname, namekey.Of(p.Nickname), string(p.Lang), learner, p.RejoinHash, fmtTime(p.JoinedAt)).Scan(&p.ID)
		if isUnique(err) {
			return examsim.E(examsim.ECONFLICT, "join.error_nickname_taken", "Nickname", p.Nickname)
		}
		return dbError(err)
	})
}

func (s *ClassroomService) ListPlayers(ctx context.Context, runID int64) ([]*examsim.Player, error) {
	rows, err := s.db.db.QueryContext(ctx, `SELECT id, session_id, nickname, lang, learner_id, rejoin_hash, kicked, joined_at
		FROM class_players WHERE session_id = ? ORDER BY id`, runID)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var out []*examsim.Player
	for rows.Next() {
		var p examsim.Player
		var lang string
		var learner sql.NullInt64
		var joined sql.NullString
		if err := rows.Scan(&p.ID, &p.RunID, &p.Nickname, &lang, &learner, &p.RejoinHash, &p.Kicked, &joined); err != nil {
			return nil, dbError(err)
		}
		p.Lang, p.LearnerID, p.JoinedAt = examsim.Lang(lang), learner.Int64, parseTime(joined)
		out = append(out, &p)
	}
	return out, dbError(rows.Err())
}

func (s *ClassroomService) KickPlayer(ctx context.Context, runID, epoch, playerID int64) error {
	return s.underLease(ctx, runID, epoch, func(q execQuerier) error {
		return playerChanged(q.ExecContext(ctx, `UPDATE class_players SET kicked = 1 WHERE id = ? AND session_id = ?`, playerID, runID))
	})
}

func (s *ClassroomService) SetPlayerLang(ctx context.Context, runID, epoch, playerID int64, lang examsim.Lang) error {
	return s.underLease(ctx, runID, epoch, func(q execQuerier) error {
		return playerChanged(q.ExecContext(ctx, `UPDATE class_players SET lang = ? WHERE id = ? AND session_id = ?`, string(lang), playerID, runID))
	})
}

// playerChanged says whether an update of one player's row found it.
func playerChanged(res sql.Result, err error) error {
	if err != nil {
		return dbError(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return examsim.E(examsim.ENOTFOUND, "class.error_player_not_found")
	}
	return nil
}

// SaveAnswers writes a batch in one transaction, so a burst of answers costs
// one fsync instead of one each. A second answer by the same player to the
// same question is ignored: the first one stands. An answer whose room or
// player is gone fails its constraint alone (db.alone): only that statement
// is backed out and the transaction goes on, so it never fails the others.
func (s *ClassroomService) SaveAnswers(ctx context.Context, answers []*examsim.ClassAnswer) error {
	if len(answers) == 0 {
		return nil
	}
	ctx, tx, refused, err := beginBatch(ctx, s.db, answers, func(a *examsim.ClassAnswer) (int64, int64) { return a.RunID, a.Epoch })
	if err != nil {
		return dbError(err)
	}
	defer tx.Rollback()
	// #nosec G202 -- wholeVerdictColumns returns fixed column names; values are placeholders.
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO class_answers
		(session_id, player_id, question_index, question_id, lang, choice, correct, explanation, explanation_score, band,
		 concepts, misconceptions, rubric_version, elapsed_ms, points, created_at, `+wholeVerdictColumns("")+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (player_id, question_index) DO NOTHING RETURNING id`)
	if err != nil {
		return dbError(err)
	}
	defer stmt.Close()
	now := s.db.now()
	for i, a := range answers {
		if refused.has(i) {
			continue
		}
		if a.CreatedAt.IsZero() {
			a.CreatedAt = now
		}
		concepts, _ := json.Marshal(jsonslice.NonNil(a.Concepts))
		miscon, _ := json.Marshal(jsonslice.NonNil(a.Misconceptions))
		var id int64
		inserted := false
		err := s.db.alone(ctx, tx, func() error {
			err := stmt.QueryRowContext(ctx, append([]any{a.RunID, a.PlayerID, a.QuestionIndex, a.QuestionID, string(a.Lang), a.Choice,
				a.Correct, a.Explanation, examsim.BandScore(a.Band), a.Band, string(concepts), string(miscon), a.RubricVersion,
				a.ElapsedMS, a.Points, fmtTime(a.CreatedAt)}, wholeVerdictArgs(&a.Verdict)...)...).Scan(&id)
			if errors.Is(err, sql.ErrNoRows) {
				return nil // the player's first answer to the question stands
			}
			inserted = err == nil
			return err
		})
		if isConstraint(err) {
			why := &examsim.Error{Code: examsim.EINTERNAL, MessageID: "error.internal", Detail: err.Error()}
			if isForeignKey(err) {
				why = &examsim.Error{Code: examsim.ECONFLICT, MessageID: "class.error_not_running", Detail: err.Error()}
			}
			refused.refuse(i, why)
			continue
		}
		if err != nil {
			return dbError(err)
		}
		if inserted {
			a.ID = id
			if err := addToHistory(ctx, tx, a); err != nil {
				return err
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return dbError(err)
	}
	return refused.err()
}

// addToHistory puts a stored class answer into the student's learner
// history and review schedule, in the answer's own transaction: one fsync
// for both, and never one without the other. A player without a learner
// (joined before examsim linked everyone) has no history to add to.
func addToHistory(ctx context.Context, tx *sql.Tx, a *examsim.ClassAnswer) error {
	var learner sql.NullInt64
	var title string
	err := tx.QueryRowContext(ctx, `SELECT p.learner_id, s.title FROM class_players p JOIN class_sessions s ON s.id = p.session_id
		WHERE p.id = ?`, a.PlayerID).Scan(&learner, &title)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !learner.Valid) {
		return nil
	}
	if err != nil {
		return dbError(err)
	}
	at := &examsim.Attempt{LearnerID: learner.Int64, Answer: a.Answer, CreatedAt: a.CreatedAt,
		Source: examsim.SourceClassroom, ClassTitle: title}
	at.Human = nil // the history copy starts without a regrade
	if err := insertAttempt(ctx, tx, at); err != nil {
		return err
	}
	return scheduleReview(ctx, tx, at)
}

func (s *ClassroomService) ListAnswers(ctx context.Context, runID int64) ([]*examsim.ClassAnswer, error) {
	return s.queryAnswers(ctx, `c.session_id = ? ORDER BY c.question_index, c.id`, runID)
}

// ListPendingAnswers returns every class answer whose score is pending, for
// `examsim rescore`.
func (s *ClassroomService) ListPendingAnswers(ctx context.Context) ([]*examsim.ClassAnswer, error) {
	return s.queryAnswers(ctx, `c.pending = 1 ORDER BY c.id`)
}

// UpdateAnswerScore stores a class answer's new automatic verdict and points.
func (s *ClassroomService) UpdateAnswerScore(ctx context.Context, a *examsim.ClassAnswer) error {
	concepts, _ := json.Marshal(jsonslice.NonNil(a.Concepts))
	miscon, _ := json.Marshal(jsonslice.NonNil(a.Misconceptions))
	_, err := s.db.db.ExecContext(ctx, `UPDATE class_answers SET explanation_score = ?, band = ?, concepts = ?, misconceptions = ?,
		rubric_version = ?, points = ?, pending = ?, confidence = ?, evidence = ? WHERE id = ?`,
		append(append([]any{examsim.BandScore(a.Band), a.Band, string(concepts), string(miscon), a.RubricVersion, a.Points},
			wholeVerdictArgs(&a.Verdict)...), a.ID)...)
	return dbError(err)
}

// queryAnswers returns the class answers matching where, a condition on
// class_answers c with its ORDER BY, each with its teacher's regrade.
func (s *ClassroomService) queryAnswers(ctx context.Context, where string, args ...any) ([]*examsim.ClassAnswer, error) {
	// #nosec G202 -- where is one of this file's constants.
	rows, err := s.db.db.QueryContext(ctx, `SELECT c.id, c.session_id, c.player_id, c.question_index, c.question_id, c.lang, c.choice, c.correct,
		c.explanation, c.band, c.concepts, c.misconceptions, c.rubric_version, c.elapsed_ms, c.points, c.created_at, `+wholeVerdictColumns("c.")+`, `+gradeColumns+`
		FROM class_answers c LEFT JOIN human_grades g ON g.class_answer_id = c.id WHERE `+where, args...)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var out []*examsim.ClassAnswer
	for rows.Next() {
		var a examsim.ClassAnswer
		var lang, concepts, miscon string
		var created sql.NullString
		var w wholeVerdict
		var g gradeScan
		dest := append([]any{&a.ID, &a.RunID, &a.PlayerID, &a.QuestionIndex, &a.QuestionID, &lang, &a.Choice, &a.Correct,
			&a.Explanation, &a.Band, &concepts, &miscon, &a.RubricVersion, &a.ElapsedMS, &a.Points,
			&created}, w.dest()...)
		if err := rows.Scan(append(dest, g.dest()...)...); err != nil {
			return nil, dbError(err)
		}
		w.into(&a.Verdict)
		a.Human = g.grade(examsim.Target{Kind: examsim.TargetClassAnswer, ID: a.ID})
		a.Lang = examsim.Lang(lang)
		// Lists this package wrote as JSON: a damaged one reads as empty.
		_ = json.Unmarshal([]byte(concepts), &a.Concepts)
		_ = json.Unmarshal([]byte(miscon), &a.Misconceptions)
		a.CreatedAt = parseTime(created)
		out = append(out, &a)
	}
	return out, dbError(rows.Err())
}
