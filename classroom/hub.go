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
}

// Hub holds the rooms of the quiz runs in progress.
type Hub struct {
	cfg    Config
	commit *committer

	mu    sync.Mutex
	rooms map[int64]*Room

	streams atomic.Int64
	closed  chan struct{}
	once    sync.Once
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
	h := &Hub{cfg: cfg, rooms: map[int64]*Room{}, closed: make(chan struct{})}
	h.commit = newCommitter(cfg.Store, cfg.MaxBatch)
	h.commit.onBatch = cfg.OnBatch
	h.commit.logger = cfg.Logger
	go h.sweep()
	return h
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
	run, err := h.cfg.Store.FindRun(ctx, runID)
	if err != nil {
		return nil, err
	}
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
