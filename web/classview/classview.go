// Package classview owns what the classroom screens (the host's projector,
// a student's phone, the quiz builder and a run's results) show, worked out
// from a room's snapshot, a student's own view or a run's results: the stage
// a student sees, the bars of the answer chart, the podium and leaderboard,
// the part of the roster listed by name, countdowns, and the cells of the
// results tables. Its functions are pure: no request, no language catalog,
// no HTML. Labels come back as message ids, so package web translates them
// and its templates render the markup.
package classview

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/classroom"
	"github.com/examsim/examsim/questions"
)

// Stage is the stage a student sees; its value is also the page's
// data-phase and the phase of the state event the load generator reads.
type Stage string

// The stages of a live room, then of an assignment.
const (
	StageLobby       Stage = "lobby"
	StageQuestion    Stage = "question"
	StageAnswered    Stage = "answered"
	StageTimeUp      Stage = "timeup"
	StageReveal      Stage = "reveal"
	StageLeaderboard Stage = "leaderboard"
	StageEnded       Stage = "ended"
	StageAssign      Stage = "assign"
	StageDone        Stage = "done"
	StageClosed      Stage = "closed"
)

// StageOf decides which stage a student sees: lobby, question, answered,
// timeup, reveal, leaderboard or ended in a live room; assign, done or
// closed in an assignment. Every live stage depends only on the room and
// whether the student has answered, so it can be rendered once per language
// for the whole room.
func StageOf(snap *classroom.Snapshot, me classroom.PlayerView, now time.Time) Stage {
	run := snap.Run
	if run.Mode == examsim.ModeAssignment {
		switch {
		case me.Next >= len(snap.Questions):
			return StageDone
		case !run.EndedAt.IsZero() || now.After(run.Deadline):
			return StageClosed
		}
		return StageAssign
	}
	switch run.Phase {
	case examsim.PhaseLobby:
		return StageLobby
	case examsim.PhaseQuestion:
		if me.Answer(run.QuestionIndex) != nil {
			return StageAnswered
		}
		if now.After(snap.Deadline) {
			return StageTimeUp
		}
		return StageQuestion
	case examsim.PhaseReveal:
		return StageReveal
	case examsim.PhaseLeaderboard:
		return StageLeaderboard
	}
	return StageEnded
}

// Title is the title a run shows: its quiz's as it was when started.
func Title(run examsim.ClassRun) string { return run.Quiz.Title }

// PhaseLabel is the message id of where a run is, for the host's list.
func PhaseLabel(run *examsim.ClassRun) string {
	if !run.EndedAt.IsZero() {
		return "class.phase_ended"
	}
	if run.Mode == examsim.ModeAssignment {
		return "class.mode_assignment"
	}
	return "class.phase_" + string(run.Phase)
}

// EndedEarly reports a live room ended before its last question: the host
// pressed End, or deleted their account.
func EndedEarly(snap *classroom.Snapshot) bool {
	return snap.Run.Mode == examsim.ModeLive && snap.Run.QuestionIndex < len(snap.Questions)-1
}

// SecondsLeft is the whole seconds until t, never negative.
func SecondsLeft(now, t time.Time) string {
	d := t.Sub(now)
	if d < 0 {
		return "0"
	}
	return strconv.Itoa(int((d + time.Second - 1) / time.Second))
}

// RingOffset is how much of the countdown ring is used up (0 full, 100 empty).
func RingOffset(now, deadline time.Time, seconds int) string {
	if seconds <= 0 {
		return "100"
	}
	left := deadline.Sub(now).Seconds() / float64(seconds)
	return strconv.Itoa(100 - int(min(max(left, 0), 1)*100))
}

// Percent is n of a whole, rounded; 0 of nothing.
func Percent(n, of int) int {
	if of <= 0 {
		return 0
	}
	return (100*n + of/2) / of
}

// Podium is the first three of a room's ranking.
func Podium(snap *classroom.Snapshot) []classroom.PlayerInfo { return Leaderboard(snap, 3) }

// Leaderboard is the first n of a room's ranking.
func Leaderboard(snap *classroom.Snapshot, n int) []classroom.PlayerInfo {
	return snap.Ranking[:min(len(snap.Ranking), n)]
}

// RosterMax is how many players the host's roster lists by name. It is
// redrawn a few times a second, and a projector cannot show 2,000 names
// anyway; the counts above it cover everyone.
const RosterMax = 200

// Roster is the part of the roster listed by name, in join order.
func Roster(ps []classroom.PlayerInfo) []classroom.PlayerInfo {
	return ps[:min(len(ps), RosterMax)]
}

// Unlisted is how many players the roster does not list by name.
func Unlisted(ps []classroom.PlayerInfo) int { return len(ps) - len(Roster(ps)) }

// Presence is "online" or "offline": a roster dot's class, and the end of
// its message id (class.status_online).
func Presence(online bool) string {
	if online {
		return "online"
	}
	return "offline"
}

// LogMessage is the message id of an entry of the host's log; the entry's
// nickname fills its Name.
func LogMessage(e classroom.LogEntry) string { return "class.event_" + e.Event }

// Glyph is the shape that goes with an option's letter and colour, so the
// options differ by more than colour.
func Glyph(letter string) string {
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

// OptionOrder is the order in which one student's phone shows a question's
// options (own letters, in the question's order, in), shuffled by the exam's
// rule (examsim.ShuffleExam) with a seed made of the run, the student and
// the question's place in the quiz: a reconnect or a restart shows the same
// order, and nothing needs storing. Each option keeps its own letter, shape
// and colour wherever it moves, as on the projector and in the reveal.
func OptionOrder(run, player int64, index int, letters []string) []string {
	h := fnv.New64a()
	// A slice, not an array: binary.Write encodes it alike, without reflection
	// (every phone a Next wakes asks). A hash never fails to write.
	_ = binary.Write(h, binary.LittleEndian, []int64{run, player, int64(index)})
	seed := int64(h.Sum64()) // #nosec G115 -- the hash's bits, reinterpreted as a seed
	return examsim.ShuffleExam(seed, []string{""}, 1, func(string) []string { return letters })[0].Options
}

// InlineHTML unwraps an option rendered as one paragraph, so it can sit
// inside a button, where a paragraph may not.
func InlineHTML(html string) string {
	s := strings.TrimSpace(html)
	if strings.HasPrefix(s, "<p>") && strings.HasSuffix(s, "</p>") && strings.Count(s, "<p>") == 1 {
		return strings.TrimSuffix(strings.TrimPrefix(s, "<p>"), "</p>")
	}
	return html
}

// MissingLangs lists the languages a question lacks, for the builder.
func MissingLangs(q *questions.Question) string {
	var out []string
	for _, l := range examsim.Langs {
		if q.Text(l) == nil {
			out = append(out, string(l))
		}
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// ItemTitle is a results row's question title in lang, "?" for a question
// the bank no longer has.
func ItemTitle(it classroom.QuestionResult, lang examsim.Lang) string {
	if it.Question == nil {
		return "?"
	}
	return it.Question.In(lang).Title
}

// Distribution is how a question was answered, by letter: "A 3 · C 1".
func Distribution(it classroom.QuestionResult) string {
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

// AvgBand is a question's mean explanation band to one decimal, "" when
// nobody explained.
func AvgBand(it classroom.QuestionResult) string {
	if it.AvgBand < 0 {
		return ""
	}
	return strconv.FormatFloat(it.AvgBand, 'f', 1, 64)
}

// Misconception is a question's most common misconception in lang, with
// how many explanations showed it; "" when there is none.
func Misconception(it classroom.QuestionResult, lang examsim.Lang) string {
	if it.TopMisconception == "" || it.Question == nil {
		return ""
	}
	why := it.TopMisconception
	for _, m := range it.Question.In(lang).Rubric().Misconceptions {
		if m.ID == it.TopMisconception && m.Why != "" {
			why = m.Why
		}
	}
	return fmt.Sprintf("%s (%d)", why, it.TopMisconceptionCount)
}

// ThaiScript reports whether a name is written in Thai script: its glyphs
// are drawn smaller for the same font size, so the projector sizes it up.
func ThaiScript(name string) bool {
	for _, r := range name {
		if unicode.Is(unicode.Thai, r) {
			return true
		}
	}
	return false
}

// PlayerName is the nickname of a run's player, "" when the run has no
// such player.
func PlayerName(res *classroom.Results, id int64) string {
	if p := res.Players[id]; p != nil {
		return p.Nickname
	}
	return ""
}
