package store

import (
	"context"
	"time"

	"github.com/examsim/examsim"
)

// PredictionService is the SQL implementation (SQLite or PostgreSQL) of
// examsim.PredictionService.
type PredictionService struct{ db *DB }

// NewPredictionService returns a PredictionService on db.
func NewPredictionService(db *DB) *PredictionService { return &PredictionService{db: db} }

var _ examsim.PredictionService = (*PredictionService)(nil)

func (s *PredictionService) CreatePrediction(ctx context.Context, p *examsim.Prediction) error {
	if p.CreatedAt.IsZero() {
		p.CreatedAt = s.db.now()
	}
	err := s.db.db.QueryRowContext(ctx, `INSERT INTO predictions
		(learner_id, scenario, agent, generic, decision, predicted, expected, correct, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		p.LearnerID, p.Scenario, p.Agent, p.Generic, p.Decision, p.Predicted, p.Expected, p.Correct,
		p.CreatedAt.Format(time.RFC3339Nano)).Scan(&p.ID)
	if err != nil {
		return dbError(err)
	}
	return nil
}

// ListPredictions returns a learner's predictions, newest first.
func (s *PredictionService) ListPredictions(ctx context.Context, learnerID int64, limit int) ([]*examsim.Prediction, error) {
	rows, err := s.db.db.QueryContext(ctx, `SELECT id, learner_id, scenario, agent, generic, decision, predicted, expected, correct, created_at
		FROM predictions WHERE learner_id = ? ORDER BY id DESC LIMIT ?`, learnerID, limitArg(limit))
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var out []*examsim.Prediction
	for rows.Next() {
		var p examsim.Prediction
		var created string
		if err := rows.Scan(&p.ID, &p.LearnerID, &p.Scenario, &p.Agent, &p.Generic, &p.Decision, &p.Predicted,
			&p.Expected, &p.Correct, &created); err != nil {
			return nil, dbError(err)
		}
		p.CreatedAt, _ = time.Parse(time.RFC3339Nano, created)
		out = append(out, &p)
	}
	return out, dbError(rows.Err())
}
