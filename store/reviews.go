package store

import (
	"context"
	"database/sql"
	"errors"
	"sort"
	"strings"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/schedule"
)

// ReviewService is the SQL implementation (SQLite or PostgreSQL) of examsim.ReviewService.
type ReviewService struct{ db *DB }

// NewReviewService returns a ReviewService on db.
func NewReviewService(db *DB) *ReviewService { return &ReviewService{db: db} }

var _ examsim.ReviewService = (*ReviewService)(nil)

const reviewCardColumns = `learner_id, question_id, stability, difficulty, reps, lapses, due_at, last_rating, reviewed_at`

// ListReviewCards returns a learner's cards, the earliest due first.
func (s *ReviewService) ListReviewCards(ctx context.Context, learnerID int64) ([]*examsim.ReviewCard, error) {
	rows, err := s.db.db.QueryContext(ctx, `SELECT `+reviewCardColumns+` FROM review_cards WHERE learner_id = ?`, learnerID)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var out []*examsim.ReviewCard
	for rows.Next() {
		var c examsim.ReviewCard
		if err := scanReviewCard(rows, &c); err != nil {
			return nil, dbError(err)
		}
		out = append(out, &c)
	}
	if err := rows.Err(); err != nil {
		return nil, dbError(err)
	}
	// Sorted here, not in SQL: the stored times are text of varying width.
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Due.Equal(out[j].Due) {
			return out[i].Due.Before(out[j].Due)
		}
		return out[i].QuestionID < out[j].QuestionID
	})
	return out, nil
}

func scanReviewCard(row interface{ Scan(...any) error }, c *examsim.ReviewCard) error {
	var due, reviewed string
	if err := row.Scan(&c.LearnerID, &c.QuestionID, &c.Stability, &c.Difficulty, &c.Reps, &c.Lapses, &due, &c.LastRating, &reviewed); err != nil {
		return err
	}
	c.Due, _ = time.Parse(time.RFC3339Nano, due)
	c.ReviewedAt, _ = time.Parse(time.RFC3339Nano, reviewed)
	return nil
}

// CountDue counts the learner's cards due at now.
func (s *ReviewService) CountDue(ctx context.Context, learnerID int64, now time.Time) (int, error) {
	cards, err := s.ListReviewCards(ctx, learnerID)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, c := range cards {
		if c.IsDue(now) {
			n++
		}
	}
	return n, nil
}

// ReviewSettings returns the learner's settings, or the defaults.
func (s *ReviewService) ReviewSettings(ctx context.Context, learnerID int64) (examsim.ReviewSettings, error) {
	return reviewSettings(ctx, s.db.db, learnerID)
}

const examDateLayout = "2006-01-02"

func reviewSettings(ctx context.Context, db execer, learnerID int64) (examsim.ReviewSettings, error) {
	set := examsim.DefaultReviewSettings()
	var date string
	err := db.QueryRowContext(ctx, `SELECT desired_retention, exam_date FROM review_settings WHERE learner_id = ?`, learnerID).
		Scan(&set.DesiredRetention, &date)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return set, nil
	case err != nil:
		return set, dbError(err)
	}
	if date != "" {
		set.ExamDate, _ = time.Parse(examDateLayout, date)
	}
	return set, nil
}

// SetReviewSettings saves the learner's settings.
func (s *ReviewService) SetReviewSettings(ctx context.Context, learnerID int64, set examsim.ReviewSettings) error {
	if err := set.Validate(); err != nil {
		return err
	}
	date := ""
	if !set.ExamDate.IsZero() {
		date = set.ExamDate.UTC().Format(examDateLayout)
	}
	_, err := s.db.db.ExecContext(ctx, `INSERT INTO review_settings (learner_id, desired_retention, exam_date) VALUES (?, ?, ?)
		ON CONFLICT (learner_id) DO UPDATE SET desired_retention = excluded.desired_retention, exam_date = excluded.exam_date`,
		learnerID, set.DesiredRetention, date)
	return dbError(err)
}

// scheduleReview reviews the attempt's question on the learner's FSRS
// schedule with the attempt's rating, making its card on the first answer;
// a cram answer leaves the schedule alone.
func scheduleReview(ctx context.Context, db execer, a *examsim.Attempt) error {
	if !a.MovesSchedule() {
		return nil
	}
	set, err := reviewSettings(ctx, db, a.LearnerID)
	if err != nil {
		return err
	}
	var card examsim.ReviewCard
	err = scanReviewCard(db.QueryRowContext(ctx, `SELECT `+reviewCardColumns+` FROM review_cards
		WHERE learner_id = ? AND question_id = ?`, a.LearnerID, a.QuestionID), &card)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		card = examsim.ReviewCard{LearnerID: a.LearnerID, QuestionID: a.QuestionID}
	case err != nil:
		return dbError(err)
	}
	card = schedule.Review(set, card, examsim.AttemptRating(a), a.CreatedAt)
	_, err = db.ExecContext(ctx, `INSERT INTO review_cards (`+reviewCardColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (learner_id, question_id) DO UPDATE SET stability = excluded.stability,
			difficulty = excluded.difficulty, reps = excluded.reps, lapses = excluded.lapses,
			due_at = excluded.due_at, last_rating = excluded.last_rating, reviewed_at = excluded.reviewed_at`,
		card.LearnerID, card.QuestionID, card.Stability, card.Difficulty, card.Reps, card.Lapses,
		card.Due.UTC().Format(time.RFC3339Nano), int(card.LastRating), card.ReviewedAt.UTC().Format(time.RFC3339Nano))
	return dbError(err)
}

// StartSession starts a session, replacing the learner's last one.
func (s *ReviewService) StartSession(ctx context.Context, rs *examsim.ReviewSession) error {
	if rs.StartedAt.IsZero() {
		rs.StartedAt = s.db.now()
	}
	_, err := s.db.db.ExecContext(ctx, `INSERT INTO review_sessions (learner_id, mode, question_ids, position, seed, started_at)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (learner_id) DO UPDATE SET mode = excluded.mode, question_ids = excluded.question_ids,
			position = excluded.position, seed = excluded.seed, started_at = excluded.started_at`,
		rs.LearnerID, string(rs.Mode), strings.Join(rs.QuestionIDs, " "), rs.Position, rs.Seed, rs.StartedAt.UTC().Format(time.RFC3339Nano))
	return dbError(err)
}

// FindSession returns the learner's last session.
func (s *ReviewService) FindSession(ctx context.Context, learnerID int64) (*examsim.ReviewSession, error) {
	return findSession(ctx, s.db.db, learnerID)
}

func findSession(ctx context.Context, db execer, learnerID int64) (*examsim.ReviewSession, error) {
	rs := &examsim.ReviewSession{LearnerID: learnerID}
	var mode, ids, started string
	err := db.QueryRowContext(ctx, `SELECT mode, question_ids, position, seed, started_at FROM review_sessions WHERE learner_id = ?`, learnerID).
		Scan(&mode, &ids, &rs.Position, &rs.Seed, &started)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, examsim.E(examsim.ENOTFOUND, "review.err_no_session")
	case err != nil:
		return nil, dbError(err)
	}
	rs.Mode, rs.QuestionIDs = examsim.ReviewMode(mode), strings.Fields(ids)
	rs.StartedAt, _ = time.Parse(time.RFC3339Nano, started)
	return rs, nil
}

// AnswerInSession stores the answer and moves the session on, together.
func (s *ReviewService) AnswerInSession(ctx context.Context, learnerID int64, position int, a *examsim.Attempt) error {
	tx, err := s.db.db.BeginTx(ctx, nil)
	if err != nil {
		return dbError(err)
	}
	defer tx.Rollback()
	rs, err := findSession(ctx, tx, learnerID)
	if err != nil {
		return err
	}
	if rs.Position != position || rs.Done() {
		return examsim.E(examsim.ECONFLICT, "review.err_stale")
	}
	if a != nil {
		if a.QuestionID != rs.QuestionIDs[position] || a.LearnerID != learnerID {
			return examsim.E(examsim.EINVALID, "review.err_stale")
		}
		if a.CreatedAt.IsZero() {
			a.CreatedAt = s.db.now()
		}
		if err := insertAttempt(ctx, tx, a); err != nil {
			return err
		}
		if err := scheduleReview(ctx, tx, a); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE review_sessions SET position = position + 1 WHERE learner_id = ?`, learnerID); err != nil {
		return dbError(err)
	}
	return dbError(tx.Commit())
}
