package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/examsim/examsim/internal/pgtest"
)

// The browser tests need Chromium, and from npm (make e2e-deps) axe-core
// and the MCP Inspector, which needs node. TestMain checks once: outside CI
// a missing piece skips every browser test with one message saying what to
// install; in CI (CI set, as .ci/run does) it fails the package, since a
// skip there would hide a broken setup.

// setupProblem says what is missing, "" when nothing is.
var setupProblem string

func TestMain(m *testing.M) {
	if missing := missingPrerequisites(exec.LookPath, fileExists); len(missing) > 0 {
		setupProblem = "the browser tests need " + strings.Join(missing, "; and ")
		if os.Getenv("CI") != "" {
			fmt.Fprintf(os.Stderr, "web/e2e: FAIL: %s (CI is set, so this is a failure, not a skip)\n", setupProblem)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "web/e2e: skipping every browser test: %s\n", setupProblem)
	}
	pgtest.Main(m) // runs the tests; with EXAMSIM_TEST_POSTGRES=1 webtest's apps are on PostgreSQL
}

// requirePrerequisites skips a browser test when TestMain found something
// missing (outside CI; in CI the package has failed already).
func requirePrerequisites(t *testing.T) {
	t.Helper()
	if setupProblem != "" {
		t.Skip(setupProblem)
	}
}

// chromiumNames are the names Chromium goes by on PATH.
var chromiumNames = []string{"chromium", "chromium-browser", "google-chrome"}

// chromiumPath finds Chromium on PATH, "" when there is none.
func chromiumPath(lookPath func(string) (string, error)) string {
	for _, name := range chromiumNames {
		if p, err := lookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// npmFiles are what `make e2e-deps` (npm ci in web/e2e) installs.
var npmFiles = []string{"node_modules/axe-core/axe.min.js", "node_modules/.bin/inspector"}

// missingPrerequisites lists, each with how to get it, what the browser
// tests need and this machine lacks.
func missingPrerequisites(lookPath func(string) (string, error), exists func(string) bool) []string {
	var missing []string
	if chromiumPath(lookPath) == "" {
		missing = append(missing, "Chromium on PATH (apt-get install -y chromium)")
	}
	if _, err := lookPath("node"); err != nil {
		missing = append(missing, "node and npm on PATH (apt-get install -y nodejs npm)")
	}
	for _, f := range npmFiles {
		if !exists(f) {
			missing = append(missing, "axe-core and the MCP Inspector from npm (run make e2e-deps, i.e. npm ci in web/e2e)")
			break
		}
	}
	return missing
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestMissingPrerequisitesSayWhatToInstall checks the message a machine
// without the browser tests' tools gets.
func TestMissingPrerequisitesSayWhatToInstall(t *testing.T) {
	on := func(names ...string) func(string) (string, error) {
		return func(name string) (string, error) {
			for _, n := range names {
				if n == name {
					return "/usr/bin/" + name, nil
				}
			}
			return "", exec.ErrNotFound
		}
	}
	all := func(string) bool { return true }
	none := func(string) bool { return false }
	for _, c := range []struct {
		name     string
		lookPath func(string) (string, error)
		exists   func(string) bool
		want     []string // words the message must have; none for nothing missing
	}{
		{"everything there", on("chromium", "node"), all, nil},
		{"chromium under another name", on("google-chrome", "node"), all, nil},
		{"no chromium", on("node"), all, []string{"apt-get install -y chromium"}},
		{"no npm packages", on("chromium", "node"), none, []string{"make e2e-deps"}},
		{"nothing", on(), none, []string{"chromium", "nodejs npm", "make e2e-deps"}},
	} {
		missing := missingPrerequisites(c.lookPath, c.exists)
		if (len(missing) == 0) != (len(c.want) == 0) {
			t.Errorf("%s: missing %q", c.name, missing)
			continue
		}
		msg := strings.Join(missing, "; ")
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: %q does not say %q", c.name, msg, w)
			}
		}
	}
}
