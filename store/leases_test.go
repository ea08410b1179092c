package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
)

// A room's lease goes to the first instance that claims it; another sees
// the owner until the lease runs out, then takes it under a new epoch, and
// from then on the old owner's writes of the room's state and answers are
// refused (fenced) while the new owner's are stored.
func TestRoomLeasesFenceTheOldOwner(t *testing.T) {
	ctx := context.Background()
	db := MustOpenPostgres(t)
	leases := store.NewRoomLeaseService(db)
	ls, cs := store.NewLearnerService(db), store.NewClassroomService(db)
	_, run, players := hostedRoom(t, ls, cs, "lease_host", 2)

	const ttl = 300 * time.Millisecond
	a, err := leases.ClaimRoom(ctx, run.ID, "a", "http://a", ttl)
	if err != nil || a.Instance != "a" || a.Epoch != 1 {
		t.Fatalf("first claim: %+v %v, want a's at epoch 1", a, err)
	}
	if b, err := leases.ClaimRoom(ctx, run.ID, "b", "http://b", ttl); err != nil || b.Instance != "a" || b.Address != "http://a" {
		t.Fatalf("b's claim of a live lease: %+v %v, want a's named", b, err)
	}
	if again, err := leases.ClaimRoom(ctx, run.ID, "a", "http://a", ttl); err != nil || again.Epoch != 1 {
		t.Fatalf("a's renewal by claim: %+v %v, want the same epoch", again, err)
	}
	if ids, err := leases.RenewRooms(ctx, "a", ttl); err != nil || len(ids) != 1 || ids[0] != run.ID {
		t.Fatalf("renew: %v %v", ids, err)
	}

	old := *run
	old.Epoch = 1
	old.QuestionIndex = 0
	if err := cs.UpdateRunStates(ctx, []*examsim.ClassRun{&old}); err != nil {
		t.Fatalf("the owner's write: %v", err)
	}
	time.Sleep(ttl + 100*time.Millisecond) // a dies: its lease runs out
	b, err := leases.ClaimRoom(ctx, run.ID, "b", "http://b", ttl)
	if err != nil || b.Instance != "b" || b.Epoch != 2 {
		t.Fatalf("b's claim of an expired lease: %+v %v, want b's at epoch 2", b, err)
	}
	if ids, err := leases.RenewRooms(ctx, "a", ttl); err != nil || len(ids) != 0 {
		t.Fatalf("a renews a lease it lost: %v %v", ids, err)
	}

	late := old
	late.Phase = examsim.PhaseEnded
	current := old
	current.Epoch, current.QuestionIndex = 2, 1
	err = cs.UpdateRunStates(ctx, []*examsim.ClassRun{&late, &current})
	var refusedStates examsim.BatchErrors
	if !errors.As(err, &refusedStates) || examsim.ErrorCode(refusedStates[0]) != examsim.EUNAVAILABLE || refusedStates[1] != nil {
		t.Fatalf("a batch with the old owner's late state: %v, want only the late one refused, as unavailable", err)
	}
	lateAnswer := classAnswer(run, players[0])
	lateAnswer.Epoch = 1
	fresh := classAnswer(run, players[1])
	fresh.Epoch = 2
	err = cs.SaveAnswers(ctx, []*examsim.ClassAnswer{lateAnswer, fresh})
	var refused examsim.BatchErrors
	if !errors.As(err, &refused) || refused[0] == nil || refused[1] != nil {
		t.Fatalf("a batch with a late answer: %v, want only the late one refused", err)
	}
	stored, err := cs.ListAnswers(ctx, run.ID)
	if err != nil || len(stored) != 1 || stored[0].PlayerID != players[1].ID {
		t.Fatalf("stored answers: %v %v, want the new owner's only", stored, err)
	}
	got, err := cs.FindRun(ctx, run.ID)
	if err != nil || got.Phase == examsim.PhaseEnded || got.QuestionIndex != 1 {
		t.Fatalf("the run after a fenced write: %+v %v, want the new owner's state", got, err)
	}

	if err := leases.ReleaseRooms(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	if c, err := leases.ClaimRoom(ctx, run.ID, "c", "http://c", ttl); err != nil || c.Instance != "c" || c.Epoch != 3 {
		t.Fatalf("a claim after a release: %+v %v, want c's at epoch 3", c, err)
	}
	if store.NewRoomLeaseService(MustOpenDB(t)) != nil {
		t.Error("SQLite has a lease service; one process owns its rooms")
	}
}
