package scenario_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/examsim/examsim/internal/scenario"
)

// TestRunStopsOnlyWhereAStepStops runs a scenario that fails on purpose in
// a child process, and reads what the child reported: a step that calls
// t.Error lets the next run; one that calls t.Fatal stops the scenario,
// and each failure is reported under its step's name.
func TestRunStopsOnlyWhereAStepStops(t *testing.T) {
	if os.Getenv("SCENARIO_CHILD") == "1" {
		t.Skip("the child runs TestFailingScenario, not this")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFailingScenario$", "-test.v")
	cmd.Env = append(os.Environ(), "SCENARIO_CHILD=1")
	out, err := cmd.CombinedOutput()
	if _, failed := err.(*exec.ExitError); !failed {
		t.Fatalf("the failing scenario did not fail (%v):\n%s", err, out)
	}
	got := string(out)
	for _, want := range []string{
		"--- FAIL: TestFailingScenario/errors_and_goes_on",
		"step one's error",
		"--- PASS: TestFailingScenario/runs_after_an_error",
		"--- FAIL: TestFailingScenario/stops",
		"step three's fatal error",
		`stopped after "stops"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the child's output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "never_runs") || strings.Contains(got, "step four ran") {
		t.Errorf("a step after a fatal one ran:\n%s", got)
	}
}

// TestFailingScenario is the child's scenario; it runs only in the child.
func TestFailingScenario(t *testing.T) {
	if os.Getenv("SCENARIO_CHILD") != "1" {
		t.Skip("run by TestRunStopsOnlyWhereAStepStops in a child process")
	}
	scenario.Run(t,
		scenario.Step{Name: "errors and goes on", Run: func(t *testing.T) { t.Error("step one's error") }},
		scenario.Step{Name: "runs after an error", Run: func(t *testing.T) {}},
		scenario.Step{Name: "stops", Run: func(t *testing.T) { t.Fatal("step three's fatal error") }},
		scenario.Step{Name: "never runs", Run: func(t *testing.T) { t.Log("step four ran") }},
	)
}

// A step that skips (no browser, say) skips the rest rather than failing
// the scenario; the later steps depend on it, so they do not run.
func TestASkippedStepSkipsTheRest(t *testing.T) {
	later := false
	t.Run("scenario", func(t *testing.T) {
		scenario.Run(t,
			scenario.Step{Name: "skips", Run: func(t *testing.T) { t.Skip("nothing to run it on") }},
			scenario.Step{Name: "later", Run: func(t *testing.T) { later = true }},
		)
	})
	if later {
		t.Error("a step after a skipped one ran")
	}
}
