package classroom_test

import (
	"context"
	"testing"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/classroom"
)

// TestBackwardClockJump: the clock goes back an hour while a question is
// open, live and after a restart (which reloads the stored start). The
// question's start is then in the future; it is treated as now: answers
// are taken, and the countdown shows at most the question's time.
func TestBackwardClockJump(t *testing.T) {
	for _, restart := range []bool{false, true} {
		f := newFixture(t)
		ctx := context.Background()
		room := f.live(t, examsim.ScoreSpeed)
		p, _, _ := room.Join(ctx, "Somchai", examsim.Thai, 0)
		if err := room.Next(ctx, -1); err != nil {
			t.Fatal(err)
		}
		f.clock.Advance(-time.Hour)
		if restart {
			hub := classroom.NewHub(classroom.Config{Store: f.classes, Bank: f.bank, Now: f.clock.Now, Grace: time.Second})
			t.Cleanup(hub.Close)
			var err error
			if room, err = hub.Room(ctx, room.ID); err != nil {
				t.Fatal(err)
			}
		}
		limit := time.Duration(room.Run().Quiz.SecondsPerQuestion) * time.Second
		if left := room.StageSnapshot().Deadline.Sub(f.clock.Now()); left > limit {
			t.Errorf("restart %v: the countdown shows %v left of a %v question", restart, left, limit)
		}
		if _, err := room.Answer(ctx, p.ID, 0, f.answerOf(0), "the lookup succeeded with no match"); err != nil {
			t.Errorf("restart %v: an answer after the clock went back an hour: %v; want it taken", restart, err)
		}
	}
}
