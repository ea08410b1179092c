package store

import "github.com/examsim/examsim"

// NewServices is every service of db, the one place the app's storage is
// wired: the server and the test harness both start from it.
func NewServices(db *DB) examsim.Services {
	return examsim.Services{
		Learners: NewLearnerService(db), Sessions: NewSessionService(db), Attempts: NewAttemptService(db),
		Exams: NewExamService(db), Reviews: NewReviewService(db), Predictions: NewPredictionService(db),
		Classes: NewClassroomService(db), Accounts: NewLearnerService(db), Disputes: NewDisputeService(db),
		ItemStats: NewItemStatsService(db), Authored: NewAuthoredQuestionService(db), Ping: db.Ping,
	}
}
