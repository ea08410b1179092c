package classroom

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/store"
)

// liveRoom opens a hub on a fresh database with a live two-question room
// and one student in it.
func liveRoom(t *testing.T) (*Hub, *Room, *examsim.Player) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "class.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	fsys, name := questions.Embedded()
	bank, problems := questions.Load(fsys, name)
	if bank == nil {
		t.Fatal(problems)
	}
	classes := store.NewClassroomService(db)
	hub := NewHub(Config{Store: classes, Bank: bank})
	t.Cleanup(hub.Close)
	host, err := store.NewLearnerService(db).CreateAccount(ctx, "teacher", "correct-horse", examsim.RoleInstructor)
	if err != nil {
		t.Fatal(err)
	}
	quiz := &examsim.Quiz{OwnerID: host.ID, Title: "Errors", QuestionIDs: []string{"empty-result-retry-loop", "malformed-order-id"},
		SecondsPerQuestion: 20, Leaderboard: true, Scoring: examsim.ScoreCorrectness, Explanations: examsim.ExplainOptional}
	if err := classes.CreateQuiz(ctx, quiz); err != nil {
		t.Fatal(err)
	}
	room, err := hub.Create(ctx, quiz, host.ID, examsim.ModeLive, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := room.Join(ctx, "Ana", examsim.English, 0)
	if err != nil {
		t.Fatal(err)
	}
	return hub, room, p
}

// A Next wakes every student's stream at once. Each reads the new stage and
// its own line; neither may wait for the room's lock behind the others, or
// a thousand streams are served one by one. So: with a writer holding the
// lock, StageSnapshot still answers with the new stage, and with a reader
// holding it, Player still answers; and they are woken only once the lock
// is let go.
func TestStreamsReadTheStageWithoutQueueing(t *testing.T) {
	ctx := context.Background()
	_, room, p := liveRoom(t)
	before := room.StageSnapshot()
	if err := room.Next(ctx, -1); err != nil {
		t.Fatal(err)
	}

	within := func(what string, f func()) {
		t.Helper()
		done := make(chan struct{})
		go func() { f(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s waited for the room's lock", what)
		}
	}
	room.mu.Lock()
	var stage *Snapshot
	within("StageSnapshot", func() { stage = room.StageSnapshot() })
	room.mu.Unlock()
	if stage.Version == before.Version || stage.Question == nil || stage.Question.ID != "empty-result-retry-loop" {
		t.Errorf("after Next the stage is version %d (was %d) with question %v; want the first question's new stage", stage.Version, before.Version, stage.Question)
	}

	room.mu.RLock()
	within("Player", func() {
		if _, ok := room.Player(p.ID); !ok {
			t.Error("the joined student is not in the room")
		}
	})
	room.mu.RUnlock()

	// A change students see wakes their streams once the lock is let go:
	// woken under it, each would run only to wait for it.
	st := room.Watch(p.ID)
	defer st.Close()
	<-st.C() // its first state
	room.mu.Lock()
	woken := room.changedLocked(true)
	select {
	case <-st.C():
		t.Error("a student's stream was woken with the room's lock held")
	default:
	}
	room.mu.Unlock()
	wakeAll(woken)
	select {
	case <-st.C():
	case <-time.After(10 * time.Second):
		t.Error("the student's stream was never woken")
	}
}

// TestReloadedRoomVersionsAreNew: a room dropped and read back starts its
// versions past the earlier load's, so nothing cached by room and version
// (a stage, an own line) is taken for what the reloaded room shows.
func TestReloadedRoomVersionsAreNew(t *testing.T) {
	ctx := context.Background()
	hub, room, _ := liveRoom(t)
	if err := room.Next(ctx, -1); err != nil {
		t.Fatal(err)
	}
	before := room.StageSnapshot().Version
	if err := room.End(ctx); err != nil {
		t.Fatal(err)
	}
	if n := hub.Evict(time.Now().Add(time.Hour)); n != 1 {
		t.Fatalf("evicted %d rooms, want the ended one", n)
	}
	again, err := hub.Room(ctx, room.ID)
	if err != nil {
		t.Fatal(err)
	}
	if again == room {
		t.Fatal("the evicted room was not read back")
	}
	if after := again.StageSnapshot().Version; after <= before {
		t.Errorf("the reloaded room is at version %d, not past its earlier load's %d", after, before)
	}
}
