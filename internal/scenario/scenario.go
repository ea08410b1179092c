// Package scenario runs a long scenario test as named steps, each a
// subtest, so that a failure is reported under the step that caused it.
//
// It is for tests only; nothing in the server imports it.
package scenario

import "testing"

// Step is one stretch of a scenario: a subtest named for what it checks.
type Step struct {
	Name string
	Run  func(t *testing.T)
}

// Run runs steps in order. A step that fails with t.Error lets the
// scenario go on, as it would have without steps; a step that stops
// (t.Fatal, t.FailNow) fails the scenario there, since each step starts
// where the one before left off. A step that skips, or that -run filtered
// out, skips the rest of the scenario for the same reason.
func Run(t *testing.T, steps ...Step) {
	t.Helper()
	for _, s := range steps {
		ran, finished, skipped := false, false, false
		t.Run(s.Name, func(t *testing.T) {
			ran = true
			defer func() { skipped = t.Skipped() }()
			s.Run(t)
			finished = true
		})
		switch {
		case finished:
		case !ran || skipped:
			t.Skipf("skipped after %q: it was skipped or not selected by -run, and the later steps start where it left off", s.Name)
		default:
			t.Fatalf("stopped after %q: it did not finish, and the later steps start where it left off", s.Name)
		}
	}
}
