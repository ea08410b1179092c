package classroom_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/classroom"
	"github.com/examsim/examsim/internal/pgtest"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/store"
)

// leaseWorld is one PostgreSQL database that hubs share as instances do:
// its classroom store and leases, and a teacher with a quiz.
type leaseWorld struct {
	classes *store.ClassroomService
	leases  *store.RoomLeaseService
	host    *examsim.Learner
	quiz    *examsim.Quiz
	ttl     time.Duration
	bank    *questions.Bank
}

func newLeaseWorld(t *testing.T, ttl time.Duration) *leaseWorld {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() }) // after the hubs: nothing reads it again
	w := &leaseWorld{classes: store.NewClassroomService(db), leases: store.NewRoomLeaseService(db), ttl: ttl}
	w.bank, _ = bankOnce()
	if w.host, err = store.NewLearnerService(db).CreateAccount(ctx, "lease_teacher", "correct-horse", examsim.RoleInstructor); err != nil {
		t.Fatal(err)
	}
	w.quiz = &examsim.Quiz{OwnerID: w.host.ID, Title: "Leases", QuestionIDs: quizIDs, SecondsPerQuestion: 20,
		Scoring: examsim.ScoreCorrectness, Explanations: examsim.ExplainOptional}
	if err := w.classes.CreateQuiz(ctx, w.quiz); err != nil {
		t.Fatal(err)
	}
	return w
}

// hub is an instance named name on the world's database, closed at the end.
func (w *leaseWorld) hub(t *testing.T, name string) *classroom.Hub {
	h := classroom.NewHub(classroom.Config{Store: w.classes, Bank: w.bank, Leases: w.leases, Instance: name,
		Address: "http://" + name, LeaseTTL: w.ttl})
	t.Cleanup(h.Close)
	return h
}

// Two hubs on one PostgreSQL database, as two instances: the room lives on
// the one that took its lease, and the other is told where. When the owner
// stops renewing (it died), the other takes the room over from the
// database under a new epoch (players, the question in play, the answer
// already given), and the old owner's late writes are refused.
func TestHubsShareRoomsThroughLeases(t *testing.T) {
	ctx := context.Background()
	w := newLeaseWorld(t, 600*time.Millisecond)
	classes, host, quiz, ttl := w.classes, w.host, w.quiz, w.ttl
	a, b := w.hub(t, "a"), w.hub(t, "b")
	roomA, err := a.Create(ctx, quiz, host.ID, examsim.ModeLive, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := roomA.Join(ctx, "Ana", examsim.English, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := roomA.Next(ctx, -1); err != nil {
		t.Fatal(err)
	}
	if _, err := roomA.Answer(ctx, p.ID, 0, "A", ""); err != nil {
		t.Fatalf("an answer on the owner: %v", err)
	}
	time.Sleep(2 * ttl) // a renews meanwhile: the room stays a's
	var elsewhere *classroom.NotOwnerError
	if _, err := b.Room(ctx, roomA.ID); !errors.As(err, &elsewhere) || elsewhere.Address != "http://a" {
		t.Fatalf("b asked for a's room: %v, want a NotOwnerError naming http://a", err)
	}
	// Deleting the host's account on b (EndHostedBy first) is not stopped
	// by a room a runs: the deletion takes that room's rows with it.
	if err := b.EndHostedBy(ctx, host.ID); err != nil {
		t.Errorf("ending the host's rooms on an instance that owns none: %v", err)
	}

	a.Close() // a dies: no more renewals, and no release
	time.Sleep(ttl + 200*time.Millisecond)
	roomB, err := b.Room(ctx, roomA.ID)
	if err != nil {
		t.Fatalf("b takes the room over: %v", err)
	}
	snap := roomB.Snapshot()
	if snap.Run.QuestionIndex != 0 || snap.Run.Phase != examsim.PhaseQuestion {
		t.Errorf("the room on b: question %d, phase %s; want question 0 in play", snap.Run.QuestionIndex, snap.Run.Phase)
	}
	if _, err := roomB.Answer(ctx, p.ID, 0, "B", ""); examsim.ErrorCode(err) != examsim.ECONFLICT {
		t.Errorf("a second answer to the same question on b: %v, want refused: b knows the first", err)
	}
	if err := roomA.Reveal(ctx, 0); examsim.ErrorCode(err) != examsim.EUNAVAILABLE {
		t.Errorf("a late control on the old owner: %v, want refused (fenced)", err)
	}
	if err := roomB.Reveal(ctx, 0); err != nil {
		t.Errorf("the new owner's reveal: %v", err)
	}
	run, err := classes.FindRun(ctx, roomA.ID)
	if err != nil || run.Phase != examsim.PhaseReveal {
		t.Errorf("the stored run: %+v %v, want the new owner's reveal", run, err)
	}
}

// An owner that is alive but has lost a room's lease (here released under
// it, as if it had been cut off from PostgreSQL) lets the room go on its
// next heartbeat: its streams end as Moved, so browsers reconnect and reach
// the new owner, and a request for the room is sent there.
func TestHubLetsGoOfARoomItLost(t *testing.T) {
	ctx := context.Background()
	w := newLeaseWorld(t, 600*time.Millisecond)
	leases, host, quiz, ttl := w.leases, w.host, w.quiz, w.ttl
	a, b := w.hub(t, "a"), w.hub(t, "b")
	room, err := a.Create(ctx, quiz, host.ID, examsim.ModeLive, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	stream := room.Watch(0)
	defer stream.Close()
	if err := leases.ReleaseRooms(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Room(ctx, room.ID); err != nil {
		t.Fatalf("b takes the released room: %v", err)
	}
	select {
	case <-stream.Ended():
		if stream.Reason() != classroom.Moved {
			t.Errorf("the stream ended as %v, want Moved", stream.Reason())
		}
	case <-time.After(3 * ttl):
		t.Fatal("a kept the room's stream open after losing its lease")
	}
	var elsewhere *classroom.NotOwnerError
	if _, err := a.Room(ctx, room.ID); !errors.As(err, &elsewhere) || elsewhere.Address != "http://b" {
		t.Errorf("a asked for the room it lost: %v, want a NotOwnerError naming http://b", err)
	}
}

// An owner that lost a room's lease, and has not yet noticed (its next
// heartbeat is far off), cannot join, kick or change a student's language
// any more: each is refused as unavailable (retry: the request then reaches
// the new owner), and the new owner's room and the database are as the new
// owner read them. The new owner does each.
func TestOldOwnerJoinsKicksAndLanguagesAreFenced(t *testing.T) {
	ctx := context.Background()
	w := newLeaseWorld(t, time.Minute) // no heartbeat runs during the test: a keeps the room it lost
	classes, leases, host, quiz := w.classes, w.leases, w.host, w.quiz
	a, b := w.hub(t, "a"), w.hub(t, "b")
	oldRoom, err := a.Create(ctx, quiz, host.ID, examsim.ModeLive, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	ana, anaToken, err := oldRoom.Join(ctx, "Ana", examsim.English, 0)
	if err != nil {
		t.Fatal(err)
	}
	bo, boToken, err := oldRoom.Join(ctx, "Bo", examsim.English, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := leases.ReleaseRooms(ctx, "a"); err != nil { // as if a had been cut off past its lease
		t.Fatal(err)
	}
	newRoom, err := b.Room(ctx, oldRoom.ID)
	if err != nil {
		t.Fatalf("b takes the room over: %v", err)
	}

	late := []struct {
		name string
		do   func(r *classroom.Room) error
	}{
		{"join", func(r *classroom.Room) error { _, _, err := r.Join(ctx, "Cy", examsim.English, 0); return err }},
		{"kick", func(r *classroom.Room) error { return r.Kick(ctx, ana.ID) }},
		{"language", func(r *classroom.Room) error { return r.SetLang(ctx, bo.ID, examsim.Polish) }},
	}
	for _, tc := range late {
		if err := tc.do(oldRoom); examsim.ErrorCode(err) != examsim.EUNAVAILABLE {
			t.Errorf("the old owner's late %s: %v, want refused as unavailable (retryable)", tc.name, err)
		}
	}
	type seen struct {
		Nickname string
		Lang     examsim.Lang
		Kicked   bool
	}
	stored := func() []seen {
		t.Helper()
		players, err := classes.ListPlayers(ctx, oldRoom.ID)
		if err != nil {
			t.Fatal(err)
		}
		var out []seen
		for _, p := range players {
			out = append(out, seen{p.Nickname, p.Lang, p.Kicked})
		}
		return out
	}
	want := []seen{{"Ana", examsim.English, false}, {"Bo", examsim.English, false}}
	if diff := cmp.Diff(want, stored()); diff != "" {
		t.Errorf("players stored after the old owner's late changes (-want +got):\n%s", diff)
	}
	if p, ok := newRoom.Rejoin(anaToken); !ok || p.Kicked {
		t.Errorf("Ana on the new owner: %+v %v, want still in the room", p, ok)
	}
	if p, ok := newRoom.Rejoin(boToken); !ok || p.Lang != examsim.English {
		t.Errorf("Bo on the new owner: %+v %v, want English still", p, ok)
	}

	for _, tc := range late {
		if err := tc.do(newRoom); err != nil {
			t.Errorf("the new owner's %s: %v", tc.name, err)
		}
	}
	want = []seen{{"Ana", examsim.English, true}, {"Bo", examsim.Polish, false}, {"Cy", examsim.English, false}}
	if diff := cmp.Diff(want, stored()); diff != "" {
		t.Errorf("players stored after the new owner's changes (-want +got):\n%s", diff)
	}
}
