package sandbox

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/examsim/examsim"
)

// AgentKind names an agent policy.
type AgentKind string

const (
	// Structured reads only isError, errorCategory and isRetryable.
	Structured AgentKind = "structured"
	// Naive reads only the text, as an agent does when tools give it nothing else.
	Naive AgentKind = "naive"
)

// Agents lists the agents a learner can watch.
var Agents = []AgentKind{Structured, Naive}

// MaxRetries is how often either agent resends the same call.
const MaxRetries = 3

// BaseBackoff is the structured agent's first wait: its backoff doubles from
// it, with "equal jitter" (half fixed, half random) so that many clients
// retrying at once spread out.
const BaseBackoff = time.Second

// backoff returns the wait before retry number n (from 0).
func backoff(n int, rng *rand.Rand) time.Duration {
	ceiling := BaseBackoff << n
	half := ceiling / 2
	d := half + time.Duration(rng.Int64N(int64(half)+1))
	return d.Round(10 * time.Millisecond)
}

// observation is what an agent knows when it decides.
type observation struct {
	res          *mcp.CallToolResult
	retries      int            // resends of this exact call so far
	reformulated bool           // this call is already a corrected one
	switched     bool           // this call already runs as another principal
	altPrincipal string         // a principal with more access the agent may use
	fixed        map[string]any // the corrected arguments, if the description allows a fix
	missing      map[string]any // the call for only what a partial result lacks, if there is one
}

type decision struct {
	move Move
	rule Msg
}

// envelopeOf reads the three fields the structured policy looks at.
func envelopeOf(r *mcp.CallToolResult) (category string, retryable, hasRetryable bool) {
	m, ok := r.StructuredContent.(map[string]any)
	if !ok {
		return "", false, false
	}
	category, _ = m["errorCategory"].(string)
	retryable, hasRetryable = m["isRetryable"].(bool)
	return category, retryable, hasRetryable
}

// retryAfterOf is the wait a transient error asked for, or 0.
func retryAfterOf(r *mcp.CallToolResult) time.Duration {
	m, ok := r.StructuredContent.(map[string]any)
	if !ok || !r.IsError {
		return 0
	}
	ms, _ := m["retry_after_ms"].(float64)
	return time.Duration(ms) * time.Millisecond
}

func descriptionOf(r *mcp.CallToolResult) string {
	if m, ok := r.StructuredContent.(map[string]any); ok {
		s, _ := m["description"].(string)
		return s
	}
	return ""
}

func resultCountOf(r *mcp.CallToolResult) (int, bool) {
	m, ok := r.StructuredContent.(map[string]any)
	if !ok {
		return 0, false
	}
	if n, ok := m["resultCount"].(float64); ok {
		return int(n), true
	}
	if rs, ok := m["results"].([]any); ok {
		return len(rs), true
	}
	return 0, false
}

// textOf is a result's summary line, the first text block. The sandbox's
// tools put the structuredContent mirror after it; the narration and the
// naive agent read the line a person would.
func textOf(r *mcp.CallToolResult) string {
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			return tc.Text
		}
	}
	return ""
}

// structuredDecide is the lessons' recovery policy. It reads isError, then
// isRetryable (resend unchanged, or not?), then errorCategory (if not, what
// instead?) — never the prose, except to fix an input the way the
// description says.
func structuredDecide(o observation) decision {
	if !o.res.IsError {
		if n, ok := resultCountOf(o.res); ok && n == 0 {
			return decision{MoveAccept, msg("sandbox.rule.empty")}
		}
		return decision{MoveAccept, msg("sandbox.rule.success")}
	}
	category, retryable, hasRetryable := envelopeOf(o.res)
	if !hasRetryable && category == "" {
		return decision{MoveEscalate, msg("sandbox.rule.unknown")}
	}
	if !hasRetryable {
		retryable = category == string(examsim.Transient)
	}
	if retryable {
		switch {
		case o.retries >= MaxRetries:
			return decision{MoveEscalate, msg("sandbox.rule.retries_exhausted", "Max", MaxRetries)}
		case o.missing != nil:
			return decision{MoveRetryMissing, msg("sandbox.rule.retry_missing", "Attempt", o.retries+1, "Max", MaxRetries,
				"Kept", len(partialsOf(o.res)), "Missing", o.missing["max_sources"], "Offset", o.missing["offset"])}
		case retryAfterOf(o.res) > 0:
			return decision{MoveRetry, msg("sandbox.rule.retry_after", "Attempt", o.retries+1, "Max", MaxRetries,
				"After", fmt.Sprintf("%.2f", retryAfterOf(o.res).Seconds()))}
		}
		return decision{MoveRetry, msg("sandbox.rule.retry", "Attempt", o.retries+1, "Max", MaxRetries)}
	}
	switch examsim.Category(category) {
	case examsim.Validation:
		if o.fixed != nil && !o.reformulated {
			return decision{MoveReformulate, msg("sandbox.rule.validation")}
		}
		return decision{MoveEscalate, msg("sandbox.rule.validation_stuck")}
	case examsim.Business:
		return decision{MoveEscalate, msg("sandbox.rule.business")}
	case examsim.Permission:
		if o.altPrincipal != "" && !o.switched {
			return decision{MoveSwitch, msg("sandbox.rule.permission_switch", "Principal", o.altPrincipal)}
		}
		return decision{MoveEscalate, msg("sandbox.rule.permission_escalate")}
	case examsim.Transient:
		return decision{MoveEscalate, msg("sandbox.rule.not_retryable", "Category", category)}
	}
	return decision{MoveEscalate, msg("sandbox.rule.unknown_category", "Category", category)}
}

// failureWords are what the naive agent takes for a failure: any of them in
// the text, and it retries.
var failureWords = []string{"fail", "error", "denied", "timed out", "invalid", "exceed", "rate-limit", "rate limit",
	"could not", "unavailable", "found no", "no match", "not found", "matched nothing", "[]", "0 results"}

func looksLikeFailure(text string) bool {
	t := strings.ToLower(text)
	for _, w := range failureWords {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// naiveDecide reads only the text: anything that sounds like a failure is
// retried at once, up to the limit, then handed to a human.
func naiveDecide(o observation) decision {
	text := textOf(o.res)
	if looksLikeFailure(text) {
		if o.retries < MaxRetries {
			return decision{MoveRetry, msg("sandbox.rule.naive_retry", "Text", excerpt(text, 90), "Attempt", o.retries+1, "Max", MaxRetries)}
		}
		return decision{MoveEscalate, msg("sandbox.rule.naive_give_up", "Max", MaxRetries)}
	}
	return decision{MoveAccept, msg("sandbox.rule.naive_accept", "Text", excerpt(text, 90))}
}

func excerpt(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n])) + "…"
}

var digits = regexp.MustCompile(`\d+`)

// reformatID rebuilds an id as prefix and its digits, when it has exactly n
// digits: "order 12345" becomes "#12345", "1042" becomes "C-1042".
func reformatID(id any, prefix string, n int) (string, bool) {
	s, _ := id.(string)
	d := strings.Join(digits.FindAllString(s, -1), "")
	return prefix + d, len(d) == n
}

// fixArguments corrects arguments the way a validation error's description
// says, or returns nil when the description gives no fix this agent can
// apply (then it asks a person instead of guessing).
func fixArguments(tool string, in map[string]any, description string) map[string]any {
	if description == "" {
		return nil
	}
	out := make(map[string]any, len(in))
	for k, v := range in {
		out[k] = v
	}
	switch {
	case strings.Contains(description, "#NNNNN"):
		id, ok := reformatID(in["order_id"], "#", 5)
		if !ok {
			return nil
		}
		out["order_id"] = id
	case strings.Contains(description, "C-NNNN"):
		id, ok := reformatID(in["customer_id"], "C-", 4)
		if !ok {
			return nil
		}
		out["customer_id"] = id
	case strings.Contains(description, "max_sources must be from 1 to"):
		n, _ := in["max_sources"].(float64)
		out["max_sources"] = min(max(n, 1), MaxSources)
	case strings.Contains(description, "an email needs"):
		email, _ := in["email"].(string)
		e := strings.NewReplacer(" at ", "@", "(at)", "@", "[at]", "@", " ", "").Replace(strings.TrimSpace(email))
		if !emailPattern.MatchString(strings.ToLower(e)) {
			return nil
		}
		out["email"] = e
	default:
		return nil
	}
	if fmt.Sprint(out) == fmt.Sprint(in) {
		return nil
	}
	return out
}
