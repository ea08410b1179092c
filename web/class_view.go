package web

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/classroom"
	"github.com/examsim/examsim/questions"
)

// playView is what a student's page shows.
type playView struct {
	Snap    *classroom.Snapshot
	Me      classroom.PlayerView
	Index   int    // the question on screen
	Variant string // which stage: lobby, question, answered, timeup, reveal, leaderboard, ended, assign, done, closed
	Now     time.Time
	// After is the assignment question just answered, for its feedback; -1 none.
	After int
	// Form state kept across a failed plain-form answer.
	Error       string
	Explanation string
}

// playVariant decides which stage a student sees. Every variant but the
// assignment ones depends only on the room and whether the student has
// answered, so it can be rendered once per language for the whole room.
func playVariant(snap *classroom.Snapshot, me classroom.PlayerView, now time.Time) string {
	run := snap.Run
	if run.Mode == examsim.ModeAssignment {
		switch {
		case me.Next >= len(snap.Questions):
			return "done"
		case !run.EndedAt.IsZero() || now.After(run.Deadline):
			return "closed"
		}
		return "assign"
	}
	switch run.Phase {
	case examsim.PhaseLobby:
		return "lobby"
	case examsim.PhaseQuestion:
		if _, ok := me.Answers[run.QuestionIndex]; ok {
			return "answered"
		}
		if now.After(snap.Deadline) {
			return "timeup"
		}
		return "question"
	case examsim.PhaseReveal:
		return "reveal"
	case examsim.PhaseLeaderboard:
		return "leaderboard"
	}
	return "ended"
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
}

func (v hostView) id() int64 { return v.Snap.Run.ID }

// classText returns a question in the page's language.
func classText(ctx context.Context, q *questions.Question) *questions.Text {
	return q.In(page(ctx).Lang)
}

func idStr(n int64) string { return strconv.FormatInt(n, 10) }

// classSecondsLeft is the whole seconds until t, never negative.
func classSecondsLeft(now, t time.Time) string {
	d := t.Sub(now)
	if d < 0 {
		return "0"
	}
	return strconv.Itoa(int((d + time.Second - 1) / time.Second))
}

func classPercent(n, of int) int {
	if of <= 0 {
		return 0
	}
	return (100*n + of/2) / of
}

// bar is one option in the answer-distribution chart.
type chartBar struct {
	Letter  string
	Count   int
	Percent int
	Right   bool
	Y       int
}

// chartBars lays out the distribution chart of a question: one bar per
// option, in SVG units (the chart is 100 wide).
func chartBars(q *questions.Question, counts map[string]int, reveal bool) []chartBar {
	if q == nil {
		return nil
	}
	tx := q.In(examsim.English)
	total := 0
	for _, n := range counts {
		total += n
	}
	out := make([]chartBar, 0, len(tx.Options))
	for i, o := range tx.Options {
		out = append(out, chartBar{Letter: o.Letter, Count: counts[o.Letter], Percent: classPercent(counts[o.Letter], total),
			Right: reveal && o.Letter == q.Answer, Y: i * 14})
	}
	return out
}

func chartBarsHeight(bars []chartBar) string { return strconv.Itoa(len(bars)*14 + 2) }

// chartBarWidth is a bar's length: the chart keeps 20 units for labels.
func chartBarWidth(b chartBar) string { return strconv.Itoa(max(b.Percent*70/100, 0)) }

func chartBarClass(b chartBar) string {
	if b.Right {
		return "bar right"
	}
	return "bar"
}

// chartSummary says the chart in words, for screen readers.
func chartSummary(ctx context.Context, bars []chartBar) string {
	parts := make([]string, len(bars))
	for i, b := range bars {
		parts[i] = fmt.Sprintf("%s: %d", b.Letter, b.Count)
	}
	return t(ctx, "class.distribution") + ": " + strings.Join(parts, ", ")
}

func topPlayers(ps []classroom.PlayerInfo, n int) []classroom.PlayerInfo {
	if len(ps) > n {
		return ps[:n]
	}
	return ps
}

func classLogText(ctx context.Context, e classroom.LogEntry) string {
	return t(ctx, "class.event_"+e.Event, "Name", e.Nickname)
}

func runTitle(s examsim.ClassRun) string { return s.Quiz.Title }

// endedEarly reports a live room ended before its last question: the host
// pressed End, or deleted their account.
func endedEarly(s *classroom.Snapshot) bool {
	return s.Run.Mode == examsim.ModeLive && s.Run.QuestionIndex < len(s.Questions)-1
}

// langsMissing lists the languages a question lacks, for the builder.
func langsMissing(q *questions.Question) string {
	var out []string
	for _, l := range examsim.Langs {
		if q.Text(l) == nil {
			out = append(out, string(l))
		}
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

func yourAnswer(me classroom.PlayerView, index int) *examsim.ClassAnswer { return me.Answers[index] }

func classBandLabel(ctx context.Context, band int) string { return t(ctx, "band."+strconv.Itoa(band)) }

func classPhaseLabel(ctx context.Context, s *examsim.ClassRun) string {
	if !s.EndedAt.IsZero() {
		return t(ctx, "class.phase_ended")
	}
	if s.Mode == examsim.ModeAssignment {
		return t(ctx, "class.mode_assignment")
	}
	return t(ctx, "class.phase_"+string(s.Phase))
}

// rosterMax is how many players the host's roster lists by name. It is
// redrawn a few times a second, and a projector cannot show 2,000 names
// anyway; the counts above it cover everyone.
const rosterMax = 200

// rosterShown is the part of the roster listed by name, in join order.
func rosterShown(ps []classroom.PlayerInfo) []classroom.PlayerInfo {
	return ps[:min(len(ps), rosterMax)]
}

// optionGlyph is the shape that goes with an option's letter and colour.
func optionGlyph(letter string) string {
	switch letter {
	case "A":
		return "▲"
	case "B":
		return "◆"
	case "C":
		return "●"
	case "D":
		return "■"
	case "E":
		return "★"
	}
	return "⬟"
}

// ringOffset is how much of the countdown ring is used up (0 full, 100 empty).
func ringOffset(now, deadline time.Time, seconds int) string {
	if seconds <= 0 {
		return "100"
	}
	left := deadline.Sub(now).Seconds() / float64(seconds)
	return strconv.Itoa(100 - int(min(max(left, 0), 1)*100))
}

// classInlineHTML unwraps an option rendered as one paragraph, so it can sit
// inside a button, where a paragraph may not.
func classInlineHTML(html string) string {
	s := strings.TrimSpace(html)
	if strings.HasPrefix(s, "<p>") && strings.HasSuffix(s, "</p>") && strings.Count(s, "<p>") == 1 {
		return strings.TrimSuffix(strings.TrimPrefix(s, "<p>"), "</p>")
	}
	return html
}

// joinForm is the join form, kept across a failed submit.
type joinForm struct {
	Code     string
	Nickname string
	Lang     examsim.Lang
	Error    string // already translated
	Kicked   bool
}

// quizForm is the quiz builder's form, kept across filtering and errors.
type quizForm struct {
	ID                         int64
	Title                      string
	Picked                     []string // in asking order
	Seconds                    int
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

func quizTopicTitle(ctx context.Context, tp *questions.Topic) string {
	if ls := tp.Lessons[page(ctx).Lang]; ls != nil && ls.Title != "" {
		return ls.Title
	}
	if ls := tp.Lessons[examsim.English]; ls != nil && ls.Title != "" {
		return ls.Title
	}
	return tp.ID
}

func classBool(b bool) string { return strconv.FormatBool(b) }

func classOnlineClass(b bool) string {
	if b {
		return "online"
	}
	return "offline"
}

func classOnlineText(ctx context.Context, b bool) string {
	if b {
		return t(ctx, "class.status_online")
	}
	return t(ctx, "class.status_offline")
}

func classItemTitle(ctx context.Context, it classroom.QuestionResult) string {
	if it.Question == nil {
		return "?"
	}
	return classText(ctx, it.Question).Title
}

func classDistribution(it classroom.QuestionResult) string {
	letters := make([]string, 0, len(it.Counts))
	for l := range it.Counts {
		letters = append(letters, l)
	}
	sort.Strings(letters)
	parts := make([]string, len(letters))
	for i, l := range letters {
		parts[i] = fmt.Sprintf("%s %d", l, it.Counts[l])
	}
	return strings.Join(parts, " · ")
}

func classAvgBand(ctx context.Context, it classroom.QuestionResult) string {
	if it.AvgBand < 0 {
		return t(ctx, "class.none")
	}
	return strconv.FormatFloat(it.AvgBand, 'f', 1, 64)
}

// misconceptionText says the most common misconception in the page's
// language, with how many explanations showed it.
func misconceptionText(ctx context.Context, it classroom.QuestionResult) string {
	if it.TopMisconception == "" || it.Question == nil {
		return t(ctx, "class.none")
	}
	why := it.TopMisconception
	for _, m := range classText(ctx, it.Question).Rubric.Misconceptions {
		if m.ID == it.TopMisconception && m.Why != "" {
			why = m.Why
		}
	}
	return fmt.Sprintf("%s (%d)", why, it.TopMisconceptionCount)
}
