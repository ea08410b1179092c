package store

import (
	"context"
	"strconv"

	"github.com/examsim/examsim"
)

// ItemStatsService reads the answers item statistics are computed from.
type ItemStatsService struct{ db *DB }

// NewItemStatsService returns the service over db.
func NewItemStatsService(db *DB) *ItemStatsService { return &ItemStatsService{db: db} }

// Responses returns every stored answer to a question, oldest first per
// source: practice, exam and signed-in classroom answers from attempts
// (the classroom copies those into the learner's history), and anonymous
// classroom players' answers from class_answers. A learner is one
// respondent however they answered; an anonymous player is one per room.
// A learner without an account counts once they joined a class or have
// answered examsim.MinAnonymousHistory questions.
func (s *ItemStatsService) Responses(ctx context.Context) ([]examsim.Response, error) {
	var out []examsim.Response
	read := func(prefix, query string) error {
		rows, err := s.db.db.QueryContext(ctx, query)
		if err != nil {
			return dbError(err)
		}
		defer rows.Close()
		for rows.Next() {
			var who int64
			var r examsim.Response
			if err := rows.Scan(&who, &r.QuestionID, &r.Choice, &r.Correct); err != nil {
				return dbError(err)
			}
			r.Respondent = prefix + strconv.FormatInt(who, 10)
			out = append(out, r)
		}
		return dbError(rows.Err())
	}
	// Only answers with weight count (examsim.MinAnonymousHistory): an
	// account's, a class member's, or an anonymous learner's with history.
	if err := read("learner:", `SELECT a.learner_id, a.question_id, a.choice, a.correct FROM attempts a
		JOIN learners l ON l.id = a.learner_id
		WHERE l.username IS NOT NULL
		   OR a.learner_id IN (SELECT learner_id FROM class_players WHERE learner_id IS NOT NULL)
		   OR a.learner_id IN (SELECT learner_id FROM attempts GROUP BY learner_id
		                       HAVING count(DISTINCT question_id) >= `+strconv.Itoa(examsim.MinAnonymousHistory)+`)
		ORDER BY a.created_at, a.id`); err != nil {
		return nil, err
	}
	if err := read("player:", `SELECT a.player_id, a.question_id, a.choice, a.correct FROM class_answers a
		JOIN class_players p ON p.id = a.player_id WHERE p.learner_id IS NULL ORDER BY a.created_at, a.id`); err != nil {
		return nil, err
	}
	return out, nil
}
