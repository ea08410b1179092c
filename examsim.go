// Package examsim holds the domain: languages, learners, attempts and the
// services that store them. It imports nothing of ours; store/ implements the
// services, web/ uses them and only cmd/ wires the two together.
package examsim

import (
	"context"
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

// Attempt is one answer to one question, with its scored explanation.
type Attempt struct {
	ID             int64
	LearnerID      int64
	QuestionID     string
	Lang           Lang
	Choice         string
	Correct        bool
	Explanation    string
	Score          int
	Band           int
	Concepts       []ConceptHit
	Misconceptions []string
	RubricVersion  int
	CreatedAt      time.Time
}

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
}

// AttemptService stores attempts.
type AttemptService interface {
	CreateAttempt(ctx context.Context, a *Attempt) error
	ListAttempts(ctx context.Context, learnerID int64, limit int) ([]*Attempt, error)
	FindAttempt(ctx context.Context, id int64) (*Attempt, error)
}
