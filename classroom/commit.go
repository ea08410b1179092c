package classroom

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/examsim/examsim"
)

// committer is the single writer of answers and of rooms' states. Each
// write waits until the transaction holding it has committed, and writes
// that arrive while one transaction is being written go together into the
// next: a burst of a thousand answers costs a handful of fsyncs, not a
// thousand, and nobody waits for a timer when the room is quiet.
//
// A room's state goes first: phones see a new question only once its state
// is committed, so a state waits for at most the transaction in progress,
// never for the answers queued behind it, and the committer applies it the
// moment it is stored. Written beside the answers from another connection
// it waited for SQLite's lock instead, whose busy handler sleeps 1, 2, 5 ...
// 100 ms between tries while the answers took turns: 60-130 ms with twenty
// rooms playing.
type committer struct {
	store    examsim.ClassroomService
	in       chan *pendingAnswer
	states   chan *pendingState
	maxBatch int

	stopOnce sync.Once
	stop     chan struct{}
	stopped  chan struct{}

	batches   atomic.Int64
	committed atomic.Int64
	failed    atomic.Int64
	// onBatch, when set, is told each batch's size and how long it took.
	onBatch func(size int, took time.Duration)
	logger  *slog.Logger
}

type pendingAnswer = pending[*examsim.ClassAnswer]
type pendingState = pending[*examsim.ClassRun]

// pending is a write queued for the committer and where its verdict goes.
type pending[T any] struct {
	item T
	// then, when set, runs on the committer once the item is committed,
	// before any later write: what makes the change seen. It must never
	// wait for the committer (it would wait for itself).
	then func()
	done chan error
}

func newCommitter(store examsim.ClassroomService, maxBatch int) *committer {
	c := &committer{store: store, in: make(chan *pendingAnswer, 4*maxBatch), states: make(chan *pendingState, maxBatch),
		maxBatch: maxBatch, stop: make(chan struct{}), stopped: make(chan struct{})}
	go c.run()
	return c
}

// save queues an answer and returns once it is committed, or why it is not.
func (c *committer) save(ctx context.Context, a *examsim.ClassAnswer) error {
	return queue(ctx, c, c.in, a, nil)
}

// saveState queues a room's state and returns once it is committed, or why
// it is not. then, run by the committer right after the commit, shows the
// change: rooms that move together are all woken the moment their states
// are on disk, not each when its caller is next scheduled, which behind
// the first rooms' thousands of woken streams was up to 80 ms later.
func (c *committer) saveState(ctx context.Context, run *examsim.ClassRun, then func()) error {
	return queue(ctx, c, c.states, run, then)
}

func queue[T any](ctx context.Context, c *committer, in chan *pending[T], item T, then func()) error {
	p := &pending[T]{item: item, then: then, done: make(chan error, 1)}
	select {
	case in <- p:
	case <-ctx.Done():
		return examsim.E(examsim.EUNAVAILABLE, "error.unavailable")
	case <-c.stop:
		return examsim.E(examsim.EUNAVAILABLE, "error.unavailable")
	}
	// Once queued, wait for the verdict even if the client has gone: the
	// room's state must follow what the database holds.
	select {
	case err := <-p.done:
		return err
	case <-c.stopped:
		select {
		case err := <-p.done:
			return err
		default: // queued after the writer's last drain: never written
			return examsim.E(examsim.EUNAVAILABLE, "error.unavailable")
		}
	}
}

// queued returns how many answers wait for the next transaction.
func (c *committer) queued() int { return len(c.in) }

func (c *committer) run() {
	defer close(c.stopped)
	for {
		select { // states first, whatever else is waiting
		case p := <-c.states:
			c.writeStates(gather(p, c.states, c.maxBatch))
			continue
		default:
		}
		select {
		case p := <-c.states:
			c.writeStates(gather(p, c.states, c.maxBatch))
		case p := <-c.in:
			c.write(gather(p, c.in, c.maxBatch))
		case <-c.stop:
			if len(c.states) == 0 && len(c.in) == 0 { // what was queued before the stop is written
				return
			}
		}
	}
}

// gather takes first and whatever else is already waiting in in, up to max.
func gather[T any](first *pending[T], in chan *pending[T], max int) []*pending[T] {
	batch := []*pending[T]{first}
	for len(batch) < max {
		select {
		case p := <-in:
			batch = append(batch, p)
		default:
			return batch
		}
	}
	return batch
}

func (c *committer) writeStates(batch []*pendingState) {
	runs := make([]*examsim.ClassRun, len(batch))
	for i, p := range batch {
		runs[i] = p.item
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	err := c.store.UpdateRunStates(ctx, runs)
	cancel()
	errs, _, whole := verdicts(len(batch), err)
	deliver(batch, errs)
	if whole && c.logger != nil {
		c.logger.Error("classroom: a commit of rooms' states failed; none of them changed", "rooms", len(batch), "err", err)
	}
}

func (c *committer) write(batch []*pendingAnswer) {
	answers := make([]*examsim.ClassAnswer, len(batch))
	for i, p := range batch {
		answers[i] = p.item
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	err := c.store.SaveAnswers(ctx, answers)
	cancel()
	c.batches.Add(1)
	if c.onBatch != nil {
		c.onBatch(len(batch), time.Since(start))
	}
	errs, failed, whole := verdicts(len(batch), err)
	// Counted before any writer hears back: an answer acknowledged is
	// already in Stats.
	c.failed.Add(int64(failed))
	c.committed.Add(int64(len(batch) - failed))
	deliver(batch, errs)
	if whole && c.logger != nil { // each request logs too; this says it was one transaction
		c.logger.Error("classroom: a group commit failed; none of its answers was acknowledged", "answers", len(batch), "err", err)
	}
}

// verdicts is each write's verdict for a batch of n that the store
// answered with err, how many failed, and whether the transaction as a
// whole did. A BatchErrors says which items the store refused; it stored
// the rest. Any other error failed them all.
func verdicts(n int, err error) (errs []error, failed int, whole bool) {
	var refused examsim.BatchErrors
	split := errors.As(err, &refused) && len(refused) == n
	errs = make([]error, n)
	for i := range errs {
		errs[i] = err
		if split {
			errs[i] = refused[i]
		}
		if errs[i] != nil {
			failed++
		}
	}
	return errs, failed, err != nil && !split
}

// deliver gives each write of a batch its verdict, after running its then
// if it was stored.
func deliver[T any](batch []*pending[T], errs []error) {
	for i, p := range batch {
		if errs[i] == nil && p.then != nil {
			p.then()
		}
		p.done <- errs[i]
	}
}

func (c *committer) close() {
	c.stopOnce.Do(func() { close(c.stop) })
	<-c.stopped
}
