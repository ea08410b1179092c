package examsim

import (
	"context"
	"time"
)

// AuthoredQuestion is a question a teacher wrote in the app or imported: the
// bank's question model (questions/FORMAT.md) kept in the database. Unlike a
// bank question it may exist in only some languages and may have no rubric
// (its explanations are then kept and shown to the teacher unscored).
type AuthoredQuestion struct {
	// ID is the id it is answered, counted and exported under: lowercase
	// words joined by hyphens, unique across the bank and every teacher.
	ID           string
	AuthorID     int64
	Shared       bool // the instance's other instructors may see and use it
	Version      int  // raised on every edit; an answer keeps the version it was scored against
	Topic        string
	Concepts     []string // concept ids from the topic
	Difficulty   string   // easy | medium | hard
	Answer       string   // the keyed option's letter
	LessonSource string   // the topic concept whose lesson section supports the key, or ""
	Texts        map[Lang]*AuthoredText
	Rubric       *AuthoredRubric // nil: no rubric, explanations are not scored
	UpdatedAt    time.Time
}

// AuthoredText is what a learner reads of an authored question in one language.
type AuthoredText struct {
	Title   string
	Stem    string // Markdown
	Options []AuthoredOption
}

// AuthoredOption is one answer choice and why it is right or wrong.
type AuthoredOption struct {
	Letter      string // A, B, … in order
	Text        string // Markdown
	Explanation string // Markdown
}

// AuthoredRubric is a pattern rubric as the bank writes it: language-neutral
// ids, roles and numbers, with each language's hint and patterns.
type AuthoredRubric struct {
	Concepts       []AuthoredRule
	Misconceptions []AuthoredRule
}

// AuthoredRule is one rubric concept or misconception.
type AuthoredRule struct {
	ID       string
	Role     string            // concepts: decisive | supporting | conclusion
	Weight   int               // concepts: 0 for the role's default
	Penalty  int               // misconceptions: 0 for the default
	Notes    map[Lang]string   // a concept's hint or a misconception's why, per language
	Patterns map[Lang][]string // per language
}

// Langs lists the languages the question is written in, in the UI's order.
func (q *AuthoredQuestion) Langs() []Lang {
	var out []Lang
	for _, l := range Langs {
		if q.Texts[l] != nil {
			out = append(out, l)
		}
	}
	return out
}

// RubricSample is a sample explanation a teacher saved for a question: its
// own regression set, re-scored whenever the rubric changes.
type RubricSample struct {
	ID       int64
	Lang     Lang
	Text     string
	Expected int // the band the teacher expects, 0–3
}

// AuthoredQuestionService stores teachers' questions with every version.
type AuthoredQuestionService interface {
	// Create stores a new question as version 1 under q.AuthorID; an id in
	// use is an ECONFLICT error.
	Create(ctx context.Context, q *AuthoredQuestion) error
	// Update stores q as a new version when the caller's version (q.Version)
	// is the latest, and raises q.Version; an edit made meanwhile is
	// ECONFLICT. Only the author may update.
	Update(ctx context.Context, editor int64, q *AuthoredQuestion) error
	// Get returns the latest version of the question, if viewer may see it.
	Get(ctx context.Context, viewer *Learner, id string) (*AuthoredQuestion, error)
	// Current returns the latest version, whoever asks and even when the
	// question was deleted: a quiz that uses it, its results and its
	// grading go on showing it.
	Current(ctx context.Context, id string) (*AuthoredQuestion, error)
	// GetVersion returns one version, whoever asks: an answer scored against
	// it must stay explainable.
	GetVersion(ctx context.Context, id string, version int) (*AuthoredQuestion, error)
	// Visible lists the latest versions the viewer may use: their own and
	// those shared with the instance's instructors.
	Visible(ctx context.Context, viewer *Learner) ([]*AuthoredQuestion, error)
	// SetShared shares the question with the other instructors, or stops.
	SetShared(ctx context.Context, author int64, id string, shared bool) error
	// Delete removes the question from use; versions that have answers stay
	// readable through GetVersion.
	Delete(ctx context.Context, author int64, id string) error
	// Samples lists the question's saved sample explanations.
	Samples(ctx context.Context, id string) ([]RubricSample, error)
	// SetSamples replaces the question's sample explanations.
	SetSamples(ctx context.Context, author int64, id string, samples []RubricSample) error
}
