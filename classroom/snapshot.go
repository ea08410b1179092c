package classroom

import (
	"slices"
	"sort"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
)

// LogEntry is something the host is told about a player.
type LogEntry struct {
	At       time.Time
	Nickname string
	Event    string // joined, reconnected, left, kicked
}

// PlayerInfo is a player as the host's roster and the leaderboard show them.
type PlayerInfo struct {
	ID         int64
	Nickname   string
	Lang       examsim.Lang
	Points     int // as shown: a live question's points count from its reveal
	Rank       int // 1-based
	Online     bool
	Reconnects int
	Answered   bool // the current question
}

// Snapshot is the room at one moment, for rendering. It is never changed
// once made, so any number of streams may read it at once.
type Snapshot struct {
	Version uint64 // what students see; equal versions render alike
	// ChangedAt is when the change behind Version reached the room (a
	// host's control: when it began, before it was stored).
	ChangedAt time.Time
	Live      uint64
	Run       examsim.ClassRun
	Questions []*questions.Question
	Question  *questions.Question // the current one in a live room, else nil
	Deadline  time.Time           // when the current question's time is up
	Counts    map[string]int      // answers to the current question by choice
	Answered  int
	Players   []PlayerInfo // in join order, without kicked players
	Ranking   []PlayerInfo // best first
	Online    int
	// AutoReveal is on when the question reveals itself once every
	// connected student has answered.
	AutoReveal bool
	Log        []LogEntry
	rank       map[int64]int
}

// Rank returns a player's place, or 0.
func (s *Snapshot) Rank(playerID int64) int { return s.rank[playerID] }

// Snapshot returns the room as it is now.
func (r *Room) Snapshot() *Snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clampStartLocked()
	if r.snap == nil || r.snap.Live != r.live {
		r.snap = r.buildLocked()
	}
	return r.snap
}

// StageSnapshot returns the room as of the last change students see. A
// thousand students woken by one change share one snapshot, and answers
// arriving meanwhile do not make each of them build a new one. Its counts
// and roster may lag; the host's Snapshot has them current.
// It takes no lock once built: a Next wakes every stream at once, and
// each reading it under the room's lock would queue them one by one.
func (r *Room) StageSnapshot() *Snapshot {
	// A start in the future (the clock went back) takes the lock, to be
	// treated as now.
	if s := r.stage.Load(); s != nil && !s.Run.QuestionStartedAt.After(r.now()) {
		return s
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clampStartLocked()
	return r.stageLocked()
}

// stageLocked brings vsnap up to the current version and publishes it.
func (r *Room) stageLocked() *Snapshot {
	if r.vsnap == nil || r.vsnap.Version != r.version {
		if r.snap == nil || r.snap.Live != r.live {
			r.snap = r.buildLocked()
		}
		r.vsnap = r.snap
		r.stage.Store(r.vsnap)
	}
	return r.vsnap
}

func (r *Room) buildLocked() *Snapshot {
	// Sized up front: a Next builds this for the whole room before any phone
	// is woken, and growing the roster and the ranks step by step was a third
	// of its time at 2,000 players.
	s := &Snapshot{Version: r.version, ChangedAt: r.versionAt, Live: r.live, Run: r.run, Questions: r.qs, Counts: map[string]int{}, AutoReveal: r.autoReveal,
		Log: slices.Clone(r.log), rank: make(map[int64]int, len(r.order)), Players: make([]PlayerInfo, 0, len(r.order))}
	idx := r.run.QuestionIndex
	live := r.run.Mode == examsim.ModeLive && idx >= 0 && idx < len(r.qs)
	if live {
		s.Question = r.qs[idx]
		s.Deadline = r.run.QuestionStartedAt.Add(r.limit())
		for k, v := range r.counts[idx] {
			s.Counts[k] = v
		}
		s.Answered = len(r.answers[idx])
	}
	for _, p := range r.order {
		if p.Kicked {
			continue
		}
		pi := PlayerInfo{ID: p.ID, Nickname: p.Nickname, Lang: p.Lang, Points: r.shownPointsLocked(p),
			Online: p.conns > 0, Reconnects: p.reconnects}
		if live {
			_, pi.Answered = r.answers[idx][p.ID]
		}
		if pi.Online {
			s.Online++
		}
		s.Players = append(s.Players, pi)
	}
	s.Ranking = slices.Clone(s.Players)
	sort.SliceStable(s.Ranking, func(i, j int) bool { return s.Ranking[i].Points > s.Ranking[j].Points })
	for i := range s.Ranking { // tied players share a place: 1, 1, 3
		s.Ranking[i].Rank = i + 1
		if i > 0 && s.Ranking[i].Points == s.Ranking[i-1].Points {
			s.Ranking[i].Rank = s.Ranking[i-1].Rank
		}
		s.rank[s.Ranking[i].ID] = s.Ranking[i].Rank
	}
	return s
}

// shownPointsLocked hides a live question's points until its reveal, since
// points would give the answer away.
func (r *Room) shownPointsLocked(p *player) int {
	pts := p.points
	if r.run.Mode == examsim.ModeLive && r.run.Phase == examsim.PhaseQuestion {
		if a, ok := r.answers[r.run.QuestionIndex][p.ID]; ok {
			pts -= a.Points
		}
	}
	return pts
}

// PlayerView is what one student sees of themselves.
type PlayerView struct {
	Player examsim.Player
	Points int
	// Answers are their own committed answers by question index (nil where
	// none); nil when they have none at all. Read them with Answer.
	Answers []*examsim.ClassAnswer
	Next    int // assignments: their next question
}

// Answer is the student's committed answer to question index, or nil.
func (v PlayerView) Answer(index int) *examsim.ClassAnswer {
	if index < 0 || index >= len(v.Answers) {
		return nil
	}
	return v.Answers[index]
}

// Player returns a student's own view, or false when they are not in the
// room. Every stream a Next wakes calls it at once, so it takes no lock: a
// reader parked behind an answer being applied would run again only after
// all the thousands woken with it.
func (r *Room) Player(playerID int64) (PlayerView, bool) {
	p, ok := r.byID.Load(playerID)
	if !ok {
		return PlayerView{}, false
	}
	v := p.(*player).view.Load()
	if v.Player.Kicked {
		return PlayerView{}, false
	}
	return *v, true
}

// publishLocked publishes p's view as it is now; each change to what
// viewLocked reads calls it, or reshowPointsLocked for the run's state.
func (r *Room) publishLocked(p *player) {
	p.view.Store(r.viewLocked(p))
}

// viewLocked is p's own view, one slice for their answers when they have any.
func (r *Room) viewLocked(p *player) *PlayerView {
	v := &PlayerView{Player: p.Player, Points: r.shownPointsLocked(p), Next: r.nextLocked(p.ID)}
	for i := range r.qs {
		if a, ok := r.answers[i][p.ID]; ok {
			if v.Answers == nil {
				v.Answers = make([]*examsim.ClassAnswer, len(r.qs))
			}
			v.Answers[i] = a
		}
	}
	return v
}

// reshowPointsLocked republishes the views whose shown points the run's
// new state changes (a reveal shows the question's points); nothing else
// in a view depends on the run's state.
func (r *Room) reshowPointsLocked() {
	for _, p := range r.order {
		if p.view.Load().Points != r.shownPointsLocked(p) {
			r.publishLocked(p)
		}
	}
}
