package store_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
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

// A batch of rooms' writes and the heartbeat lock the rooms' leases in run
// order, so the two never wait for each other in a cycle (PostgreSQL would
// abort one: a batch of states or answers failed, or a lost heartbeat).
// With the lower room's lease held elsewhere, each must wait there before
// it has locked the higher one: the higher stays free to lock at once.
func TestRoomWritesLockLeasesInRunOrder(t *testing.T) {
	ctx := context.Background()
	db := MustOpenPostgres(t)
	leases := store.NewRoomLeaseService(db)
	ls, cs := store.NewLearnerService(db), store.NewClassroomService(db)
	_, low, lowPlayers := hostedRoom(t, ls, cs, "order_low", 1)
	_, high, highPlayers := hostedRoom(t, ls, cs, "order_high", 1)
	for _, run := range []*examsim.ClassRun{high, low} { // the higher row first, where a scan finds it first
		if l, err := leases.ClaimRoom(ctx, run.ID, "a", "http://a", time.Minute); err != nil || l.Epoch != 1 {
			t.Fatalf("claim: %+v %v", l, err)
		}
		run.Epoch = 1
	}
	highAnswer, lowAnswer := classAnswer(high, highPlayers[0]), classAnswer(low, lowPlayers[0])
	highAnswer.Epoch, lowAnswer.Epoch = 1, 1
	writes := map[string]func() error{
		"UpdateRunStates": func() error { return cs.UpdateRunStates(ctx, []*examsim.ClassRun{high, low}) },
		"SaveAnswers":     func() error { return cs.SaveAnswers(ctx, []*examsim.ClassAnswer{highAnswer, lowAnswer}) },
		"RenewRooms": func() error {
			ids, err := leases.RenewRooms(ctx, "a", time.Minute)
			if err == nil && len(ids) != 2 {
				err = fmt.Errorf("renewed %v, want both rooms", ids)
			}
			return err
		},
	}
	for name, write := range writes {
		t.Run(name, func(t *testing.T) {
			blocker := db.BeginSQL(t)
			if _, err := blocker.Exec(`SELECT 1 FROM room_leases WHERE run_id = ? FOR UPDATE`, low.ID); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- write() }()
			for waiting := 0; waiting == 0; time.Sleep(5 * time.Millisecond) {
				n, err := strconv.Atoi(db.QueryString(t, `SELECT count(*)::text FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`))
				if err != nil {
					t.Fatal(err)
				}
				waiting = n
				select {
				case err := <-done:
					t.Fatalf("%s finished with the lower room's lease held elsewhere: %v", name, err)
				default:
				}
			}
			probe := db.BeginSQL(t)
			if _, err := probe.Exec(`SELECT 1 FROM room_leases WHERE run_id = ? FOR UPDATE NOWAIT`, high.ID); err != nil {
				t.Errorf("%s locked the higher room's lease before the lower one's: %v", name, err)
			}
			_ = probe.Rollback()
			_ = blocker.Rollback()
			if err := <-done; err != nil {
				t.Errorf("%s once the lease was let go: %v", name, err)
			}
		})
	}
}
