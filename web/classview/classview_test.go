package classview_test

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/classroom"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/scoring"
	"github.com/examsim/examsim/web/classview"
)

var t0 = time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)

// question is a question with options A to D in English and Polish; C is right.
func question() *questions.Question {
	opts := []questions.Option{{Letter: "A"}, {Letter: "B"}, {Letter: "C"}, {Letter: "D"}}
	return &questions.Question{ID: "q", Answer: "C", Texts: map[examsim.Lang]*questions.Text{
		examsim.English: {Title: "Retry or not", Options: opts},
		examsim.Polish:  {Title: "Ponowić czy nie", Options: opts},
	}}
}

func TestStage(t *testing.T) {
	qs := []*questions.Question{question(), question()}
	answered := []*examsim.ClassAnswer{{Answer: examsim.Answer{Choice: "A"}}, nil}
	live := func(phase examsim.Phase, deadline time.Time) *classroom.Snapshot {
		return &classroom.Snapshot{Run: examsim.ClassRun{Mode: examsim.ModeLive, Phase: phase}, Questions: qs, Deadline: deadline}
	}
	assignment := func(deadline, ended time.Time) *classroom.Snapshot {
		return &classroom.Snapshot{Run: examsim.ClassRun{Mode: examsim.ModeAssignment, Deadline: deadline, EndedAt: ended}, Questions: qs}
	}
	for _, tc := range []struct {
		name string
		snap *classroom.Snapshot
		me   classroom.PlayerView
		want classview.Stage
	}{
		{"lobby", live(examsim.PhaseLobby, time.Time{}), classroom.PlayerView{}, "lobby"},
		{"question open", live(examsim.PhaseQuestion, t0.Add(time.Second)), classroom.PlayerView{}, "question"},
		{"question answered", live(examsim.PhaseQuestion, t0.Add(time.Second)), classroom.PlayerView{Answers: answered}, "answered"},
		{"time up unanswered", live(examsim.PhaseQuestion, t0.Add(-time.Second)), classroom.PlayerView{}, "timeup"},
		{"reveal", live(examsim.PhaseReveal, time.Time{}), classroom.PlayerView{}, "reveal"},
		{"leaderboard", live(examsim.PhaseLeaderboard, time.Time{}), classroom.PlayerView{}, "leaderboard"},
		{"ended", live(examsim.PhaseEnded, time.Time{}), classroom.PlayerView{}, "ended"},
		{"assignment to do", assignment(t0.Add(time.Hour), time.Time{}), classroom.PlayerView{Next: 1}, "assign"},
		{"assignment past its deadline", assignment(t0.Add(-time.Hour), time.Time{}), classroom.PlayerView{Next: 1}, "closed"},
		{"assignment ended by the host", assignment(t0.Add(time.Hour), t0), classroom.PlayerView{Next: 1}, "closed"},
		{"assignment finished, even when closed", assignment(t0.Add(-time.Hour), t0), classroom.PlayerView{Next: 2}, "done"},
	} {
		if got := classview.StageOf(tc.snap, tc.me, t0); got != tc.want {
			t.Errorf("%s: stage %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestPhaseLabel(t *testing.T) {
	for _, tc := range []struct {
		run  examsim.ClassRun
		want string
	}{
		{examsim.ClassRun{Mode: examsim.ModeLive, Phase: examsim.PhaseReveal}, "class.phase_reveal"},
		{examsim.ClassRun{Mode: examsim.ModeAssignment, Phase: examsim.PhaseQuestion}, "class.mode_assignment"},
		{examsim.ClassRun{Mode: examsim.ModeAssignment, EndedAt: t0}, "class.phase_ended"},
		{examsim.ClassRun{Mode: examsim.ModeLive, Phase: examsim.PhaseQuestion, EndedAt: t0}, "class.phase_ended"},
	} {
		if got := classview.PhaseLabel(&tc.run); got != tc.want {
			t.Errorf("%s %s ended %v: %q, want %q", tc.run.Mode, tc.run.Phase, !tc.run.EndedAt.IsZero(), got, tc.want)
		}
	}
}

func TestEndedEarly(t *testing.T) {
	qs := []*questions.Question{question(), question(), question()}
	for _, tc := range []struct {
		mode  examsim.RunMode
		index int
		want  bool
	}{
		{examsim.ModeLive, -1, true}, // ended from the lobby
		{examsim.ModeLive, 1, true},
		{examsim.ModeLive, 2, false}, // the last question was asked
		{examsim.ModeAssignment, 0, false},
	} {
		snap := &classroom.Snapshot{Run: examsim.ClassRun{Mode: tc.mode, QuestionIndex: tc.index}, Questions: qs}
		if got := classview.EndedEarly(snap); got != tc.want {
			t.Errorf("%s at question %d of 3: ended early %v, want %v", tc.mode, tc.index, got, tc.want)
		}
	}
}

func TestSecondsLeftAndRing(t *testing.T) {
	for _, tc := range []struct {
		left     time.Duration
		seconds  int
		want     string
		wantRing string
	}{
		{20 * time.Second, 20, "20", "0"},
		{9500 * time.Millisecond, 20, "10", "53"}, // a part second counts as a whole one
		{time.Millisecond, 20, "1", "100"},
		{0, 20, "0", "100"},
		{-3 * time.Second, 20, "0", "100"},
		{30 * time.Second, 20, "30", "0"}, // more time than the question: a full ring
		{5 * time.Second, 0, "5", "100"},
	} {
		if got := classview.SecondsLeft(t0, t0.Add(tc.left)); got != tc.want {
			t.Errorf("%v left: %q seconds, want %q", tc.left, got, tc.want)
		}
		if got := classview.RingOffset(t0, t0.Add(tc.left), tc.seconds); got != tc.wantRing {
			t.Errorf("%v left of %d s: ring offset %q, want %q", tc.left, tc.seconds, got, tc.wantRing)
		}
	}
}

func TestPercent(t *testing.T) {
	for _, tc := range []struct{ n, of, want int }{
		{0, 0, 0}, {3, 0, 0}, {1, 3, 33}, {2, 3, 67}, {1, 2, 50}, {1, 200, 1}, {1, 201, 0}, {4, 4, 100},
	} {
		if got := classview.Percent(tc.n, tc.of); got != tc.want {
			t.Errorf("Percent(%d, %d) = %d, want %d", tc.n, tc.of, got, tc.want)
		}
	}
}

func TestBars(t *testing.T) {
	if got := classview.Bars(nil, map[string]int{"A": 1}, true); got != nil {
		t.Errorf("no question: %v, want no bars", got)
	}
	counts := map[string]int{"A": 1, "C": 3}
	got := classview.Bars(question(), counts, true)
	want := []classview.Bar{
		{Letter: "A", Count: 1, Percent: 25, Y: 0},
		{Letter: "B", Count: 0, Percent: 0, Y: 14},
		{Letter: "C", Count: 3, Percent: 75, Right: true, Y: 28},
		{Letter: "D", Count: 0, Percent: 0, Y: 42},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("revealed bars (-want +got):\n%s", d)
	}
	if hidden := classview.Bars(question(), counts, false); hidden[2].Right {
		t.Error("the right answer is marked before the reveal")
	}
	if h := classview.ChartHeight(got); h != "58" {
		t.Errorf("chart height %s, want 58", h)
	}
	// Each bar wears its tile's colour; the right one is outlined.
	if w, c := got[2].Width(), got[2].Class(); w != "52" || c != "bar tile-C right" {
		t.Errorf("C's bar: width %s class %q, want 52 and \"bar tile-C right\"", w, c)
	}
	if w, c := got[1].Width(), got[1].Class(); w != "0" || c != "bar tile-B" {
		t.Errorf("B's bar: width %s class %q, want 0 and \"bar tile-B\"", w, c)
	}
	if s := classview.Counts(got); s != "A: 1, B: 0, C: 3, D: 0" {
		t.Errorf("the chart in words: %q", s)
	}
}

func TestRankingCuts(t *testing.T) {
	players := func(n int) []classroom.PlayerInfo {
		ps := make([]classroom.PlayerInfo, n)
		for i := range ps {
			ps[i].ID = int64(i + 1)
		}
		return ps
	}
	for _, n := range []int{0, 2, 3, 12} {
		snap := &classroom.Snapshot{Ranking: players(n)}
		if got := classview.Podium(snap); len(got) != min(n, 3) || (n > 0 && got[0].ID != 1) {
			t.Errorf("%d ranked: podium %v, want the first %d", n, got, min(n, 3))
		}
		if got := classview.Leaderboard(snap, 10); len(got) != min(n, 10) || (n > 0 && got[0].ID != 1) {
			t.Errorf("%d ranked: leaderboard of %d, want the first %d", n, len(got), min(n, 10))
		}
	}
	// The roster lists at most RosterMax players by name, in join order.
	for _, n := range []int{0, 3, classview.RosterMax, classview.RosterMax + 50} {
		ps := players(n)
		got := classview.Roster(ps)
		if want := min(n, classview.RosterMax); len(got) != want || (want > 0 && got[0].ID != 1) {
			t.Errorf("%d players: %d shown, want the first %d", n, len(got), want)
		}
		if u := classview.Unlisted(ps); u != n-len(got) {
			t.Errorf("%d players, %d shown: %d unlisted", n, len(got), u)
		}
	}
}

func TestInlineHTML(t *testing.T) {
	for in, want := range map[string]string{
		"<p>Retry <code>now</code></p>\n": "Retry <code>now</code>",
		"<p>one</p><p>two</p>":            "<p>one</p><p>two</p>", // two paragraphs stay as they are
		"<ul><li>x</li></ul>":             "<ul><li>x</li></ul>",
		"plain":                           "plain",
	} {
		if got := classview.InlineHTML(in); got != want {
			t.Errorf("InlineHTML(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestResultCells(t *testing.T) {
	q := question()
	q.Texts[examsim.English].SetRubric(&scoring.Rubric{Misconceptions: []scoring.Misconception{
		{ID: "retry-all", Why: "Retrying every error"}, {ID: "no-why"}}})
	it := classroom.QuestionResult{Question: q, Counts: map[string]int{"C": 2, "A": 1}, AvgBand: 2.0 / 3}
	if got := classview.ItemTitle(it, examsim.Polish); got != "Ponowić czy nie" {
		t.Errorf("Polish title %q", got)
	}
	if got := classview.ItemTitle(it, examsim.Thai); got != "Retry or not" {
		t.Errorf("Thai title %q, want the English one as a fallback", got)
	}
	if got := classview.ItemTitle(classroom.QuestionResult{}, examsim.English); got != "?" {
		t.Errorf("a question gone from the bank: %q, want ?", got)
	}
	if got := classview.Distribution(it); got != "A 1 · C 2" {
		t.Errorf("distribution %q", got)
	}
	if got := classview.AvgBand(it); got != "0.7" {
		t.Errorf("average band %q, want 0.7", got)
	}
	if got := classview.AvgBand(classroom.QuestionResult{AvgBand: -1}); got != "" {
		t.Errorf("nobody explained: average band %q, want none", got)
	}
	if got := classview.Misconception(it, examsim.English); got != "" {
		t.Errorf("no misconception: %q", got)
	}
	it.TopMisconception, it.TopMisconceptionCount = "retry-all", 4
	if got := classview.Misconception(it, examsim.Thai); got != "Retrying every error (4)" {
		t.Errorf("misconception in Thai, from the English rubric: %q", got)
	}
	it.TopMisconception = "no-why"
	if got := classview.Misconception(it, examsim.English); got != "no-why (4)" {
		t.Errorf("a misconception without a why: %q, want its id", got)
	}
}

func TestMissingLangsAndPresence(t *testing.T) {
	if got := classview.MissingLangs(question()); got != "th, vi" {
		t.Errorf("missing languages %q, want \"th, vi\"", got)
	}
	if classview.Presence(true) != "online" || classview.Presence(false) != "offline" {
		t.Error("presence is not online/offline")
	}
	if got := classview.LogMessage(classroom.LogEntry{Event: "joined"}); got != "class.event_joined" {
		t.Errorf("log message id %q", got)
	}
}

func TestThaiScript(t *testing.T) {
	for name, want := range map[string]bool{"สมชาย": true, "Sam": false, "Thảo": false, "Paweł": false, "Ann สม": true, "": false} {
		if got := classview.ThaiScript(name); got != want {
			t.Errorf("ThaiScript(%q) = %t, want %t", name, got, want)
		}
	}
}

// TestOptionOrder: a student's order is a shuffle of the letters, the same
// every time it is worked out (a reconnect, a restart), and differs between
// students and between questions.
func TestOptionOrder(t *testing.T) {
	letters := []string{"A", "B", "C", "D"}
	orders, byQuestion := map[string]bool{}, map[string]bool{}
	for player := int64(1); player <= 40; player++ {
		got := classview.OptionOrder(7, player, 0, letters)
		if again := classview.OptionOrder(7, player, 0, letters); strings.Join(again, "") != strings.Join(got, "") {
			t.Errorf("player %d: %v then %v", player, got, again)
		}
		sorted := append([]string(nil), got...)
		sort.Strings(sorted)
		if diff := cmp.Diff(letters, sorted); diff != "" {
			t.Errorf("player %d: %v is not a shuffle of the letters (-want +got):\n%s", player, got, diff)
		}
		orders[strings.Join(got, "")] = true
		byQuestion[strings.Join(classview.OptionOrder(7, 1, int(player), letters), "")] = true
	}
	if len(orders) < 10 || len(byQuestion) < 10 {
		t.Errorf("40 students see %d orders, one student's 40 questions %d", len(orders), len(byQuestion))
	}
	if got := strings.Join(letters, ""); got != "ABCD" {
		t.Errorf("the letters passed in were changed to %s", got)
	}
}
