package store

import (
	"context"
	"database/sql"
	"errors"
	"sort"
	"time"

	"github.com/examsim/examsim"
)

// ReviewService is the SQL implementation (SQLite or PostgreSQL) of examsim.ReviewService.
type ReviewService struct{ db *DB }

// NewReviewService returns a ReviewService on db.
func NewReviewService(db *DB) *ReviewService { return &ReviewService{db: db} }

var _ examsim.ReviewService = (*ReviewService)(nil)

// ListReviewCards returns a learner's cards, the earliest due first.
func (s *ReviewService) ListReviewCards(ctx context.Context, learnerID int64) ([]*examsim.ReviewCard, error) {
	rows, err := s.db.db.QueryContext(ctx, `SELECT learner_id, question_id, repetitions, interval_days, ease, due_at, last_quality, reviewed_at
		FROM review_cards WHERE learner_id = ?`, learnerID)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var out []*examsim.ReviewCard
	for rows.Next() {
		var c examsim.ReviewCard
		var due, reviewed string
		if err := rows.Scan(&c.LearnerID, &c.QuestionID, &c.Repetitions, &c.IntervalDays, &c.Ease, &due, &c.LastQuality, &reviewed); err != nil {
			return nil, dbError(err)
		}
		c.Due, _ = time.Parse(time.RFC3339Nano, due)
		c.ReviewedAt, _ = time.Parse(time.RFC3339Nano, reviewed)
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

// scheduleReview moves the attempt's question on the learner's SM-2
// schedule: an existing card is reviewed with the attempt's quality; a
// question without a card gets one only if the answer shows it needs review.
func scheduleReview(ctx context.Context, db execer, a *examsim.Attempt) error {
	q := examsim.AttemptQuality(a)
	card := examsim.NewReviewCard(a.LearnerID, a.QuestionID)
	var due, reviewed string
	err := db.QueryRowContext(ctx, `SELECT repetitions, interval_days, ease, due_at, reviewed_at FROM review_cards
		WHERE learner_id = ? AND question_id = ?`, a.LearnerID, a.QuestionID).
		Scan(&card.Repetitions, &card.IntervalDays, &card.Ease, &due, &reviewed)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if !examsim.NeedsReview(q) {
			return nil
		}
	case err != nil:
		return dbError(err)
	}
	card = card.Review(q, a.CreatedAt)
	_, err = db.ExecContext(ctx, `INSERT INTO review_cards
		(learner_id, question_id, repetitions, interval_days, ease, due_at, last_quality, reviewed_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (learner_id, question_id) DO UPDATE SET repetitions = excluded.repetitions,
			interval_days = excluded.interval_days, ease = excluded.ease, due_at = excluded.due_at,
			last_quality = excluded.last_quality, reviewed_at = excluded.reviewed_at`,
		card.LearnerID, card.QuestionID, card.Repetitions, card.IntervalDays, card.Ease,
		card.Due.UTC().Format(time.RFC3339Nano), card.LastQuality, card.ReviewedAt.UTC().Format(time.RFC3339Nano))
	return dbError(err)
}
