package classroom_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/classroom"
)

// TestCloseCommitsQueuedAnswers shuts the hub down while a group commit is
// being written and hundreds of answers wait behind it: Close waits for
// them all to be committed, each is acknowledged, and an answer that comes
// after Close is refused as unavailable rather than lost silently.
func TestCloseCommitsQueuedAnswers(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	slow := &slowStore{ClassroomService: f.classes, release: make(chan struct{})}
	hub := classroom.NewHub(classroom.Config{Store: slow, Bank: f.bank, Now: f.clock.Now, MaxBatch: 128}) // its queue holds 512: the whole burst waits in it
	t.Cleanup(hub.Close)
	room, err := hub.Create(ctx, f.quiz(t, examsim.ScoreCorrectness, examsim.ExplainOff), f.host.ID, examsim.ModeLive, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	const n = 300
	ids := make([]int64, n+1)
	for i := range ids {
		p, _, err := room.Join(ctx, fmt.Sprintf("p%d", i), examsim.English, 0)
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = p.ID
	}
	late := ids[n]
	room.Next(ctx, -1)
	errs := make(chan error, n)
	for _, id := range ids[:n] {
		go func() {
			_, err := room.Answer(ctx, id, 0, f.answerOf(0), "")
			errs <- err
		}()
	}
	for held := 0; held == 0 || held+hub.Stats().Queued < n; held = slow.heldSize() {
		time.Sleep(time.Millisecond)
	}

	closed := make(chan struct{})
	go func() {
		hub.Close()
		close(closed)
	}()
	select {
	case <-closed:
		t.Fatal("Close returned while answers were still queued")
	case <-time.After(20 * time.Millisecond): // Close must be waiting on the held commit
	}
	close(slow.release)
	<-closed
	for range n {
		if err := <-errs; err != nil {
			t.Errorf("a queued answer was not committed: %v", err)
		}
	}
	stored, err := f.classes.ListAnswers(ctx, room.ID)
	if err != nil || len(stored) != n {
		t.Errorf("stored %d answers of %d (%v)", len(stored), n, err)
	}
	if _, err := room.Answer(ctx, late, 0, f.answerOf(0), ""); examsim.ErrorCode(err) != examsim.EUNAVAILABLE {
		t.Errorf("an answer after Close: %v, want EUNAVAILABLE", err)
	}
}
