package examsim

import "context"

// Services are every service the app stores through, as one database
// provides them (store.NewServices); a new service is added here and there.
type Services struct {
	Learners    LearnerService
	Sessions    SessionService
	Attempts    AttemptService
	Exams       ExamService
	Reviews     ReviewService
	Predictions PredictionService
	Classes     ClassroomService
	Accounts    AccountService
	Disputes    DisputeService
	ItemStats   ResponseSource
	Authored    AuthoredQuestionService
	// Ping reports whether the storage answers.
	Ping func(context.Context) error
}
