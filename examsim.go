// Package examsim holds the domain: languages, learners, attempts and the
// services that store them. It imports nothing of ours; store/ implements the
// services, web/ uses them and only cmd/ wires the two together.
package examsim

import (
	"context"
	"fmt"
	"time"
)

// Lang is a language the product speaks, as a BCP 47 base tag.
type Lang string

// The languages every question, lesson and UI string exists in.
const (
	English    Lang = "en"
	Vietnamese Lang = "vi"
	Polish     Lang = "pl"
	Thai       Lang = "th"
)

// Langs lists the supported languages in the order the UI offers them.
var Langs = []Lang{Vietnamese, Polish, Thai, English}

// ParseLang returns the supported language for s, or false.
func ParseLang(s string) (Lang, bool) {
	for _, l := range Langs {
		if string(l) == s {
			return l, true
		}
	}
	return "", false
}

// Learner is a person using examsim: anonymous until they register.
type Learner struct {
	ID        int64
	Username  string // empty while anonymous
	Role      Role
	CreatedAt time.Time
}

// Anonymous reports whether the learner has not registered yet.
func (l *Learner) Anonymous() bool { return l.Username == "" }

// Role decides what a learner may do beyond practising.
type Role string

const (
	RoleLearner    Role = "learner"
	RoleInstructor Role = "instructor"
	RoleAdmin      Role = "admin"
)

// ConceptHit records whether one rubric concept was found in an explanation.
type ConceptHit struct {
	ID  string `json:"id"`
	Hit bool   `json:"hit"`
}

// Answer is what a learner answered to one question, in which language,
// and how the explanation scored: the part every kind of answer shares.
type Answer struct {
	QuestionID  string
	Lang        Lang
	Choice      string
	Correct     bool
	Explanation string
	Verdict
}

// Attempt is one answer to one question, with its scored explanation.
type Attempt struct {
	ID        int64
	LearnerID int64
	Answer
	CreatedAt  time.Time
	Source     Source // where the answer was given
	ExamID     int64  // the exam it was part of, for Source exam
	ClassTitle string // the quiz's title, for Source classroom
}

// Source says where an attempt was made.
type Source string

const (
	SourcePractice  Source = "practice"
	SourceExam      Source = "exam"
	SourceClassroom Source = "classroom"
)

// LearnerService stores learners and their credentials.
type LearnerService interface {
	CreateAnonymous(ctx context.Context) (*Learner, error)
	FindLearner(ctx context.Context, id int64) (*Learner, error)
	// Register gives an anonymous learner a username and password, keeping
	// everything they did anonymously.
	Register(ctx context.Context, id int64, username, password string) (*Learner, error)
	Authenticate(ctx context.Context, username, password string) (*Learner, error)
	// MergeAnonymous moves an anonymous learner's history to an account.
	MergeAnonymous(ctx context.Context, anonID, intoID int64) error
	// DeleteLearner deletes a learner and everything they did, for good.
	DeleteLearner(ctx context.Context, id int64) error
}

// Session timeouts. A session ends when it has not been used for its idle
// timeout, or at the absolute timeout after it began however much it is
// used. An anonymous learner has nothing but the session to get back in, so
// theirs idles longer; an account can always log in again.
const (
	AnonymousSessionIdle = 30 * 24 * time.Hour
	AccountSessionIdle   = 7 * 24 * time.Hour
	SessionLifetime      = 90 * 24 * time.Hour
)

// SessionIdle returns the idle timeout of a learner's sessions.
func SessionIdle(l *Learner) time.Duration {
	if l.Anonymous() {
		return AnonymousSessionIdle
	}
	return AccountSessionIdle
}

// SessionService keeps browser sessions on the server: the browser holds a
// random token, the store only its hash, so a session can be ended for good.
type SessionService interface {
	// CreateSession starts a session for a learner and returns its token.
	CreateSession(ctx context.Context, learnerID int64, now time.Time) (token string, err error)
	// ResumeSession returns the learner of the session with this token and
	// notes that it was used. A token that is unknown, ended or timed out
	// at now is ENOTFOUND.
	ResumeSession(ctx context.Context, token string, now time.Time) (*Learner, error)
	// EndSession ends the session with this token; an unknown one is fine.
	EndSession(ctx context.Context, token string) error
	// EndLearnerSessions ends every session of a learner.
	EndLearnerSessions(ctx context.Context, learnerID int64) error
}

// AttemptService stores attempts.
type AttemptService interface {
	CreateAttempt(ctx context.Context, a *Attempt) error
	ListAttempts(ctx context.Context, learnerID int64, limit int) ([]*Attempt, error)
	FindAttempt(ctx context.Context, id int64) (*Attempt, error)
	// UpdateScore replaces an attempt's automatic verdict (after a rescore,
	// or once a pending score is scored); a teacher's regrade stays.
	UpdateScore(ctx context.Context, a *Attempt) error
}

// AccountService manages registered accounts and their roles, for the
// `examsim user` command and the admin page.
type AccountService interface {
	// CreateAccount registers a new account with a password and a role.
	CreateAccount(ctx context.Context, username, password string, role Role) (*Learner, error)
	SetRole(ctx context.Context, id int64, role Role) error
	// ListAccounts lists registered (not anonymous) learners by username.
	ListAccounts(ctx context.Context) ([]*Learner, error)
}

// ParseRole returns the role named s, or false.
func ParseRole(s string) (Role, bool) {
	switch r := Role(s); r {
	case RoleLearner, RoleInstructor, RoleAdmin:
		return r, true
	}
	return "", false
}

// CanTeach reports whether the learner may build quizzes and host runs of them.
func (l *Learner) CanTeach() bool {
	return l != nil && !l.Anonymous() && (l.Role == RoleInstructor || l.Role == RoleAdmin)
}

// ScoringMode says how a classroom quiz turns a right answer into points.
type ScoringMode string

const (
	ScoreCorrectness ScoringMode = "correctness" // every right answer earns the same
	ScoreSpeed       ScoringMode = "speed"       // a faster right answer earns more
)

// ExplanationMode says whether students write an explanation with each answer.
type ExplanationMode string

const (
	ExplainRequired ExplanationMode = "required"
	ExplainOptional ExplanationMode = "optional"
	ExplainOff      ExplanationMode = "off"
)

// Quiz is an instructor's reusable list of bank questions with its settings.
type Quiz struct {
	ID                 int64
	OwnerID            int64
	Title              string
	QuestionIDs        []string // in the order they are asked
	SecondsPerQuestion int
	Scoring            ScoringMode
	Leaderboard        bool
	Explanations       ExplanationMode
	CreatedAt          time.Time
	UpdatedAt          time.Time
}

// RunMode says who paces a run of a quiz.
type RunMode string

const (
	ModeLive       RunMode = "live"       // the host moves the room question by question
	ModeAssignment RunMode = "assignment" // each student at their own pace until a deadline
)

// Phase is where a live run is.
type Phase string

const (
	PhaseLobby       Phase = "lobby"
	PhaseQuestion    Phase = "question"
	PhaseReveal      Phase = "reveal"
	PhaseLeaderboard Phase = "leaderboard"
	PhaseEnded       Phase = "ended"
)

// ClassRun is one run of a quiz for a room. It keeps a copy of the quiz
// as it was when started, so editing the quiz never changes a running room.
type ClassRun struct {
	ID                int64
	HostID            int64
	Code              string // six digits, unique among runs not ended
	Mode              RunMode
	Quiz              Quiz
	Deadline          time.Time // assignments only
	Locked            bool      // no new players
	Phase             Phase
	QuestionIndex     int // -1 in the lobby
	QuestionStartedAt time.Time
	CreatedAt         time.Time
	EndedAt           time.Time // zero while running
	// Epoch is the room lease the state is written under (RoomLeaseService):
	// a write under an epoch that is no longer the lease's is refused, so an
	// owner that lost its room cannot overwrite its successor. 0: unfenced
	// (one instance).
	Epoch int64
}

// Player is a student in a run of a quiz.
type Player struct {
	ID         int64
	RunID      int64
	Nickname   string
	Lang       Lang
	LearnerID  int64  // 0 when the student had no examsim identity
	RejoinHash []byte // SHA-256 of the rejoin token kept in the student's cookie
	Kicked     bool
	JoinedAt   time.Time
	// Epoch fences the join as ClassRun.Epoch fences the run's state.
	Epoch int64
}

// ClassAnswer is one student's answer to one question of a run.
type ClassAnswer struct {
	ID            int64
	RunID         int64
	PlayerID      int64
	QuestionIndex int
	Answer        // its Verdict has zero scores when there is no explanation
	ElapsedMS     int64
	Points        int
	CreatedAt     time.Time
	// Epoch fences the answer as ClassRun.Epoch fences the run's state.
	Epoch int64
}

// ClassroomService stores quizzes, their runs, players and their answers.
type ClassroomService interface {
	CreateQuiz(ctx context.Context, q *Quiz) error
	UpdateQuiz(ctx context.Context, q *Quiz) error
	FindQuiz(ctx context.Context, id int64) (*Quiz, error)
	ListQuizzes(ctx context.Context, ownerID int64) ([]*Quiz, error)

	// CreateRun stores a new run of a quiz (kept in the class_sessions
	// table, an older name) and gives it a free join code. A session is a
	// browser login: see SessionService.
	CreateRun(ctx context.Context, run *ClassRun) error
	FindRun(ctx context.Context, id int64) (*ClassRun, error)
	// FindRunByCode finds the run not ended with a join code.
	FindRunByCode(ctx context.Context, code string) (*ClassRun, error)
	ListRuns(ctx context.Context, hostID int64, limit int) ([]*ClassRun, error)
	// UpdateRunStates stores each run's phase, question, lock and end in
	// one transaction, so rooms that change at once share one commit. A
	// run whose lease has moved on is refused on its own and the rest are
	// stored: the error is then a BatchErrors. Any other error means none
	// was stored.
	UpdateRunStates(ctx context.Context, runs []*ClassRun) error

	// CreatePlayer, KickPlayer and SetPlayerLang are fenced by the room's
	// lease epoch (p.Epoch, epoch) as UpdateRunStates is by run.Epoch.
	CreatePlayer(ctx context.Context, p *Player) error
	ListPlayers(ctx context.Context, runID int64) ([]*Player, error)
	KickPlayer(ctx context.Context, runID, epoch, playerID int64) error
	// SetPlayerLang changes the language a player sees the questions in.
	SetPlayerLang(ctx context.Context, runID, epoch, playerID int64, lang Lang) error

	// SaveAnswers stores a batch of answers in one transaction. An answer
	// the database refuses (its room or player is gone) is left out on its
	// own and the rest are stored: the error is then a BatchErrors. Any
	// other error means none of the batch was stored.
	SaveAnswers(ctx context.Context, answers []*ClassAnswer) error
	ListAnswers(ctx context.Context, runID int64) ([]*ClassAnswer, error)
}

// RoomLease says which instance owns a live room when many instances serve
// one database: only the owner keeps the room in memory; the others forward
// its requests to Address. Epoch grows by one each time the room changes
// hands.
type RoomLease struct {
	RunID    int64
	Instance string
	Address  string
	Epoch    int64
	Expires  time.Time
}

// RoomLeaseService keeps the room leases (PostgreSQL only).
type RoomLeaseService interface {
	// ClaimRoom takes the room's lease for instance if it is free, expired
	// or already instance's (renewing it), and returns the lease as it now
	// stands: the caller owns the room when the returned Instance is its own.
	ClaimRoom(ctx context.Context, runID int64, instance, address string, ttl time.Duration) (RoomLease, error)
	// RenewRooms extends every unexpired lease instance holds and returns
	// the rooms renewed; a room of instance's not among them is lost.
	RenewRooms(ctx context.Context, instance string, ttl time.Duration) ([]int64, error)
	// ReleaseRooms lets instance's leases go at once (a clean shutdown).
	ReleaseRooms(ctx context.Context, instance string) error
}

// BatchErrors says which items of a batch were refused: one entry per item
// (an answer, a run's state), nil for each one that was stored.
type BatchErrors []error

func (e BatchErrors) Error() string {
	n, first := 0, error(nil)
	for _, err := range e {
		if err != nil {
			if first == nil {
				first = err
			}
			n++
		}
	}
	return fmt.Sprintf("%d of %d refused; first: %v", n, len(e), first)
}

// Unwrap gives the refusals, so errors.As finds why an item was refused.
func (e BatchErrors) Unwrap() []error { return e }

// Prediction is a learner's guess, in the sandbox, of what an agent should
// do with a tool result before the agent's move is shown.
type Prediction struct {
	ID        int64
	LearnerID int64
	Scenario  string // a sandbox scenario id
	Agent     string // the agent watched: structured or naive
	Generic   bool   // whether the tools answered failures with a bare "Operation failed"
	Decision  int    // which decision of the run, from 1
	Predicted string // the move the learner picked
	Expected  string // the move the lessons' policy makes
	Correct   bool
	CreatedAt time.Time
}

// PredictionService stores sandbox predictions.
type PredictionService interface {
	CreatePrediction(ctx context.Context, p *Prediction) error
	// ListPredictions returns a learner's predictions, newest first.
	ListPredictions(ctx context.Context, learnerID int64, limit int) ([]*Prediction, error)
}
