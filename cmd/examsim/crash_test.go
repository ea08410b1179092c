package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/examsim/examsim/internal/loadgen"
	"github.com/examsim/examsim/internal/scenario"
	"github.com/examsim/examsim/store"
)

// TestCrashKeepsAcknowledgedAnswers runs examsim as a real process, drives a
// classroom burst (a live room, many students answering each question at
// once) and practice submissions beside it, SIGKILLs the server mid-burst,
// restarts it on the same database and checks that every acknowledged
// answer is there as sent and that PRAGMA integrity_check says ok. The
// students whose answers were not acknowledged send them again: each is
// either taken or found already committed, never lost, never doubled.
//
// SIGKILL tests the process dying; surviving power loss as well is what
// synchronous=FULL adds (see store.Open), which store's tests check is set.
func TestCrashKeepsAcknowledgedAnswers(t *testing.T) {
	const students, questions = 60, 6
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	p := startLiveRoomProcess(ctx, t, "crash", questions, students, "s")
	room, class := p.room, p.class

	var (
		ackedClass  = map[answerKey]string{} // the explanation sent
		ackedPrac   = map[int64]string{}
		unacked     = map[answerKey]*student{}
		killedIndex = -1
	)
	explanationOf := func(k answerKey) string {
		return fmt.Sprintf("%s on question %d: a validation error, so retrying the same input will not help.", k.nick, k.index)
	}

	scenario.Run(t, scenario.Step{Name: "SIGKILL in the middle of a burst", Run: func(t *testing.T) {
		var (
			mu        sync.Mutex
			classAcks atomic.Int64
			killed    = make(chan struct{})
			killOnce  sync.Once
			killAt    = int64(students*(questions/2) + students/3) // a third of the way into a question
		)
		kill := func() {
			killOnce.Do(func() {
				p.srv.cmd.Process.Kill() // SIGKILL: no shutdown, no flush, nothing
				close(killed)
			})
		}
		// Should a check stop this step early, the practice learners stop
		// (kill, deferred last, runs first) and are waited for, so none
		// writes its acknowledgements after the step has returned.
		var practice sync.WaitGroup
		defer practice.Wait()
		defer kill()

		// Practice learners submit answers one after another until the kill.
		for i := range 6 {
			practice.Add(1)
			go func() {
				defer practice.Done()
				u := loadgen.NewVUser(p.srv.URL, p.tr)
				for n := 0; ; n++ {
					select {
					case <-killed:
						return
					default:
					}
					text := fmt.Sprintf("practice learner %d answer %d: the tool should say isError and isRetryable false.", i, n)
					if id := practiceAnswer(ctx, u, room.qids[n%len(room.qids)], text); id != 0 {
						mu.Lock()
						ackedPrac[id] = text
						mu.Unlock()
					}
				}
			}()
		}

		// The host opens each question; every student answers it at once.
		for q := 0; q < questions; q++ {
			if err := room.control(ctx, "next", q-1); err != nil {
				select {
				case <-killed:
				default:
					t.Fatal(err)
				}
				break
			}
			var burst sync.WaitGroup
			for _, st := range class {
				burst.Add(1)
				go func() {
					defer burst.Done()
					// Students are not in lockstep: the burst spreads over 0.4 s, so
					// the kill, a third of the way in, finds answers still coming
					// however late this test's goroutines see their replies.
					time.Sleep(time.Duration(rand.IntN(400)) * time.Millisecond)
					k := answerKey{st.nick, q}
					_, ok := room.answer(ctx, st, q, "A", explanationOf(k))
					mu.Lock()
					defer mu.Unlock()
					if !ok {
						unacked[k] = st
						return
					}
					ackedClass[k] = explanationOf(k)
					if classAcks.Add(1) == killAt {
						killedIndex = q
						kill()
					}
				}()
			}
			burst.Wait()
			select {
			case <-killed:
			default:
				if err := room.control(ctx, "reveal", q); err != nil {
					t.Fatal(err)
				}
				continue
			}
			break
		}
		kill() // in case the burst never reached killAt; the checks below say so
		practice.Wait()
		if code := p.srv.wait(t, 30*time.Second); code == 0 {
			t.Fatalf("the killed server exited 0")
		}
		t.Logf("killed during question %d: %d classroom answers acknowledged, %d not; %d practice answers acknowledged",
			killedIndex+1, len(ackedClass), len(unacked), len(ackedPrac))
		if killedIndex < 0 || len(unacked) == 0 {
			t.Fatalf("the kill did not land mid-burst (question %d, %d answers unacknowledged)", killedIndex+1, len(unacked))
		}
		if len(ackedPrac) == 0 {
			t.Fatal("no practice answer was acknowledged before the kill")
		}
	}}, scenario.Step{Name: "restart and resend", Run: func(t *testing.T) {
		// Restart on the same database: the room is where it was, and every
		// answer the kill cut off can be sent again.
		srv := startServer(t, p.bin, p.db)
		p.tr.CloseIdleConnections()
		for _, st := range class {
			st.u.Base = srv.URL
		}
		room.host.Base = srv.URL
		scenario.Run(t, scenario.Step{Name: "the answers the kill cut off", Run: func(t *testing.T) {
			var resent, already int
			for k, st := range unacked {
				if k.index != killedIndex {
					t.Errorf("%s's answer to question %d was not acknowledged, though the kill came in question %d", k.nick, k.index+1, killedIndex+1)
					continue
				}
				status, ok := room.answer(ctx, st, k.index, "A", explanationOf(k))
				switch {
				case ok:
					resent++
					ackedClass[k] = explanationOf(k)
				case status == http.StatusConflict: // it was committed; only the reply was lost
					already++
				default:
					t.Errorf("%s resending question %d after the restart: status %d", k.nick, k.index+1, status)
				}
			}
			t.Logf("after the restart: %d answers taken again, %d found already committed", resent, already)
		}}, scenario.Step{Name: "a practice answer", Run: func(t *testing.T) {
			if id := practiceAnswer(ctx, loadgen.NewVUser(srv.URL, p.tr), room.qids[0], "after the restart"); id == 0 {
				t.Error("a practice answer after the restart was not taken")
			}
		}}, scenario.Step{Name: "SIGTERM exits 0", Run: func(t *testing.T) {
			if err := srv.cmd.Process.Signal(sigterm); err != nil {
				t.Fatal(err)
			}
			if code := srv.wait(t, 30*time.Second); code != 0 {
				t.Fatalf("examsim serve exited %d on SIGTERM", code)
			}
		}})
	}}, scenario.Step{Name: "the database read back", Run: func(t *testing.T) {
		stored, db := storedAnswers(ctx, t, p.db, room.ID)
		t.Run("every acknowledged classroom answer, as sent", func(t *testing.T) {
			for k, text := range ackedClass {
				a := stored[k]
				switch {
				case a == nil:
					t.Errorf("LOST: %s's acknowledged answer to question %d", k.nick, k.index+1)
				case a.Choice != "A" || a.Explanation != text:
					t.Errorf("%s's answer to question %d is stored as %s %q", k.nick, k.index+1, a.Choice, a.Explanation)
				}
			}
		})
		t.Run("every student up to the killed question", func(t *testing.T) {
			for _, st := range class {
				for q := 0; q <= killedIndex; q++ {
					if stored[answerKey{st.nick, q}] == nil {
						t.Errorf("%s has no answer to question %d after resending", st.nick, q+1)
					}
				}
			}
		})
		t.Run("every acknowledged practice answer, as sent", func(t *testing.T) {
			attempts := store.NewAttemptService(db)
			for id, text := range ackedPrac {
				a, err := attempts.FindAttempt(ctx, id)
				switch {
				case err != nil:
					t.Errorf("LOST: practice attempt %d: %v", id, err)
				case a.Explanation != text:
					t.Errorf("practice attempt %d is stored as %q, want %q", id, a.Explanation, text)
				}
			}
		})
	}})
}
