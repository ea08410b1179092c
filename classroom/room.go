package classroom

import (
	"bytes"
	"context"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/scoring"
)

// MaxPlayers is the most students one room takes.
const MaxPlayers = 2000

// Room is one session's live state. All methods are safe for concurrent use.
type Room struct {
	hub *Hub
	ID  int64

	mu       sync.Mutex
	sess     examsim.ClassSession
	qs       []*questions.Question
	players  map[int64]*player
	order    []*player // join order
	byHash   map[string]*player
	nickKeys map[string]bool
	answers  []map[int64]*examsim.ClassAnswer // per question, by player: committed answers
	pending  map[answerKey]bool
	counts   []map[string]int // per question: committed choices
	opened   map[answerKey]time.Time
	streams  map[*Stream]struct{}
	log      []LogEntry
	timer    *time.Timer
	version  uint64    // bumps when what students see changes
	live     uint64    // bumps on anything the host sees
	snap     *Snapshot // as of live
	vsnap    *Snapshot // as of version
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
}

func newRoom(h *Hub, cs *examsim.ClassSession, qs []*questions.Question) *Room {
	r := &Room{hub: h, ID: cs.ID, sess: *cs, qs: qs, players: map[int64]*player{}, byHash: map[string]*player{},
		nickKeys: map[string]bool{}, pending: map[answerKey]bool{}, opened: map[answerKey]time.Time{},
		streams: map[*Stream]struct{}{}, version: 1, live: 1}
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
	if _, dup := r.answers[a.QuestionIndex][a.PlayerID]; dup {
		return
	}
	r.answers[a.QuestionIndex][a.PlayerID] = a
	r.counts[a.QuestionIndex][a.Choice]++
	if p := r.players[a.PlayerID]; p != nil {
		p.points += a.Points
	}
}

// nicknameKey folds a nickname as the store's uniqueness rule does.
func nicknameKey(nick string) string { return examsim.NameKey(nick) }

func (r *Room) now() time.Time { return r.hub.cfg.Now() }

// closed reports whether the room takes no more answers or players.
func (r *Room) closedLocked() bool {
	return !r.sess.EndedAt.IsZero() || r.sess.Phase == examsim.PhaseEnded ||
		(r.sess.Mode == examsim.ModeAssignment && r.now().After(r.sess.Deadline))
}

// closedAt is when the room stopped taking answers.
func (r *Room) closedAt() time.Time {
	if !r.sess.EndedAt.IsZero() {
		return r.sess.EndedAt
	}
	return r.sess.Deadline
}

func (r *Room) persist(ctx context.Context, s *examsim.ClassSession) error {
	return r.hub.cfg.Store.UpdateSessionState(context.WithoutCancel(ctx), s)
}

// changed marks a change: students are woken only when what they see moves.
func (r *Room) changedLocked(students bool) {
	r.live++
	if students {
		r.version++
	}
	for s := range r.streams {
		if s.host || students {
			select {
			case s.c <- struct{}{}:
			default: // already woken; it will read the latest state
			}
		}
	}
}

func (r *Room) logLocked(nick, event string) {
	r.log = append(r.log, LogEntry{At: r.now(), Nickname: nick, Event: event})
	if len(r.log) > 8 {
		r.log = r.log[len(r.log)-8:]
	}
}

// Session returns a copy of the session as it is now.
func (r *Room) Session() examsim.ClassSession {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sess
}

// Questions returns the session's questions in order.
func (r *Room) Questions() []*questions.Question { return r.qs }

// Join adds a student and returns them with their rejoin token.
func (r *Room) Join(ctx context.Context, nickname string, lang examsim.Lang, learnerID int64) (*examsim.Player, string, error) {
	nick, err := CleanNickname(nickname)
	if err != nil {
		return nil, "", err
	}
	key := nicknameKey(nick)
	r.mu.Lock()
	switch {
	case r.closedLocked():
		r.mu.Unlock()
		return nil, "", examsim.Errorf(examsim.ECONFLICT, "join.error_ended")
	case r.sess.Locked:
		r.mu.Unlock()
		return nil, "", examsim.Errorf(examsim.ECONFLICT, "join.error_locked")
	case len(r.order) >= MaxPlayers:
		r.mu.Unlock()
		return nil, "", examsim.Errorf(examsim.ECONFLICT, "join.error_full", "Max", MaxPlayers)
	case r.nickKeys[key]:
		r.mu.Unlock()
		return nil, "", examsim.Errorf(examsim.ECONFLICT, "join.error_nickname_taken", "Nickname", nick)
	}
	r.nickKeys[key] = true // held while the row is written, so two students cannot take one name
	r.mu.Unlock()

	token, hash := NewToken()
	p := &examsim.Player{SessionID: r.ID, Nickname: nick, Lang: lang, LearnerID: learnerID, RejoinHash: hash}
	if err := r.hub.cfg.Store.CreatePlayer(ctx, p); err != nil {
		r.mu.Lock()
		delete(r.nickKeys, key)
		r.mu.Unlock()
		return nil, "", err
	}
	r.mu.Lock()
	r.addPlayer(p)
	r.logLocked(nick, "joined")
	r.changedLocked(false)
	r.mu.Unlock()
	return p, token, nil
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
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.players[playerID]
	if p == nil || p.Kicked {
		return examsim.Errorf(examsim.ENOTFOUND, "class.error_player_not_found")
	}
	if err := r.hub.cfg.Store.KickPlayer(context.WithoutCancel(ctx), r.ID, playerID); err != nil {
		return err
	}
	p.Kicked = true
	delete(r.byHash, string(p.RejoinHash))
	for s := range r.streams {
		if s.playerID == playerID {
			s.kick()
		}
	}
	r.logLocked(p.Nickname, "kicked")
	r.changedLocked(false)
	return nil
}

// SetLocked locks or unlocks the room to new players.
func (r *Room) SetLocked(ctx context.Context, locked bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	ns := r.sess
	ns.Locked = locked
	if err := r.persist(ctx, &ns); err != nil {
		return err
	}
	r.sess = ns
	r.changedLocked(false)
	return nil
}

// Next starts the first question, or goes on from a revealed one, or ends
// the quiz after the last. from is the question index the host's screen
// showed: a repeated click finds the room moved on and changes nothing.
func (r *Room) Next(ctx context.Context, from int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sess.Mode != examsim.ModeLive || r.closedLocked() {
		return examsim.Errorf(examsim.ECONFLICT, "class.error_not_running")
	}
	if r.sess.QuestionIndex != from {
		return nil
	}
	if r.sess.Phase == examsim.PhaseQuestion {
		return examsim.Errorf(examsim.ECONFLICT, "class.error_reveal_first")
	}
	ns := r.sess
	now := r.now()
	if next := ns.QuestionIndex + 1; next >= len(r.qs) {
		ns.Phase, ns.EndedAt = examsim.PhaseEnded, now
	} else {
		ns.Phase, ns.QuestionIndex, ns.QuestionStartedAt = examsim.PhaseQuestion, next, now
	}
	if err := r.persist(ctx, &ns); err != nil {
		return err
	}
	r.sess = ns
	if ns.Phase == examsim.PhaseQuestion {
		r.armTimer()
	}
	r.changedLocked(true)
	return nil
}

// Limit is the time a live question is open for.
func (r *Room) limit() time.Duration {
	return time.Duration(r.sess.Quiz.SecondsPerQuestion) * time.Second
}

// armTimer reveals the current question by itself when its time is up.
func (r *Room) armTimer() {
	if r.timer != nil {
		r.timer.Stop()
	}
	index := r.sess.QuestionIndex
	wait := r.sess.QuestionStartedAt.Add(r.limit() + r.hub.cfg.Grace).Sub(r.now())
	r.timer = time.AfterFunc(max(wait, 0), func() {
		if err := r.Reveal(context.Background(), index); err != nil {
			r.hub.cfg.Logger.Warn("classroom: revealing when time was up", "session", r.ID, "err", err)
		}
	})
}

// Reveal closes the current question and shows its answer to the room.
func (r *Room) Reveal(ctx context.Context, from int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sess.Phase != examsim.PhaseQuestion || r.sess.QuestionIndex != from || r.sess.Mode != examsim.ModeLive {
		return nil // already revealed, or a stale click
	}
	ns := r.sess
	ns.Phase = examsim.PhaseReveal
	if err := r.persist(ctx, &ns); err != nil {
		return err
	}
	r.sess = ns
	if r.timer != nil {
		r.timer.Stop()
	}
	r.changedLocked(true)
	return nil
}

// ShowLeaderboard shows the standings after a revealed question.
func (r *Room) ShowLeaderboard(ctx context.Context, from int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.sess.Quiz.Leaderboard {
		return examsim.Errorf(examsim.ECONFLICT, "class.error_leaderboard_off")
	}
	if r.sess.Phase != examsim.PhaseReveal || r.sess.QuestionIndex != from {
		return nil
	}
	ns := r.sess
	ns.Phase = examsim.PhaseLeaderboard
	if err := r.persist(ctx, &ns); err != nil {
		return err
	}
	r.sess = ns
	r.changedLocked(true)
	return nil
}

// End finishes the session: no more answers or players; the podium shows.
func (r *Room) End(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.sess.EndedAt.IsZero() {
		return nil
	}
	ns := r.sess
	ns.Phase, ns.EndedAt = examsim.PhaseEnded, r.now()
	if err := r.persist(ctx, &ns); err != nil {
		return err
	}
	r.sess = ns
	if r.timer != nil {
		r.timer.Stop()
	}
	r.changedLocked(true)
	return nil
}

// Open records when a student in an assignment first saw a question, for
// the speed bonus, and returns the index of their next unanswered question
// (len(questions) when they are done).
func (r *Room) Open(playerID int64) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	next := r.nextLocked(playerID)
	if next < len(r.qs) {
		k := answerKey{playerID, next}
		if _, ok := r.opened[k]; !ok {
			r.opened[k] = r.now()
		}
	}
	return next
}

func (r *Room) nextLocked(playerID int64) int {
	for i := range r.qs {
		if _, ok := r.answers[i][playerID]; !ok && !r.pending[answerKey{playerID, i}] {
			return i
		}
	}
	return len(r.qs)
}

// Answer scores a student's answer to question index, commits it, and
// returns it once it is on disk. Students who have an examsim identity also
// get it in their history.
func (r *Room) Answer(ctx context.Context, playerID int64, index int, choice, explanation string) (*examsim.ClassAnswer, error) {
	r.mu.Lock()
	p := r.players[playerID]
	if p == nil || p.Kicked {
		r.mu.Unlock()
		return nil, examsim.Errorf(examsim.EFORBIDDEN, "class.error_not_in_room")
	}
	now := r.now()
	var elapsed time.Duration
	switch {
	case r.closedLocked():
		r.mu.Unlock()
		return nil, examsim.Errorf(examsim.ECONFLICT, "class.error_question_closed")
	case r.sess.Mode == examsim.ModeLive:
		if r.sess.Phase != examsim.PhaseQuestion || index != r.sess.QuestionIndex ||
			now.After(r.sess.QuestionStartedAt.Add(r.limit()+r.hub.cfg.Grace)) {
			r.mu.Unlock()
			return nil, examsim.Errorf(examsim.ECONFLICT, "class.error_question_closed")
		}
		elapsed = now.Sub(r.sess.QuestionStartedAt)
	default:
		if index != r.nextLocked(playerID) {
			r.mu.Unlock()
			return nil, examsim.Errorf(examsim.ECONFLICT, "class.error_already_answered")
		}
		if at, ok := r.opened[answerKey{playerID, index}]; ok {
			elapsed = now.Sub(at)
		}
	}
	key := answerKey{playerID, index}
	if _, done := r.answers[index][playerID]; done || r.pending[key] {
		r.mu.Unlock()
		return nil, examsim.Errorf(examsim.ECONFLICT, "class.error_already_answered")
	}
	q, quiz, lang, learnerID := r.qs[index], r.sess.Quiz, p.Lang, p.LearnerID
	tx := TextOf(q, lang)
	if !slices.ContainsFunc(tx.Options, func(o questions.Option) bool { return o.Letter == choice }) {
		r.mu.Unlock()
		return nil, examsim.Errorf(examsim.EINVALID, "class.error_bad_choice")
	}
	explanation = strings.TrimSpace(explanation)
	switch {
	case quiz.Explanations == examsim.ExplainOff:
		explanation = ""
	case quiz.Explanations == examsim.ExplainRequired && explanation == "":
		r.mu.Unlock()
		return nil, examsim.Errorf(examsim.EINVALID, "class.error_explanation_required")
	}
	if err := scoring.CheckLength(explanation); err != nil {
		r.mu.Unlock()
		return nil, err
	}
	r.pending[key] = true
	r.mu.Unlock()

	res, err := tx.Rubric.Score(explanation)
	if err != nil {
		r.unpend(key)
		return nil, err
	}
	a := &examsim.ClassAnswer{
		SessionID: r.ID, PlayerID: playerID, QuestionIndex: index, QuestionID: q.ID, Lang: tx.Rubric.Lang,
		Choice: choice, Correct: choice == q.Answer, Explanation: explanation, ExplanationScore: res.Score,
		Band: res.Band, Concepts: res.Hits(), Misconceptions: res.MisconceptionIDs(), RubricVersion: tx.Rubric.Version,
		ElapsedMS: elapsed.Milliseconds(), CreatedAt: now.UTC(),
	}
	if explanation == "" {
		a.ExplanationScore, a.Band, a.Concepts, a.Misconceptions = 0, 0, nil, nil
	}
	a.Points = Points(a.Correct, quiz.Scoring, elapsed, time.Duration(quiz.SecondsPerQuestion)*time.Second,
		quiz.Explanations, a.ExplanationScore)
	if r.sess.Mode == examsim.ModeAssignment && quiz.Scoring == examsim.ScoreSpeed && elapsed == 0 {
		a.Points = Points(a.Correct, examsim.ScoreCorrectness, 0, 0, quiz.Explanations, a.ExplanationScore)
	}
	if a.Lang == "" {
		a.Lang = lang
	}

	if err := r.hub.commit.save(ctx, a); err != nil {
		r.unpend(key)
		return nil, err
	}
	r.mu.Lock()
	delete(r.pending, key)
	r.record(a)
	r.changedLocked(r.sess.Mode == examsim.ModeAssignment)
	for st := range r.streams { // the student's own screens move to "answer received"
		if st.playerID == playerID {
			select {
			case st.c <- struct{}{}:
			default:
			}
		}
	}
	r.mu.Unlock()

	if learnerID != 0 && r.hub.cfg.Attempts != nil {
		at := &examsim.Attempt{LearnerID: learnerID, QuestionID: q.ID, Lang: a.Lang, Choice: a.Choice, Correct: a.Correct,
			Explanation: a.Explanation, Score: a.ExplanationScore, Band: a.Band, Concepts: a.Concepts,
			Misconceptions: a.Misconceptions, RubricVersion: a.RubricVersion, CreatedAt: a.CreatedAt}
		if err := r.hub.cfg.Attempts.CreateAttempt(context.WithoutCancel(ctx), at); err != nil {
			// The answer counts in the room; only the history entry is missing.
			r.hub.cfg.Logger.Warn("classroom: adding an answer to the learner's history", "learner", learnerID, "err", err)
		}
	}
	return a, nil
}

func (r *Room) unpend(k answerKey) {
	r.mu.Lock()
	delete(r.pending, k)
	r.mu.Unlock()
}

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
	Version   uint64 // what students see; equal versions render alike
	Live      uint64
	Session   examsim.ClassSession
	Questions []*questions.Question
	Question  *questions.Question // the current one in a live room, else nil
	Deadline  time.Time           // when the current question's time is up
	Counts    map[string]int      // answers to the current question by choice
	Answered  int
	Players   []PlayerInfo // in join order, without kicked players
	Ranking   []PlayerInfo // best first
	Online    int
	Log       []LogEntry
	rank      map[int64]int
}

// Rank returns a player's place, or 0.
func (s *Snapshot) Rank(playerID int64) int { return s.rank[playerID] }

// Snapshot returns the room as it is now.
func (r *Room) Snapshot() *Snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.snap == nil || r.snap.Live != r.live {
		r.snap = r.buildLocked()
	}
	return r.snap
}

// StageSnapshot returns the room as of the last change students see. A
// thousand students woken by one change share one snapshot, and answers
// arriving meanwhile do not make each of them build a new one. Its counts
// and roster may lag; the host's Snapshot has them current.
func (r *Room) StageSnapshot() *Snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.vsnap == nil || r.vsnap.Version != r.version {
		if r.snap == nil || r.snap.Live != r.live {
			r.snap = r.buildLocked()
		}
		r.vsnap = r.snap
	}
	return r.vsnap
}

func (r *Room) buildLocked() *Snapshot {
	s := &Snapshot{Version: r.version, Live: r.live, Session: r.sess, Questions: r.qs, Counts: map[string]int{},
		Log: slices.Clone(r.log), rank: map[int64]int{}}
	idx := r.sess.QuestionIndex
	live := r.sess.Mode == examsim.ModeLive && idx >= 0 && idx < len(r.qs)
	if live {
		s.Question = r.qs[idx]
		s.Deadline = r.sess.QuestionStartedAt.Add(r.limit())
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
	for i := range s.Ranking {
		s.Ranking[i].Rank = i + 1
		s.rank[s.Ranking[i].ID] = i + 1
	}
	return s
}

// shownPointsLocked hides a live question's points until its reveal, since
// points would give the answer away.
func (r *Room) shownPointsLocked(p *player) int {
	pts := p.points
	if r.sess.Mode == examsim.ModeLive && r.sess.Phase == examsim.PhaseQuestion {
		if a, ok := r.answers[r.sess.QuestionIndex][p.ID]; ok {
			pts -= a.Points
		}
	}
	return pts
}

// PlayerView is what one student sees of themselves.
type PlayerView struct {
	Player  examsim.Player
	Points  int
	Answers map[int]*examsim.ClassAnswer // their own committed answers by question index
	Next    int                          // assignments: their next question
}

// Player returns a student's own view, or false when they are not in the room.
func (r *Room) Player(playerID int64) (PlayerView, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.players[playerID]
	if p == nil || p.Kicked {
		return PlayerView{}, false
	}
	v := PlayerView{Player: p.Player, Points: r.shownPointsLocked(p), Answers: map[int]*examsim.ClassAnswer{},
		Next: r.nextLocked(playerID)}
	for i := range r.qs {
		if a, ok := r.answers[i][playerID]; ok {
			v.Answers[i] = a
		}
	}
	return v, true
}

// Stream wakes an event stream when there is something new to send.
type Stream struct {
	room     *Room
	c        chan struct{}
	kicked   chan struct{}
	once     sync.Once
	playerID int64
	host     bool
}

// C delivers a wake-up when the room changed; read Snapshot for what.
func (s *Stream) C() <-chan struct{} { return s.c }

// Kicked is closed when the stream's player is kicked.
func (s *Stream) Kicked() <-chan struct{} { return s.kicked }

func (s *Stream) kick() { s.once.Do(func() { close(s.kicked) }) }

// Watch opens a stream for the host (playerID 0) or a player. A player's
// first stream after losing all of them counts as a reconnect, which the
// host sees.
func (r *Room) Watch(playerID int64) *Stream {
	s := &Stream{room: r, c: make(chan struct{}, 1), kicked: make(chan struct{}), playerID: playerID, host: playerID == 0}
	s.c <- struct{}{} // send the current state first
	r.mu.Lock()
	r.streams[s] = struct{}{}
	if p := r.players[playerID]; p != nil {
		p.conns++
		// Any stream after the first is a reconnect, even when the old one
		// is not noticed gone yet: a reload opens the new stream at once.
		if p.seen {
			p.reconnects++
			r.logLocked(p.Nickname, "reconnected")
		}
		p.seen = true
		r.changedLocked(false)
		if p.Kicked {
			s.kick()
		}
	}
	r.mu.Unlock()
	r.hub.streams.Add(1)
	return s
}

// Close ends the stream; a player with no stream left shows as offline.
func (s *Stream) Close() {
	r := s.room
	r.mu.Lock()
	if _, ok := r.streams[s]; ok {
		delete(r.streams, s)
		r.hub.streams.Add(-1)
		if p := r.players[s.playerID]; p != nil {
			p.conns--
			if p.conns == 0 {
				r.logLocked(p.Nickname, "left")
				r.changedLocked(false)
			}
		}
	}
	r.mu.Unlock()
}
