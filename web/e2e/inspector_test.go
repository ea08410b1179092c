package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/examsim/examsim/sandbox"
	"github.com/examsim/examsim/web/webtest"
)

// inspectorBin returns the MCP Inspector installed by `make e2e-deps` (npm
// ci in web/e2e); TestMain has checked it and node are there.
func inspectorBin(t *testing.T) string {
	t.Helper()
	requirePrerequisites(t)
	bin, err := filepath.Abs(filepath.Join("node_modules", ".bin", "inspector"))
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// inspect runs one Inspector CLI command against url with a scratch HOME,
// and returns its JSON output and exit code.
func inspect(t *testing.T, bin, home, url string, args ...string) (map[string]any, int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"--cli", url}, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+home, "NO_COLOR=1", "MCP_CATALOG_PATH="+filepath.Join(home, "mcp.json"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("running the Inspector: %v", err)
	}
	var out map[string]any
	if jerr := json.Unmarshal(stdout.Bytes(), &out); jerr != nil {
		t.Fatalf("inspector %v: exit %d, output is not JSON: %v\nstdout: %s\nstderr: %s", args, code, jerr, stdout.String(), stderr.String())
	}
	return out, code, stderr.String()
}

// TestMCPInspectorCLI is the test with a real external client: the MCP
// Inspector, a strict client that checks structuredContent against each
// tool's outputSchema even for errors, lists the six tools and calls every
// trigger.
func TestMCPInspectorCLI(t *testing.T) {
	bin := inspectorBin(t)
	app := webtest.Start(t)
	url := app.URL + "/mcp"
	home := t.TempDir()

	list, code, stderr := inspect(t, bin, home, url, "--method", "tools/list")
	if code != 0 {
		t.Fatalf("tools/list exit %d: %s", code, stderr)
	}
	var names []string
	for _, tool := range list["tools"].([]any) {
		tm := tool.(map[string]any)
		names = append(names, tm["name"].(string))
		if tm["outputSchema"] == nil || tm["description"] == "" {
			t.Errorf("%s lacks an outputSchema or a description", tm["name"])
		}
	}
	if got := strings.Join(names, ","); got != "book_courier,get_financial_records,issue_refund,lookup_customer,lookup_order,search_sources" {
		t.Fatalf("tools = %s", got)
	}

	tests := []struct {
		name     string
		args     []string
		isError  bool
		category string // for errors
		count    int    // resultCount for lookups, -1 to skip
		partial  int
		retry    bool // the envelope carries retry_after_ms
	}{
		{"valid empty result", []string{"--tool-name", "lookup_customer", "--tool-arg", "email=maria.k@example.com"}, false, "", 0, 0, false},
		{"known customer", []string{"--tool-name", "lookup_customer", "--tool-arg", "email=a.nowak@example.com"}, false, "", 1, 0, false},
		// Each --cli call is a new session, so slow.example's outage starts over every time.
		{"slow.example times out", []string{"--tool-name", "lookup_customer", "--tool-arg", "email=jo.lee@slow.example"}, true, "transient", -1, 0, true},
		{"down.example stays down", []string{"--tool-name", "lookup_customer", "--tool-arg", "email=pat.kim@down.example"}, true, "transient", -1, 0, true},
		{"flaky.example drops the first call", []string{"--tool-name", "lookup_customer", "--tool-arg", "email=sam.ng@flaky.example"}, true, "transient", -1, 0, false},
		{"silent mode hides a timeout", []string{"--tool-name", "lookup_customer", "--tool-arg", "email=jo.lee@slow.example", "--tool-metadata", "examsim/errors=silent"}, false, "", 0, 0, false},
		{"malformed email", []string{"--tool-name", "lookup_customer", "--tool-arg", "email=maria.k.example.com"}, true, "validation", -1, 0, false},
		{"wrong type", []string{"--tool-name", "lookup_customer", "--tool-arg", "email=42"}, true, "validation", -1, 0, false},
		{"order-abc", []string{"--tool-name", "lookup_order", "--tool-arg", "order_id=order-abc"}, true, "validation", -1, 0, false},
		{"extra argument", []string{"--tool-name", "lookup_order", "--tool-arg", "order_id=#12345", "--tool-arg", "note=hi"}, true, "validation", -1, 0, false},
		{"known order", []string{"--tool-name", "lookup_order", "--tool-arg", "order_id=#12345"}, false, "", 1, 0, false},
		{"refund over the limit", []string{"--tool-name", "issue_refund", "--tool-arg", "order_id=#12345", "--tool-arg", "amount_gbp=750"}, true, "business", -1, 0, false},
		{"refund within the limit", []string{"--tool-name", "issue_refund", "--tool-arg", "order_id=#12345", "--tool-arg", "amount_gbp=500"}, false, "", -1, 0, false},
		{"refund over the order total", []string{"--tool-name", "issue_refund", "--tool-arg", "order_id=#30517", "--tool-arg", "amount_gbp=130"}, true, "business", -1, 0, false},
		{"finance denied", []string{"--tool-name", "get_financial_records", "--tool-arg", "customer_id=C-1042"}, true, "permission", -1, 0, false},
		{"finance via _meta", []string{"--tool-name", "get_financial_records", "--tool-arg", "customer_id=C-1042", "--tool-metadata", "examsim/principal=finance-analyst"}, false, "", 2, 0, false},
		{"finance via a header", []string{"--tool-name", "get_financial_records", "--tool-arg", "customer_id=C-1042", "--header", "X-Examsim-Principal: finance-analyst"}, false, "", 2, 0, false},
		{"rate-limited search", []string{"--tool-name", "search_sources", "--tool-arg", "query=EU battery regulation", "--tool-arg", "max_sources=10"}, true, "transient", -1, 6, true},
		{"only the missing sources", []string{"--tool-name", "search_sources", "--tool-arg", "query=EU battery regulation", "--tool-arg", "max_sources=4", "--tool-arg", "offset=6"}, false, "", 4, 0, false},
		{"offset past the corpus", []string{"--tool-name", "search_sources", "--tool-arg", "query=EU battery regulation", "--tool-arg", "max_sources=5", "--tool-arg", "offset=6"}, true, "validation", -1, 0, false},
		// The Inspector's CLI declares no elicitation, so the missing postcode
		// comes back as the structured validation error.
		{"postcode missing", []string{"--tool-name", "book_courier", "--tool-arg", "order_id=#12345", "--tool-arg", "street=10 Downing Street", "--tool-arg", "city=London"}, true, "validation", -1, 0, false},
		{"courier booked", []string{"--tool-name", "book_courier", "--tool-arg", "order_id=#12345", "--tool-arg", "street=10 Downing Street", "--tool-arg", "city=London", "--tool-arg", "postcode=SW1A 2AA"}, false, "", -1, 0, false},
		{"search within the limit", []string{"--tool-name", "search_sources", "--tool-arg", "query=EU battery regulation", "--tool-arg", "max_sources=6"}, false, "", 6, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, code, stderr := inspect(t, bin, home, url, append([]string{"--method", "tools/call"}, tt.args...)...)
			isError, _ := res["isError"].(bool)
			if isError != tt.isError {
				t.Fatalf("isError = %v, want %v: %v", isError, tt.isError, res)
			}
			// The Inspector exits 0 for a result and 5 for an isError result;
			// anything else (say a schema rejection) is a failure.
			if (tt.isError && (code != 5 || !strings.Contains(stderr, "tool_is_error"))) || (!tt.isError && code != 0) {
				t.Fatalf("exit %d, stderr %s", code, stderr)
			}
			sc, _ := res["structuredContent"].(map[string]any)
			if sc == nil {
				t.Fatalf("no structuredContent: %v", res)
			}
			// content is the one-line summary, then structuredContent as JSON
			// text, for clients that forward only content.
			content, _ := res["content"].([]any)
			if len(content) != 2 {
				t.Fatalf("want the summary and the JSON mirror in content: %v", content)
			}
			mirror, _ := content[1].(map[string]any)["text"].(string)
			var mirrored map[string]any
			if err := json.Unmarshal([]byte(mirror), &mirrored); err != nil || mirrored["errorCategory"] != sc["errorCategory"] {
				t.Errorf("content[1] should mirror structuredContent: %q", mirror)
			}
			if _, ok := sc["retry_after_ms"]; ok != tt.retry {
				t.Errorf("retry_after_ms present = %v, want %v: %v", ok, tt.retry, sc)
			}
			if !tt.isError && res["isError"] != false {
				t.Errorf("a success must carry isError: false on the wire: %v", res)
			}
			if tt.isError {
				if sc["errorCategory"] != tt.category || sc["isRetryable"] != (tt.category == "transient") {
					t.Errorf("envelope = %v", sc)
				}
				for _, k := range []string{"description", "attempted_query"} {
					if s, _ := sc[k].(string); s == "" {
						t.Errorf("the envelope lacks %s: %v", k, sc)
					}
				}
				if pr, _ := sc["partial_results"].([]any); len(pr) != tt.partial {
					t.Errorf("partial_results: %d, want %d", len(pr), tt.partial)
				}
				return
			}
			if tt.count >= 0 {
				if n, _ := sc["resultCount"].(float64); int(n) != tt.count {
					t.Errorf("resultCount = %v, want %d", sc["resultCount"], tt.count)
				}
			}
		})
	}
}

// TestMCPInspectorCLILessonsAndProgress: the Inspector's CLI lists the
// lessons as resources and reads one; and a slow.example call that carries
// a progressToken is waited out and answered instead of failing. The CLI
// itself runs its client with progress reporting off, so it prints no
// notifications: that they are sent, live, is checked with the go-sdk client
// (web) and in the browser console (TestSandboxConsoleRawRPCAndSchemaForm).
func TestMCPInspectorCLILessonsAndProgress(t *testing.T) {
	bin := inspectorBin(t)
	app := webtest.Start(t)
	url := app.URL + "/mcp"
	home := t.TempDir()

	list, code, stderr := inspect(t, bin, home, url, "--method", "resources/list")
	if code != 0 {
		t.Fatalf("resources/list exit %d: %s", code, stderr)
	}
	var uris []string
	for _, r := range list["resources"].([]any) {
		uris = append(uris, r.(map[string]any)["uri"].(string))
	}
	for _, lang := range []string{"en", "pl", "th", "vi"} {
		if !slices.Contains(uris, "examsim://lessons/structured-errors/"+lang) {
			t.Errorf("resources/list lacks the %s lesson: %v", lang, uris)
		}
	}
	read, code, stderr := inspect(t, bin, home, url, "--method", "resources/read", "--uri", "examsim://lessons/structured-errors/pl")
	contents, _ := read["contents"].([]any)
	if code != 0 || len(contents) != 1 {
		t.Fatalf("resources/read exit %d: %v %s", code, read, stderr)
	}
	if c := contents[0].(map[string]any); c["mimeType"] != "text/markdown" || !strings.HasPrefix(c["text"].(string), "# Ustrukturyzowane") {
		t.Errorf("the Polish lesson as Markdown: %v", c["mimeType"])
	}

	start := time.Now()
	res, code, stderr := inspect(t, bin, home, url, "--method", "tools/call",
		"--tool-name", "lookup_customer", "--tool-arg", "email=jo.lee@slow.example", "--tool-metadata", "progressToken=p1")
	if code != 0 || res["isError"] != false || time.Since(start) < sandbox.SlowOutage {
		t.Fatalf("with a progress token the call should wait out the outage and succeed: exit %d after %s: %v %s", code, time.Since(start), res, stderr)
	}
}
