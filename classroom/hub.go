// Package classroom owns live classroom quizzes: one Room per quiz run, safe
// for concurrent use, holding who is in the room, which question is on and
// the answers so far; it wakes the host's and the students' event streams
// when something they see changes, and commits answers to the store in
// group commits, acknowledging each only once it is on disk. It also owns
// the classroom rules that are not HTTP: points, nicknames, results and
// their CSV export. The join rate limit is web's (web/limit.go).
package classroom

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
)

// Config is what a Hub needs.
type Config struct {
	Store  examsim.ClassroomService
	Bank   *questions.Bank
	Logger *slog.Logger
	// Grace is how long past a question's time an answer already on its way
	// is still taken, so a tap in the last second is not lost in transit.
	Grace time.Duration
	// MaxBatch caps the answers in one group commit.
	MaxBatch int
	// OnBatch, when set, is told each group commit's size and duration.
	OnBatch func(size int, took time.Duration)
	Now     func() time.Time

	// Leases, when set, shares the rooms among many instances on one
	// PostgreSQL database: a room lives only on the instance holding its
	// lease, Room refuses the others with a *NotOwnerError naming the owner's
	// Address, and a lease not renewed within LeaseTTL (its owner died) is
	// taken by the next instance asked for the room, which rebuilds it from
	// the database. Nil: one instance owns every room (SQLite).
	Leases examsim.RoomLeaseService
	// Instance names this instance in the leases (random per process);
	// Address is the URL the other instances forward its rooms' requests to.
	Instance, Address string
	// LeaseTTL is how long a lease outlives its owner's last renewal; the
	// owner renews every third of it. Zero means DefaultLeaseTTL.
	LeaseTTL time.Duration
}

// DefaultLeaseTTL is how long a dead owner's rooms wait for a new one: a
// question in play stops for at most this long.
const DefaultLeaseTTL = 6 * time.Second

// NotOwnerError says that another instance owns a room: forward the request
// to Address.
type NotOwnerError struct {
	RunID   int64
	Address string
}

func (e *NotOwnerError) Error() string {
	return fmt.Sprintf("room %d is owned by the instance at %s", e.RunID, e.Address)
}

// Unwrap lets a NotOwnerError that reaches a user read as "unavailable,
// retry": by then the lease is moving, and the retry finds the owner.
func (e *NotOwnerError) Unwrap() error {
	return &examsim.Error{Code: examsim.EUNAVAILABLE, MessageID: "error.unavailable", Detail: e.Error() + "; retry"}
}

// Shared reports whether many instances share the rooms (Config.Leases).
func (h *Hub) Shared() bool { return h.cfg.Leases != nil }

// Address is the URL the other instances reach this one at ("" unless
// Shared).
func (h *Hub) Address() string { return h.cfg.Address }

// Hub holds the rooms of the quiz runs in progress.
type Hub struct {
	cfg    Config
	commit *committer

	mu    sync.Mutex
	rooms map[int64]*Room

	streams atomic.Int64
	// loads counts the rooms loaded, each room's versions starting in a
	// range of its own (newRoom).
	loads  atomic.Uint64
	closed chan struct{}
	once   sync.Once
}

// NewHub returns a hub storing to cfg.Store.
func NewHub(cfg Config) *Hub {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Grace == 0 {
		cfg.Grace = 2 * time.Second
	}
	if cfg.MaxBatch <= 0 {
		cfg.MaxBatch = 512
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.LeaseTTL <= 0 {
		cfg.LeaseTTL = DefaultLeaseTTL
	}
	h := &Hub{cfg: cfg, rooms: map[int64]*Room{}, closed: make(chan struct{})}
	h.commit = newCommitter(cfg.Store, cfg.MaxBatch)
	h.commit.onBatch = cfg.OnBatch
	h.commit.logger = cfg.Logger
	go h.sweep()
	if cfg.Leases != nil {
		go h.heartbeat()
	}
	return h
}

// heartbeat renews this instance's room leases every third of their life,
// and lets go of any room whose lease it failed to keep: another instance
// may own it now, and two owners would split its answers.
func (h *Hub) heartbeat() {
	t := time.NewTicker(h.cfg.LeaseTTL / 3)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-h.closed:
			return
		case <-t.C:
		}
		asked := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), h.cfg.LeaseTTL/3)
		ids, err := h.cfg.Leases.RenewRooms(ctx, h.cfg.Instance, h.cfg.LeaseTTL)
		cancel()
		if err != nil {
			h.cfg.Logger.Warn("classroom: renewing room leases", "err", err)
			if time.Since(last) < h.cfg.LeaseTTL {
				continue // still ours for a while: PostgreSQL may be back in time
			}
		} else {
			last = time.Now()
		}
		kept := make(map[int64]bool, len(ids))
		for _, id := range ids {
			kept[id] = true
		}
		h.dropUnless(kept, asked)
	}
}

// dropUnless forgets every room claimed before asked and not in kept: its
// timer stops and its streams end as Moved, so browsers reconnect to the
// room's new owner. A room claimed since was not in the renewal's answer.
func (h *Hub) dropUnless(kept map[int64]bool, asked time.Time) {
	h.mu.Lock()
	var lost []*Room
	for id, r := range h.rooms {
		if !kept[id] && r.claimed.Before(asked) {
			lost = append(lost, r)
			delete(h.rooms, id)
		}
	}
	h.mu.Unlock()
	for _, r := range lost {
		h.cfg.Logger.Warn("classroom: lost the lease of a room; another instance serves it now", "room", r.ID)
		r.mu.Lock()
		if r.timer != nil {
			r.timer.Stop()
		}
		for s := range r.streams {
			s.end(Moved)
		}
		r.mu.Unlock()
	}
}

// ReleaseLeases lets this instance's rooms go at once, on a clean shutdown,
// so another instance takes them on their next request instead of after
// LeaseTTL. Call it after the server stopped serving and Close committed
// the answers.
func (h *Hub) ReleaseLeases(ctx context.Context) error {
	if h.cfg.Leases == nil {
		return nil
	}
	return h.cfg.Leases.ReleaseRooms(ctx, h.cfg.Instance)
}

// EvictAfter is how long an ended room with nobody watching stays in
// memory; its results are in the store, and it is read back if asked for.
const EvictAfter = 5 * time.Minute

func (h *Hub) sweep() {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-h.closed:
			return
		case <-t.C:
			h.Evict(h.cfg.Now().Add(-EvictAfter))
		}
	}
}

// Evict drops the rooms that ended before cutoff and have no open stream.
func (h *Hub) Evict(cutoff time.Time) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for id, r := range h.rooms {
		r.mu.Lock()
		idle := len(r.streams) == 0 && len(r.pending) == 0 && r.closedLocked() && !r.closedAt().After(cutoff)
		r.mu.Unlock()
		if idle {
			delete(h.rooms, id)
			n++
		}
	}
	return n
}

// CloseStreams ends every event stream, so a server shutting down is not
// held up by students' open connections. Answers are still taken.
func (h *Hub) CloseStreams() { h.once.Do(func() { close(h.closed) }) }

// Close ends every event stream and, once queued answers are committed,
// stops the writer. Call it after the server has stopped serving.
func (h *Hub) Close() {
	h.CloseStreams()
	for _, r := range h.roomList() {
		r.mu.Lock()
		if r.timer != nil {
			r.timer.Stop()
		}
		r.mu.Unlock()
	}
	h.commit.close()
}

// roomList copies the hub's rooms, so each can then be locked without the
// hub's lock held.
func (h *Hub) roomList() []*Room {
	h.mu.Lock()
	defer h.mu.Unlock()
	rooms := make([]*Room, 0, len(h.rooms))
	for _, r := range h.rooms {
		rooms = append(rooms, r)
	}
	return rooms
}

// Done is closed when the hub is closing; event streams end on it.
func (h *Hub) Done() <-chan struct{} { return h.closed }

// Stats are numbers for monitoring.
type Stats struct {
	Rooms, Players, Streams  int
	Batches, Committed, Fail int64
	Queued                   int
}

// Stats returns the hub's current numbers.
func (h *Hub) Stats() Stats {
	rooms := h.roomList()
	st := Stats{Rooms: len(rooms)}
	for _, r := range rooms {
		r.mu.Lock()
		st.Players += len(r.order)
		r.mu.Unlock()
	}
	st.Streams = int(h.streams.Load())
	st.Batches, st.Committed, st.Fail = h.commit.batches.Load(), h.commit.committed.Load(), h.commit.failed.Load()
	st.Queued = h.commit.queued()
	return st
}

// Bank returns the question bank the rooms ask from.
func (h *Hub) Bank() *questions.Bank { return h.cfg.Bank }

// Create starts a run of quiz hosted by hostID and returns its room.
func (h *Hub) Create(ctx context.Context, quiz *examsim.Quiz, hostID int64, mode examsim.RunMode, deadline time.Time) (*Room, error) {
	run := &examsim.ClassRun{HostID: hostID, Mode: mode, Quiz: *quiz, Phase: examsim.PhaseLobby, QuestionIndex: -1}
	if mode == examsim.ModeAssignment {
		if !deadline.After(h.cfg.Now()) {
			return nil, examsim.E(examsim.EINVALID, "class.error_deadline_past")
		}
		run.Deadline = deadline
		run.Phase = examsim.PhaseQuestion
	}
	if _, err := h.questionsOf(run); err != nil {
		return nil, err
	}
	if err := h.cfg.Store.CreateRun(ctx, run); err != nil {
		return nil, err
	}
	return h.Room(ctx, run.ID)
}

func (h *Hub) questionsOf(run *examsim.ClassRun) ([]*questions.Question, error) {
	qs := make([]*questions.Question, 0, len(run.Quiz.QuestionIDs))
	for _, id := range run.Quiz.QuestionIDs {
		q, ok := h.cfg.Bank.Question(id)
		if !ok {
			return nil, examsim.E(examsim.ENOTFOUND, "error.question_not_found", "ID", id)
		}
		qs = append(qs, q)
	}
	if len(qs) == 0 {
		return nil, examsim.E(examsim.EINVALID, "class.error_no_questions")
	}
	return qs, nil
}

// Room returns the room of a run, loading it from the store the first
// time (so a restarted server picks rooms up where they were).
func (h *Hub) Room(ctx context.Context, runID int64) (*Room, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r := h.rooms[runID]; r != nil {
		return r, nil
	}
	var epoch int64
	if h.cfg.Leases != nil {
		l, err := h.cfg.Leases.ClaimRoom(ctx, runID, h.cfg.Instance, h.cfg.Address, h.cfg.LeaseTTL)
		if err != nil {
			return nil, err
		}
		if l.Instance != h.cfg.Instance {
			return nil, &NotOwnerError{RunID: runID, Address: l.Address}
		}
		epoch = l.Epoch
	}
	run, err := h.cfg.Store.FindRun(ctx, runID)
	if err != nil {
		return nil, err
	}
	run.Epoch = epoch
	qs, err := h.questionsOf(run)
	if err != nil {
		return nil, err
	}
	players, err := h.cfg.Store.ListPlayers(ctx, runID)
	if err != nil {
		return nil, err
	}
	answers, err := h.cfg.Store.ListAnswers(ctx, runID)
	if err != nil {
		return nil, err
	}
	r := newRoom(h, run, qs)
	r.claimed = time.Now()
	for _, p := range players {
		r.addPlayer(p)
	}
	for _, a := range answers {
		r.record(a)
	}
	r.clampStartLocked() // not yet shared: no lock needed
	if run.Mode == examsim.ModeLive && run.Phase == examsim.PhaseQuestion && run.EndedAt.IsZero() {
		r.armTimer()
	}
	h.rooms[runID] = r
	return r, nil
}

// EndHostedBy ends every run in progress hosted by hostID, live or
// assignment, as if the host had pressed "End the session": its students see
// the quiz ended and no answer is taken after. Deleting the host's account
// calls it first, so the deletion never leaves a room running on rows that
// are gone.
func (h *Hub) EndHostedBy(ctx context.Context, hostID int64) error {
	runs, err := h.cfg.Store.ListRuns(ctx, hostID, -1)
	if err != nil {
		return err
	}
	for _, run := range runs {
		if !run.EndedAt.IsZero() {
			continue
		}
		r, err := h.Room(ctx, run.ID)
		var elsewhere *NotOwnerError
		if errors.As(err, &elsewhere) {
			// Another instance runs it: the deletion takes the run's rows
			// (and its lease) with it, and that instance's writes to the
			// room are refused from then on, as for any room whose rows
			// are gone.
			continue
		}
		if err != nil {
			return err
		}
		if err := r.End(ctx); err != nil {
			return err
		}
	}
	return nil
}

// RoomByCode returns the running room with a join code.
func (h *Hub) RoomByCode(ctx context.Context, code string) (*Room, error) {
	run, err := h.cfg.Store.FindRunByCode(ctx, code)
	if err != nil {
		return nil, err
	}
	return h.Room(ctx, run.ID)
}

// NewToken returns a rejoin token and the hash the store keeps of it.
func NewToken() (token string, hash []byte) {
	b := make([]byte, 32)
	rand.Read(b)
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, HashToken(token)
}

// HashToken returns the stored form of a rejoin token.
func HashToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}
