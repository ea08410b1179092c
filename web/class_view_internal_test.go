package web

import (
	"testing"

	"github.com/examsim/examsim/classroom"
)

// TestRosterShown lists at most rosterMax players by name, in join order.
func TestRosterShown(t *testing.T) {
	for _, n := range []int{0, 3, rosterMax, rosterMax + 50} {
		ps := make([]classroom.PlayerInfo, n)
		for i := range ps {
			ps[i].ID = int64(i + 1)
		}
		got := rosterShown(ps)
		if want := min(n, rosterMax); len(got) != want || (want > 0 && got[0].ID != 1) {
			t.Errorf("%d players: %d shown, want the first %d", n, len(got), want)
		}
	}
}
