package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/examsim/examsim/web/webtest"
)

// conformanceTools returns the Node 22 binary and the suite installed by
// `make e2e-deps` in web/e2e/conformance. Without an install it skips,
// except in CI, where a missing suite is a failure.
func conformanceTools(t *testing.T) (node, suite string) {
	t.Helper()
	dir, _ := filepath.Abs("conformance")
	node = filepath.Join(dir, "node_modules", ".bin", "node")
	suite = filepath.Join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	for _, f := range []string{node, suite} {
		if _, err := os.Stat(f); err != nil {
			if os.Getenv("CI") == "" {
				t.Skipf("the MCP conformance suite is not installed (%s): run `make e2e-deps`", f)
			}
			t.Fatalf("the MCP conformance suite is missing at %s: run `make e2e-deps` (npm ci in web/e2e/conformance)", f)
		}
	}
	return node, suite
}

// TestMCPConformance runs the official MCP conformance suite (server,
// active scenarios) against the app's /mcp, with expected-failures.yml as
// the baseline: a new failure, or an expected one that starts to pass,
// fails the test.
func TestMCPConformance(t *testing.T) {
	node, suite := conformanceTools(t)
	baseline, _ := filepath.Abs(filepath.Join("conformance", "expected-failures.yml"))
	app := webtest.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, suite, "server", "--url", app.URL+"/mcp", "--expected-failures", baseline)
	cmd.Dir = t.TempDir() // the suite writes its results under the working directory
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	log := out.String()
	if i := strings.Index(log, "=== SUMMARY ==="); i >= 0 {
		log = log[i:]
	}
	if err != nil {
		t.Fatalf("the conformance suite failed against /mcp (%v):\n%s", err, log)
	}
	if !strings.Contains(log, "Baseline check passed") || !strings.Contains(log, "server-initialize: 1 passed") {
		t.Fatalf("the conformance run did not report a passing baseline:\n%s", log)
	}
}
