package examsim

import (
	"context"
	"time"
	"unicode/utf8"
)

// TargetKind says which kind of scored explanation a flag or regrade is on.
type TargetKind string

const (
	// TargetAttempt is a practice or exam attempt (a submitted exam's items
	// are attempts, so flagging an exam item flags its attempt).
	TargetAttempt TargetKind = "attempt"
	// TargetClassAnswer is a student's answer in a classroom session.
	TargetClassAnswer TargetKind = "answer"
)

// ParseTargetKind returns the kind named s, or false.
func ParseTargetKind(s string) (TargetKind, bool) {
	switch k := TargetKind(s); k {
	case TargetAttempt, TargetClassAnswer:
		return k, true
	}
	return "", false
}

// Target names one scored explanation.
type Target struct {
	Kind TargetKind
	ID   int64
}

// MaxFlagComment is the longest comment a learner may add to a flag, in
// characters.
const MaxFlagComment = 1000

// Flag is a learner saying an explanation's automatic score is wrong.
// There is one per explanation: flagging again refreshes it.
type Flag struct {
	Target    Target
	LearnerID int64
	Comment   string
	CreatedAt time.Time
	// ResolvedAt is when a teacher regraded the explanation after the flag;
	// zero while the flag waits in the review queue.
	ResolvedAt time.Time
}

// Open reports whether the flag still waits for a teacher.
func (f *Flag) Open() bool { return f != nil && f.ResolvedAt.IsZero() }

// CheckFlagComment refuses a comment over MaxFlagComment characters.
func CheckFlagComment(s string) error {
	if utf8.RuneCountInString(s) > MaxFlagComment {
		return E(ETOOLARGE, "dispute.error_comment_too_long", "Max", MaxFlagComment)
	}
	return nil
}

// HumanGrade is a teacher's band for an explanation. It is kept beside the
// automatic score and, where present, is the band that counts.
type HumanGrade struct {
	Target   Target
	Band     int          // 0-3, as the band definitions say
	Concepts []ConceptHit // the teacher's ticks, one per rubric concept
	GraderID int64        // 0 once the grader's account is gone
	GradedAt time.Time
	// Note is the teacher's word back to the learner, shown beside the
	// regraded band; empty when they wrote none.
	Note string
}

// MaxTeacherNote is the longest note a teacher may write back, in characters.
const MaxTeacherNote = 1000

// CheckTeacherNote refuses a note over MaxTeacherNote characters.
func CheckTeacherNote(s string) error {
	if utf8.RuneCountInString(s) > MaxTeacherNote {
		return E(ETOOLARGE, "grading.error_note_too_long", "Max", MaxTeacherNote, "Length", utf8.RuneCountInString(s))
	}
	return nil
}

// CheckBand refuses a band outside 0-3.
func CheckBand(band int) error {
	if band < 0 || band > 3 {
		return E(EINVALID, "grading.error_band")
	}
	return nil
}

// Gradable is a scored explanation as the review queue and the regrade form
// show it, whichever kind it is.
type Gradable struct {
	Target    Target
	LearnerID int64  // 0 for a classroom player without an examsim identity
	Name      string // the learner's username or the player's nickname; may be empty
	Answer
	CreatedAt time.Time
	Flag      *Flag // nil when never flagged
}

// GradingScope says whose explanations a teacher may regrade: an admin
// everyone's, an instructor those from the classes they host or whose quiz
// they own, and the other answers of the students who joined those classes.
type GradingScope struct {
	TeacherID int64
	All       bool
}

// ScopeOf returns the grading scope of a teacher.
func ScopeOf(l *Learner) GradingScope {
	return GradingScope{TeacherID: l.ID, All: l.Role == RoleAdmin}
}

// DisputeService stores flags and teachers' regrades.
type DisputeService interface {
	// FlagScore records a learner's flag on one of their own explanations.
	// It is idempotent: a second flag refreshes the first (a new comment
	// replaces the old one; an empty one keeps it) and reopens it.
	FlagScore(ctx context.Context, f *Flag) error
	// FindFlag returns the flag on target, or nil when there is none.
	FindFlag(ctx context.Context, t Target) (*Flag, error)
	// Regrade stores a teacher's band and ticks for target, replacing an
	// earlier regrade, resolves its flag and, for an attempt, re-plans the
	// learner's spaced review with the new band.
	Regrade(ctx context.Context, g *HumanGrade) error
	// FindGradable returns target if it lies in scope, else ENOTFOUND.
	FindGradable(ctx context.Context, t Target, scope GradingScope) (*Gradable, error)
	// ListGradable returns, in scope, every explanation with an open flag
	// and the latest limit explanations scored unsure (confidence below
	// UnsureBelow) and not yet regraded, newest first.
	ListGradable(ctx context.Context, scope GradingScope, limit int) ([]*Gradable, error)
	// ListRegraded returns every regraded explanation, oldest regrade first.
	ListRegraded(ctx context.Context) ([]*Gradable, error)
}
