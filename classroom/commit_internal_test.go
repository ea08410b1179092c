package classroom

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/examsim/examsim"
	"github.com/google/go-cmp/cmp"
)

// writeLog is a real store that notes each transaction the committer asks
// of it and can hold the next answer batch until released.
type writeLog struct {
	examsim.ClassroomService
	mu      sync.Mutex
	log     []string
	hold    chan struct{} // when set, the next SaveAnswers waits for it
	holding chan struct{} // closed once that batch is being held
	// seen, when set, is noted at the start of each answer batch.
	seen func() string
}

// logWrites puts a writeLog between hub and its store.
func logWrites(hub *Hub) *writeLog {
	w := &writeLog{ClassroomService: hub.cfg.Store}
	hub.cfg.Store = w
	hub.commit.store = w
	return w
}

func (w *writeLog) note(s string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.log = append(w.log, s)
}

func (w *writeLog) SaveAnswers(ctx context.Context, as []*examsim.ClassAnswer) error {
	w.mu.Lock()
	hold, holding, seen := w.hold, w.holding, w.seen
	w.hold = nil
	w.mu.Unlock()
	if hold != nil {
		close(holding)
		<-hold
	}
	if seen != nil {
		w.note(seen())
	}
	w.note(fmt.Sprintf("answers %d", len(as)))
	return w.ClassroomService.SaveAnswers(ctx, as)
}

func (w *writeLog) UpdateRunStates(ctx context.Context, runs []*examsim.ClassRun) error {
	w.note(fmt.Sprintf("states %d", len(runs)))
	return w.ClassroomService.UpdateRunStates(ctx, runs)
}

// Rooms' states queued while an answer batch is being written go in the
// next transaction, before the answers queued ahead of them, and together:
// a Next waits for at most the transaction in progress, and rooms that move
// at once share one commit. Each room has moved (its streams woken) before
// the writer turns to anything else.
func TestStatesGoFirstAndTogether(t *testing.T) {
	ctx := context.Background()
	hub, first, _ := liveRoom(t)
	w := logWrites(hub)

	const rooms, students = 3, 4
	all := []*Room{first}
	for range rooms - 1 {
		r, err := hub.Create(ctx, &first.run.Quiz, first.run.HostID, examsim.ModeLive, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, r)
	}
	var players []int64
	for i := range students {
		p, _, err := first.Join(ctx, fmt.Sprintf("p%d", i), examsim.English, 0)
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, p.ID)
	}
	if err := first.Next(ctx, -1); err != nil {
		t.Fatal(err)
	}
	q, _ := hub.cfg.Bank.Question(first.run.Quiz.QuestionIDs[0])
	choice := q.Answer

	w.mu.Lock()
	w.hold, w.holding = make(chan struct{}), make(chan struct{})
	release, holding := w.hold, w.holding
	w.log = nil
	w.seen = func() string {
		moved := 0
		for _, r := range all[1:] {
			if r.StageSnapshot().Run.Phase == examsim.PhaseQuestion {
				moved++
			}
		}
		return fmt.Sprintf("%d rooms moved", moved)
	}
	w.mu.Unlock()
	var wg sync.WaitGroup
	answer := func(id int64) {
		defer wg.Done()
		if _, err := first.Answer(ctx, id, 0, choice, ""); err != nil {
			t.Error(err)
		}
	}
	wg.Add(1)
	go answer(players[0])
	<-holding // the first batch is being written
	for _, id := range players[1:] {
		wg.Add(1)
		go answer(id)
	}
	waitFor(t, func() bool { return len(hub.commit.in) == students-1 })
	for _, r := range all[1:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := r.Next(ctx, -1); err != nil {
				t.Error(err)
			}
		}()
	}
	waitFor(t, func() bool { return len(hub.commit.states) == rooms-1 })
	close(release)
	wg.Wait()

	w.mu.Lock()
	got := w.log
	w.mu.Unlock()
	want := []string{"0 rooms moved", "answers 1", fmt.Sprintf("states %d", rooms-1),
		fmt.Sprintf("%d rooms moved", rooms-1), fmt.Sprintf("answers %d", students-1)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("transactions (-want +got):\n%s", diff)
	}
	for _, r := range all[1:] {
		run, err := hub.cfg.Store.FindRun(ctx, r.ID)
		if err != nil || run.Phase != examsim.PhaseQuestion {
			t.Errorf("room %d after its Next: %+v %v, want its question stored", r.ID, run, err)
		}
	}
}

// waitFor polls until ok holds, for at most ten seconds.
func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !ok(); time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("timed out")
		}
	}
}

// An answer admitted before its question closed but committed after the
// room's Reveal (states go before queued answers) still reaches what the
// students see: the reveal's counts.
func TestAnswerCommittedAfterTheRevealIsShown(t *testing.T) {
	ctx := context.Background()
	hub, room, first := liveRoom(t)
	w := logWrites(hub)
	second, _, err := room.Join(ctx, "Bo", examsim.English, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := room.Next(ctx, -1); err != nil {
		t.Fatal(err)
	}
	q, _ := hub.cfg.Bank.Question(room.run.Quiz.QuestionIDs[0])

	w.mu.Lock()
	w.hold, w.holding = make(chan struct{}), make(chan struct{})
	release, holding := w.hold, w.holding
	w.mu.Unlock()
	var wg sync.WaitGroup
	for _, id := range []int64{first.ID, second.ID} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := room.Answer(ctx, id, 0, q.Answer, ""); err != nil {
				t.Error(err)
			}
		}()
		if id == first.ID {
			<-holding // the first answer's batch is being written; the second queues
		}
	}
	waitFor(t, func() bool { return len(hub.commit.in) == 1 })
	revealed := make(chan error, 1)
	go func() { revealed <- room.Reveal(ctx, 0) }()
	waitFor(t, func() bool { return len(hub.commit.states) == 1 })
	close(release)
	wg.Wait()
	if err := <-revealed; err != nil {
		t.Fatal(err)
	}
	stage := room.StageSnapshot()
	if stage.Run.Phase != examsim.PhaseReveal || stage.Answered != 2 {
		t.Errorf("the students' stage after the reveal: phase %s, %d answered; want reveal with both answers", stage.Run.Phase, stage.Answered)
	}
}
