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

// committer is the single writer of answers. Each answer waits until the
// transaction holding it has committed, and answers that arrive while one
// transaction is being written go together into the next: a burst of a
// thousand answers costs a handful of fsyncs, not a thousand, and nobody
// waits for a timer when the room is quiet.
type committer struct {
	store    examsim.ClassroomService
	in       chan *pendingAnswer
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

type pendingAnswer struct {
	answer *examsim.ClassAnswer
	done   chan error
}

func newCommitter(store examsim.ClassroomService, maxBatch int) *committer {
	c := &committer{store: store, in: make(chan *pendingAnswer, 4*maxBatch), maxBatch: maxBatch,
		stop: make(chan struct{}), stopped: make(chan struct{})}
	go c.run()
	return c
}

// save queues an answer and returns once it is committed, or why it is not.
func (c *committer) save(ctx context.Context, a *examsim.ClassAnswer) error {
	p := &pendingAnswer{answer: a, done: make(chan error, 1)}
	select {
	case c.in <- p:
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
		select {
		case p := <-c.in:
			c.write(c.gather(p))
		case <-c.stop:
			for { // finish what was queued before the stop
				select {
				case p := <-c.in:
					c.write(c.gather(p))
				default:
					return
				}
			}
		}
	}
}

// gather takes first and whatever else is already waiting, up to maxBatch.
func (c *committer) gather(first *pendingAnswer) []*pendingAnswer {
	batch := []*pendingAnswer{first}
	for len(batch) < c.maxBatch {
		select {
		case p := <-c.in:
			batch = append(batch, p)
		default:
			return batch
		}
	}
	return batch
}

func (c *committer) write(batch []*pendingAnswer) {
	answers := make([]*examsim.ClassAnswer, len(batch))
	for i, p := range batch {
		answers[i] = p.answer
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	err := c.store.SaveAnswers(ctx, answers)
	cancel()
	c.batches.Add(1)
	if c.onBatch != nil {
		c.onBatch(len(batch), time.Since(start))
	}
	var refused examsim.AnswerErrors
	if errors.As(err, &refused) && len(refused) == len(batch) {
		// The store stored the rest: only the refused answers fail.
		for i, p := range batch {
			if refused[i] != nil {
				c.failed.Add(1)
			} else {
				c.committed.Add(1)
			}
			p.done <- refused[i]
		}
		return
	}
	if err != nil {
		c.failed.Add(int64(len(batch)))
		if c.logger != nil { // each request logs too; this says it was one transaction
			c.logger.Error("classroom: a group commit failed; none of its answers was acknowledged", "answers", len(batch), "err", err)
		}
	} else {
		c.committed.Add(int64(len(batch)))
	}
	for _, p := range batch {
		p.done <- err
	}
}

func (c *committer) close() {
	c.stopOnce.Do(func() { close(c.stop) })
	<-c.stopped
}
