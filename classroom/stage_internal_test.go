package classroom

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/store"
	"github.com/google/go-cmp/cmp"
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
// its own line; neither may wait for the room's lock, or a stream parked
// behind a writer runs again only after the thousands woken with it. So:
// with a writer holding the lock, StageSnapshot still answers with the new
// stage and Player with the student's line; and the streams are woken only
// once the lock is let go.
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

	// Nor Player, even behind a writer: an answer being applied holds the
	// lock while the streams of a Next read their own lines.
	room.mu.Lock()
	within("Player", func() {
		if _, ok := room.Player(p.ID); !ok {
			t.Error("the joined student is not in the room")
		}
	})
	room.mu.Unlock()

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

// TestPlayerViewFollowsEveryChange: Player reads views published by each
// change rather than the room itself, so after every kind of change each
// student's view must be what the room holds. A change that forgets to
// publish fails here.
func TestPlayerViewFollowsEveryChange(t *testing.T) {
	ctx := context.Background()
	hub, room, ana := liveRoom(t)
	ben, _, err := room.Join(ctx, "Ben", examsim.Polish, 0)
	if err != nil {
		t.Fatal(err)
	}
	cy, _, err := room.Join(ctx, "Cy", examsim.Thai, 0)
	if err != nil {
		t.Fatal(err)
	}
	check := func(step string) {
		t.Helper()
		for _, id := range []int64{ana.ID, ben.ID, cy.ID} {
			room.mu.Lock()
			p := room.players[id]
			want, wantOK := *room.viewLocked(p), !p.Kicked
			room.mu.Unlock()
			if !wantOK {
				want = PlayerView{}
			}
			got, ok := room.Player(id)
			if ok != wantOK {
				t.Errorf("after %s, player %d: in the room %t, want %t", step, id, ok, wantOK)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("after %s, player %d's view differs from the room's (-room +view):\n%s", step, id, diff)
			}
		}
	}
	check("joining")
	steps := []struct {
		name string
		do   func() error
	}{
		{"the first question", func() error { return room.Next(ctx, -1) }},
		{"an answer", func() error {
			_, err := room.Answer(ctx, ana.ID, 0, room.qs[0].Answer, "")
			return err
		}},
		{"a wrong answer", func() error {
			_, err := room.Answer(ctx, ben.ID, 0, wrongChoice(room.qs[0].Answer), "")
			return err
		}},
		{"an answer admitted, not yet written", func() error {
			_, err := room.admit(cy.ID, 0, room.qs[0].Answer, "")
			return err
		}},
		{"the admitted answer given back", func() error { room.unpend(answerKey{cy.ID, 0}); return nil }},
		{"the reveal", func() error { return room.Reveal(ctx, 0) }},
		{"the leaderboard", func() error { return room.ShowLeaderboard(ctx, 0) }},
		{"a language switch", func() error { return room.SetLang(ctx, ben.ID, examsim.Vietnamese) }},
		{"the second question", func() error { return room.Next(ctx, 0) }},
		{"an answer to it", func() error {
			_, err := room.Answer(ctx, cy.ID, 1, room.qs[1].Answer, "")
			return err
		}},
		{"a kick", func() error { return room.Kick(ctx, ben.ID) }},
		{"the end", func() error { return room.End(ctx) }},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		check(st.name)
	}
	if v, _ := room.Player(ana.ID); v.Points == 0 || v.Answer(0) == nil {
		t.Errorf("Ana's view after the quiz: %s; want her answer and its points", fmt.Sprint(v.Points, v.Answer(0)))
	}

	// A room read back from the database publishes its views as it loads.
	if n := hub.Evict(time.Now().Add(time.Hour)); n != 1 {
		t.Fatalf("evicted %d rooms, want the ended one", n)
	}
	if room, err = hub.Room(ctx, room.ID); err != nil {
		t.Fatal(err)
	}
	check("reading the room back")
	if v, _ := room.Player(ana.ID); v.Points == 0 || v.Answer(0) == nil {
		t.Errorf("Ana's view in the room read back: %s; want her answer and its points", fmt.Sprint(v.Points, v.Answer(0)))
	}
}

// wrongChoice is an option letter other than answer.
func wrongChoice(answer string) string {
	if answer == "A" {
		return "B"
	}
	return "A"
}
