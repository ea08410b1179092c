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

// A Next wakes every student's stream at once. Each reads the new stage and
// its own line; neither may wait for the room's lock behind the others, or
// a thousand streams are served one by one. So: with a writer holding the
// lock, StageSnapshot still answers with the new stage, and with a reader
// holding it, Player still answers; and they are woken only once the lock
// is let go.
func TestStreamsReadTheStageWithoutQueueing(t *testing.T) {
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
