package web

import (
	"context"
	"strconv"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/classroom"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/web/classview"
)

// playView is what a student's page shows.
type playView struct {
	Snap    *classroom.Snapshot
	Me      classroom.PlayerView
	Index   int    // the question on screen
	Variant string // the stage the student sees: see classview.Stage
	Now     time.Time
	// Order is the student's own order of the question's options: see classview.OptionOrder.
	Order []string
	// After is the assignment question just answered, for its feedback; -1 none.
	After int
	// Form state kept across a failed plain-form answer.
	Error       string
	Explanation string
}

// newPlayView is a student's page at now: the stage they see and the
// question on it, the room's in a live room, their next in an assignment.
func newPlayView(snap *classroom.Snapshot, me classroom.PlayerView, now time.Time) playView {
	v := playView{Snap: snap, Me: me, Now: now, After: -1, Index: snap.Run.QuestionIndex, Variant: classview.Stage(snap, me, now)}
	if snap.Run.Mode == examsim.ModeAssignment {
		v.Index = me.Next
	}
	if q := v.question(); q != nil && (v.Variant == "question" || v.Variant == "assign") {
		v.Order = classview.OptionOrder(snap.Run.ID, me.Player.ID, v.Index, ownLetters(q))
	}
	return v
}

func (v playView) question() *questions.Question {
	if v.Index >= 0 && v.Index < len(v.Snap.Questions) {
		return v.Snap.Questions[v.Index]
	}
	return nil
}

// hostView is what the host's screen shows.
type hostView struct {
	Snap    *classroom.Snapshot
	JoinURL string
	Now     time.Time
	// Preview is a bank question shown as the projector would show it,
	// outside any room: no event stream, nothing to control.
	Preview bool
	// Reach, when set, warns that phones cannot open JoinURL.
	Reach *reachView
}

// reachView is the warning on the presenter screen when the join URL is
// on a loopback address: ListenOnly when the server listens on loopback
// only (it must be restarted on the LAN), URLs the machine's LAN addresses
// with the port to open instead.
type reachView struct {
	ListenOnly bool
	Port       string
	URLs       []string
}

func (v hostView) id() int64 { return v.Snap.Run.ID }

func idStr(n int64) string { return strconv.FormatInt(n, 10) }

// joinForm is the join form, kept across a failed submit.
type joinForm struct {
	Code     string
	Nickname string
	Lang     examsim.Lang
	Error    string // already translated
	// Errors are the form's other problems, each already translated: a
	// wrong code and a bad nickname are reported together.
	Errors []string
	Kicked bool
}

// quizForm is the quiz builder's form, kept across filtering and errors.
type quizForm struct {
	ID      int64
	Title   string
	Picked  []string // in asking order
	Seconds int
	// AutoSeconds sets Seconds on save from the reading time of the
	// longest picked question (examsim.ReadingSeconds).
	AutoSeconds                bool
	Scoring                    string
	Leaderboard                bool
	Explanations               string
	Topic, Concept, Difficulty string // the bank filter
	Error                      string
	Saved                      bool
}

type builderView struct {
	Form   quizForm
	Topics []*questions.Topic
	Rows   []*questions.Question // picked first, in order, then the filtered rest
}

func (v builderView) action() string {
	if v.Form.ID != 0 {
		return "/class/quizzes/" + idStr(v.Form.ID)
	}
	return "/class/quizzes"
}

func (v builderView) order(id string) int {
	for i, p := range v.Form.Picked {
		if p == id {
			return i + 1
		}
	}
	return 0
}

func (v builderView) orderValue(id string) string {
	if n := v.order(id); n > 0 {
		return strconv.Itoa(n)
	}
	return ""
}

// orNone is s, or the page's word for none when s is empty.
func orNone(ctx context.Context, s string) string {
	if s == "" {
		return t(ctx, "class.none")
	}
	return s
}
