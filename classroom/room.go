package classroom

import (
	"bytes"
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/namekey"
	"github.com/examsim/examsim/questions"
)

// MaxPlayers is the most students one room takes.
const MaxPlayers = 2000

// Room is one quiz run's live state. All methods are safe for concurrent use.
type Room struct {
	hub *Hub
	ID  int64
	// claimed is when the hub loaded the room (and took its lease).
	claimed time.Time

	ctl sync.Mutex // orders state changes; held while one is stored, with mu free
	// mu guards the room's state. Player takes no lock at all: it reads
	// views published by every change to them (publishLocked).
	mu      sync.Mutex
	run     examsim.ClassRun
	qs      []*questions.Question
	players map[int64]*player
	// byID is players again, for Player to find one without the lock;
	// a player is in it only once their view is published.
	byID     sync.Map
	order    []*player // join order
	byHash   map[string]*player
	nickKeys map[string]bool
	answers  []map[int64]*examsim.ClassAnswer // per question, by player: committed answers
	pending  map[answerKey]bool
	counts   []map[string]int // per question: committed choices
	opened   map[answerKey]time.Time
	streams  map[*Stream]struct{}
	byOwner  map[int64][]*Stream // by player, 0 for the host; oldest first
	log      []LogEntry
	timer    *time.Timer
	// autoReveal reveals a live question once every connected student has
	// answered it. The host turns it on for this run; it is not stored.
	autoReveal bool
	version    uint64 // bumps when what students see changes
	// versionAt is when the change behind version reached the room, for
	// timing its way to the phones.
	versionAt time.Time
	live      uint64    // bumps on anything the host sees
	snap      *Snapshot // as of live
	vsnap     *Snapshot // as of version
	// stage is vsnap, published for StageSnapshot to read without the lock.
	stage atomic.Pointer[Snapshot]
}

type answerKey struct {
	player int64
	index  int
}

type player struct {
	examsim.Player
	points     int // every committed answer's points
	conns      int
	seen       bool
	reconnects int
	// view is what Player returns, published under the lock by each change
	// to it; never nil once the player is in byID.
	view atomic.Pointer[PlayerView]
}

func newRoom(h *Hub, run *examsim.ClassRun, qs []*questions.Question) *Room {
	r := &Room{hub: h, ID: run.ID, run: *run, qs: qs, players: map[int64]*player{}, byHash: map[string]*player{},
		nickKeys: map[string]bool{}, pending: map[answerKey]bool{}, opened: map[answerKey]time.Time{},
		streams: map[*Stream]struct{}{}, byOwner: map[int64][]*Stream{}, live: 1}
	// A room read back (after eviction or a takeover) must not reuse the
	// versions of its earlier load: caches keyed by room and version (the
	// web's fragments) may still hold what those showed.
	r.version = h.loads.Add(1)<<32 + 1
	r.answers = make([]map[int64]*examsim.ClassAnswer, len(qs))
	r.counts = make([]map[string]int, len(qs))
	for i := range qs {
		r.answers[i] = map[int64]*examsim.ClassAnswer{}
		r.counts[i] = map[string]int{}
	}
	return r
}

func (r *Room) addPlayer(p *examsim.Player) *player {
	pl := &player{Player: *p}
	r.players[p.ID] = pl
	r.publishLocked(pl)
	r.byID.Store(p.ID, pl)
	r.order = append(r.order, pl)
	r.nickKeys[nicknameKey(p.Nickname)] = true
	if !p.Kicked {
		r.byHash[string(p.RejoinHash)] = pl
	}
	return pl
}

func (r *Room) record(a *examsim.ClassAnswer) {
	if a.QuestionIndex < 0 || a.QuestionIndex >= len(r.qs) {
		return
	}
	p := r.players[a.PlayerID]
	if _, dup := r.answers[a.QuestionIndex][a.PlayerID]; !dup {
		r.answers[a.QuestionIndex][a.PlayerID] = a
		r.counts[a.QuestionIndex][a.Choice]++
		if p != nil {
			p.points += a.Points
		}
	}
	if p != nil { // a duplicate changes nothing, but the caller may have cleared its pending mark
		r.publishLocked(p)
	}
}

// nicknameKey folds a nickname as the store's uniqueness rule does.
func nicknameKey(nick string) string { return namekey.Of(nick) }

func (r *Room) now() time.Time { return r.hub.cfg.Now() }

// closedLocked reports whether the room takes no more answers or players;
// the caller holds mu.
func (r *Room) closedLocked() bool {
	return !r.run.EndedAt.IsZero() || r.run.Phase == examsim.PhaseEnded ||
		(r.run.Mode == examsim.ModeAssignment && r.now().After(r.run.Deadline))
}

// closedAt is when the room stopped taking answers.
func (r *Room) closedAt() time.Time {
	if !r.run.EndedAt.IsZero() {
		return r.run.EndedAt
	}
	return r.run.Deadline
}

// changedLocked marks a change, with mu held: students are woken only when
// what they see moves. A change only the host sees wakes the host's few
// screens here. A change students see returns every stream (the host's
// too) for the caller to wake with wakeAll once it has let go of mu:
// woken under it, a thousand streams would run while the waker, holding
// mu, waits behind them to let it go.
func (r *Room) changedLocked(students bool) []*Stream {
	return r.changedSinceLocked(students, time.Now())
}

// changedSinceLocked is changedLocked for a change that reached the room
// at began (a transition's, before it was stored).
func (r *Room) changedSinceLocked(students bool, began time.Time) []*Stream {
	r.live++
	if !students { // most changes (an answer, a join) wake only the host's screens
		for _, s := range r.byOwner[0] {
			s.wake()
		}
		return nil
	}
	r.version++
	r.versionAt = began
	r.stageLocked() // built once here, before the wake-ups, not by the first of a thousand woken streams
	woken := make([]*Stream, 0, len(r.streams))
	for s := range r.streams {
		woken = append(woken, s)
	}
	return woken
}

// wakeAll wakes streams, without the room's lock held.
func wakeAll(streams []*Stream) {
	for _, s := range streams {
		s.wake()
	}
}

func (r *Room) logLocked(nick, event string) {
	r.log = append(r.log, LogEntry{At: r.now(), Nickname: nick, Event: event})
	if len(r.log) > 8 {
		r.log = r.log[len(r.log)-8:]
	}
}

// Run returns a copy of the run as it is now.
func (r *Room) Run() examsim.ClassRun {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.run
}

// Questions returns the run's questions in order.
func (r *Room) Questions() []*questions.Question { return r.qs }

// Join adds a student and returns them with their rejoin token.
func (r *Room) Join(ctx context.Context, nickname string, lang examsim.Lang, learnerID int64) (*examsim.Player, string, error) {
	nick, err := CleanNickname(nickname)
	if err != nil {
		return nil, "", err
	}
	key := nicknameKey(nick)
	epoch, err := r.reserveNickname(key, nick)
	if err != nil {
		return nil, "", err
	}

	token, hash := NewToken()
	p := &examsim.Player{RunID: r.ID, Nickname: nick, Lang: lang, LearnerID: learnerID, RejoinHash: hash, Epoch: epoch}
	err = r.hub.cfg.Store.CreatePlayer(ctx, p)
	r.settleJoin(key, p, err)
	if err != nil {
		return nil, "", err
	}
	return p, token, nil
}

// settleJoin ends a join under the room's lock: a stored player joins the
// room; a refused one gives its nickname back.
func (r *Room) settleJoin(key string, p *examsim.Player, stored error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if stored != nil {
		delete(r.nickKeys, key)
		return
	}
	r.addPlayer(p)
	r.logLocked(p.Nickname, "joined")
	r.changedLocked(false)
}

// reserveNickname holds the nickname's key while the player's row is written,
// so two students cannot take one name, or says why the room refuses a join.
// It returns the lease epoch the join is to be written under.
func (r *Room) reserveNickname(key, nick string) (int64, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.closedLocked():
		return 0, examsim.E(examsim.ECONFLICT, "join.error_ended")
	case r.run.Locked:
		return 0, examsim.E(examsim.ECONFLICT, "join.error_locked")
	case len(r.order) >= MaxPlayers:
		return 0, examsim.E(examsim.ECONFLICT, "join.error_full", "Max", MaxPlayers)
	case r.nickKeys[key]:
		return 0, examsim.E(examsim.ECONFLICT, "join.error_nickname_taken", "Nickname", nick)
	}
	r.nickKeys[key] = true
	return r.run.Epoch, nil
}

// Rejoin returns the player whose rejoin token this is, or false for a
// token that is wrong, from another room, or of a kicked player.
func (r *Room) Rejoin(token string) (examsim.Player, bool) {
	if token == "" {
		return examsim.Player{}, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.byHash[string(HashToken(token))]
	if p == nil || p.Kicked || !bytes.Equal(p.RejoinHash, HashToken(token)) {
		return examsim.Player{}, false
	}
	return p.Player, true
}

// Kick removes a player: their token stops working and their streams end.
func (r *Room) Kick(ctx context.Context, playerID int64) error {
	r.ctl.Lock()
	defer r.ctl.Unlock()
	r.mu.Lock()
	p := r.players[playerID]
	gone := p == nil || p.Kicked
	epoch := r.run.Epoch
	r.mu.Unlock()
	if gone {
		return examsim.E(examsim.ENOTFOUND, "class.error_player_not_found")
	}
	if err := r.hub.cfg.Store.KickPlayer(context.WithoutCancel(ctx), r.ID, epoch, playerID); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	p.Kicked = true
	r.publishLocked(p)
	delete(r.byHash, string(p.RejoinHash))
	for _, s := range r.byOwner[playerID] {
		s.end(Kicked)
	}
	r.logLocked(p.Nickname, "kicked")
	r.changedLocked(false)
	return nil
}

// transition changes the run's state. change edits a copy under the
// room's lock (false: nothing to do); the committer writes it with no lock
// held, so a slow fsync stalls no answer and no stream, and then, on its own
// goroutine, applies it: applied runs under the lock and the streams are
// woken. ctl keeps transitions in order, one at a time.
func (r *Room) transition(ctx context.Context, students bool, change func(ns *examsim.ClassRun) (bool, error), applied func()) error {
	began := time.Now()
	r.ctl.Lock()
	defer r.ctl.Unlock()
	r.mu.Lock()
	ns := r.run
	ok, err := change(&ns)
	r.mu.Unlock()
	if err != nil || !ok {
		return err
	}
	return r.hub.commit.saveState(context.WithoutCancel(ctx), &ns, func() {
		r.mu.Lock()
		r.run = ns
		if applied != nil {
			applied()
		}
		r.reshowPointsLocked()
		woken := r.changedSinceLocked(students, began)
		r.mu.Unlock()
		wakeAll(woken)
	})
}

func (r *Room) stopTimerLocked() {
	if r.timer != nil {
		r.timer.Stop()
	}
}

// SetLang switches the language a student sees the questions in, from
// their next screen on. An answer already admitted keeps its language.
func (r *Room) SetLang(ctx context.Context, playerID int64, lang examsim.Lang) error {
	r.mu.Lock()
	p := r.players[playerID]
	gone := p == nil || p.Kicked
	epoch := r.run.Epoch
	r.mu.Unlock()
	if gone {
		return examsim.E(examsim.EFORBIDDEN, "class.error_not_in_room")
	}
	if err := r.hub.cfg.Store.SetPlayerLang(context.WithoutCancel(ctx), r.ID, epoch, playerID, lang); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	p.Lang = lang
	r.publishLocked(p)
	for _, s := range r.byOwner[playerID] {
		s.wake()
	}
	return nil
}

// SetAutoReveal turns auto-reveal on or off, and reveals at once when it
// is turned on after everyone connected has answered.
func (r *Room) SetAutoReveal(on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.autoReveal = on
	r.changedLocked(false)
	r.maybeAutoRevealLocked()
}

// maybeAutoRevealLocked starts the reveal when auto-reveal is on and every
// connected student has answered the live question. The reveal stores the
// phase, so it runs apart from the lock.
func (r *Room) maybeAutoRevealLocked() {
	if !r.autoReveal || r.run.Mode != examsim.ModeLive || r.run.Phase != examsim.PhaseQuestion {
		return
	}
	idx, online := r.run.QuestionIndex, 0
	for _, p := range r.order {
		if p.Kicked || p.conns == 0 {
			continue
		}
		online++
		if _, ok := r.answers[idx][p.ID]; !ok {
			return
		}
	}
	if online == 0 {
		return
	}
	go func() {
		if err := r.Reveal(context.Background(), idx); err != nil {
			r.hub.cfg.Logger.Warn("classroom: auto-reveal", "run", r.ID, "err", err)
		}
	}()
}

// SetLocked locks or unlocks the room to new players.
func (r *Room) SetLocked(ctx context.Context, locked bool) error {
	return r.transition(ctx, false, func(ns *examsim.ClassRun) (bool, error) {
		ns.Locked = locked
		return true, nil
	}, nil)
}

// Next starts the first question, or goes on from a revealed one, or ends
// the quiz after the last. from is the question index the host's screen
// showed: a repeated click finds the room moved on and changes nothing.
func (r *Room) Next(ctx context.Context, from int) error {
	return r.transition(ctx, true, func(ns *examsim.ClassRun) (bool, error) {
		switch {
		case ns.Mode != examsim.ModeLive || r.closedLocked():
			return false, examsim.E(examsim.ECONFLICT, "class.error_not_running")
		case ns.QuestionIndex != from:
			return false, nil
		case ns.Phase == examsim.PhaseQuestion:
			return false, examsim.E(examsim.ECONFLICT, "class.error_reveal_first")
		}
		now := r.now()
		if next := ns.QuestionIndex + 1; next >= len(r.qs) {
			ns.Phase, ns.EndedAt = examsim.PhaseEnded, now
		} else {
			ns.Phase, ns.QuestionIndex, ns.QuestionStartedAt = examsim.PhaseQuestion, next, now
		}
		return true, nil
	}, func() {
		if r.run.Phase == examsim.PhaseQuestion {
			r.armTimer()
		}
	})
}

// clampStartLocked treats a question start in the future as now: the clock
// went back, or the server restarted on a machine whose clock is behind.
// Left alone, the question would show hours on its countdown and reveal
// itself only once the clock caught up. The caller holds r.mu.
func (r *Room) clampStartLocked() {
	now := r.now()
	if !r.run.QuestionStartedAt.After(now) {
		return
	}
	r.run.QuestionStartedAt = now
	r.snap, r.vsnap = nil, nil
	if r.run.Mode == examsim.ModeLive && r.run.Phase == examsim.PhaseQuestion && r.run.EndedAt.IsZero() {
		r.armTimer()
	}
}

// Limit is the time a live question is open for.
func (r *Room) limit() time.Duration {
	return time.Duration(r.run.Quiz.SecondsPerQuestion) * time.Second
}

// armTimer reveals the current question by itself when its time is up.
func (r *Room) armTimer() {
	if r.timer != nil {
		r.timer.Stop()
	}
	index := r.run.QuestionIndex
	wait := r.run.QuestionStartedAt.Add(r.limit() + r.hub.cfg.Grace).Sub(r.now())
	r.timer = time.AfterFunc(max(wait, 0), func() {
		if err := r.Reveal(context.Background(), index); err != nil {
			r.hub.cfg.Logger.Warn("classroom: revealing when time was up", "run", r.ID, "err", err)
		}
	})
}

// Reveal closes the current question and shows its answer to the room.
func (r *Room) Reveal(ctx context.Context, from int) error {
	return r.transition(ctx, true, func(ns *examsim.ClassRun) (bool, error) {
		if ns.Phase != examsim.PhaseQuestion || ns.QuestionIndex != from || ns.Mode != examsim.ModeLive {
			return false, nil // already revealed, or a stale click
		}
		ns.Phase = examsim.PhaseReveal
		return true, nil
	}, r.stopTimerLocked)
}

// ShowLeaderboard shows the standings after a revealed question.
func (r *Room) ShowLeaderboard(ctx context.Context, from int) error {
	return r.transition(ctx, true, func(ns *examsim.ClassRun) (bool, error) {
		if !ns.Quiz.Leaderboard {
			return false, examsim.E(examsim.ECONFLICT, "class.error_leaderboard_off")
		}
		if ns.Phase != examsim.PhaseReveal || ns.QuestionIndex != from {
			return false, nil
		}
		ns.Phase = examsim.PhaseLeaderboard
		return true, nil
	}, nil)
}

// End finishes the run: no more answers or players; the podium shows.
func (r *Room) End(ctx context.Context) error {
	return r.transition(ctx, true, func(ns *examsim.ClassRun) (bool, error) {
		if !ns.EndedAt.IsZero() {
			return false, nil
		}
		ns.Phase, ns.EndedAt = examsim.PhaseEnded, r.now()
		return true, nil
	}, r.stopTimerLocked)
}
