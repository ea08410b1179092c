package web_test

import (
	"context"
	"encoding/csv"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web/webtest"
)

// TestHistoryCSVHasTheRegradeColumns: history.csv carries auto_band and
// regraded beside band, as history.json and README do: a regraded answer
// shows the teacher's band, the automatic one and true.
func TestHistoryCSVHasTheRegradeColumns(t *testing.T) {
	app := webtest.Start(t)
	c := newClient(t, app.Server)
	_, kept := practise(t, c, "malformed-order-id", "B", "the id is malformed, a validation error: retrying will not help")
	_, regraded := practise(t, c, "empty-result-retry-loop", "D", "short")
	id, _ := strconv.ParseInt(regraded, 10, 64)
	if err := store.NewDisputeService(app.DB).Regrade(context.Background(), &examsim.HumanGrade{
		Target: examsim.Target{Kind: examsim.TargetAttempt, ID: id}, Band: 3, GradedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(c.get("/me/history.csv").body, "\ufeff"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, name := range []string{"band", "auto_band", "regraded"} {
		if _, ok := col[name]; !ok {
			t.Fatalf("history.csv has no %s column: %v", name, rows[0])
		}
	}
	got := map[string][3]string{}
	for _, r := range rows[1:] {
		got[r[col["attempt_id"]]] = [3]string{r[col["band"]], r[col["auto_band"]], r[col["regraded"]]}
	}
	if g := got[regraded]; g[0] != "3" || g[2] != "true" || len(g[1]) != 1 || g[1] < "0" || g[1] > "3" {
		t.Errorf("the regraded answer: band, auto_band, regraded = %v; want 3, its automatic band (0-3), true", g)
	}
	if g := got[kept]; g[0] != g[1] || g[2] != "false" {
		t.Errorf("an answer not regraded: band, auto_band, regraded = %v; want band = auto_band, false", g)
	}
}
