package e2e

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/examsim/examsim/internal/mcpfixture"
	"github.com/examsim/examsim/sandbox"
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
	app := webtest.Start(t)
	log := runConformance(t, app.URL+"/mcp", "expected-failures.yml")
	if !strings.Contains(log, "server-initialize: 1 passed") {
		t.Fatalf("the conformance run did not pass server-initialize:\n%s", log)
	}
}

// TestMCPConformanceFixture runs the suite against the fixture server
// (internal/mcpfixture) behind examsim's own endpoint (sandbox.ServeServer:
// the Origin and Host checks, the session cap, the required Mcp-Session-Id
// and -32601), with an empty baseline: every active scenario must pass, so
// the suite tests the transport examsim wrote.
func TestMCPConformanceFixture(t *testing.T) {
	srv := httptest.NewServer(sandbox.ServeServer(mcpfixture.New(), sandbox.SessionLimits{},
		sandbox.HTTPOptions{EventStore: mcp.NewMemoryEventStore(nil)}))
	defer srv.Close()
	log := runConformance(t, srv.URL, "fixture-expected-failures.yml")
	passed, failed := scenarioCounts(log)
	if passed != activeServerScenarios || failed != 0 {
		t.Fatalf("the fixture passed %d and failed %d scenarios, want all %d to pass:\n%s", passed, failed, activeServerScenarios, log)
	}
}

// activeServerScenarios is how many server scenarios the pinned suite
// (0.1.16) runs by default.
const activeServerScenarios = 30

// scenarioCounts reads the summary's per-scenario lines
// ("✓ ping: 1 passed, 0 failed") into scenarios passed and failed.
func scenarioCounts(summary string) (passed, failed int) {
	for _, line := range strings.Split(summary, "\n") {
		_, counts, ok := strings.Cut(line, ": ")
		if !ok || !strings.Contains(counts, " passed, ") || strings.HasPrefix(line, "Total") {
			continue
		}
		if strings.HasSuffix(strings.TrimSpace(counts), " 0 failed") {
			passed++
		} else {
			failed++
		}
	}
	return passed, failed
}

// runConformance runs the suite's active server scenarios against url with
// the named baseline (in web/e2e/conformance) and returns its summary; a
// baseline mismatch fails the test.
func runConformance(t *testing.T, url, baselineName string) string {
	t.Helper()
	node, suite := conformanceTools(t)
	baseline, _ := filepath.Abs(filepath.Join("conformance", baselineName))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, suite, "server", "--url", url, "--expected-failures", baseline)
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
		t.Fatalf("the conformance suite failed against %s (%v):\n%s", url, err, log)
	}
	if !strings.Contains(log, "Baseline check passed") {
		t.Fatalf("the conformance run did not report a passing baseline:\n%s", log)
	}
	t.Logf("conformance against %s:\n%s", url, log)
	return log
}
